// The Setback page of `setback-cfr serve`: what is Setback's (the auction, the bids' buttons,
// the cards each team won, the points of each deal) described to table-common.js (loaded
// first), which renders the server's view of the game for South and plays the events of each
// move (the bots' replies) one after another at the server's pace.
"use strict";

const BID_NAMES = { P: "Pass", "2": "Two", "3": "Three", "4": "Four" };

function moveText(move) {
  return BID_NAMES[move] || `${rankText(move)}${SUITS[move[1]] || ""}`;
}

// --- rendering ----------------------------------------------------------------------
function renderTable(view, interactive) {
  const bidOf = Object.fromEntries(view.bids.map((b) => [b.seat, b.bid]));
  for (const seat of ["N", "W", "E", "S"]) {
    const bid = bidOf[seat];
    const high = view.high_bidder === seat;
    renderSeat(view, seat, [], el("div", { class: `bubble${high ? " high" : ""}`,
      text: bid === undefined ? (view.phase === "bid" ? "…" : "") : `bid ${BID_NAMES[bid]}` }));
  }
  renderTrick(view.trick);
  $("trump").textContent = view.trump ? `Trump ${SUITS[view.trump]} ${SUIT_NAMES[view.trump]}` : "";
  const mine = interactive && view.to_act === "S";
  renderCards(view, mine, mine && view.phase !== "bid");
  const bidding = mine && view.phase === "bid";
  const bids = moveButtons("bid-buttons", bidding);
  if (bidding) {
    for (const bid of ["P", "2", "3", "4"]) {
      if (!view.legal.includes(bid)) continue;
      bids.append(el("button", { class: bid === "P" ? "pass" : "", "data-bid": bid,
                                 onclick: () => play(bid) }, bid === "P" ? "Pass" : `Bid ${BID_NAMES[bid]}`));
    }
  }
  renderDealInfo(view);
}

function yourTurn(view) {
  if (view.phase === "bid") {
    return view.high_bid ? `Your bid: ${SEAT_NAMES[view.high_bidder]} holds ${BID_NAMES[String(view.high_bid)]}.`
                         : "Your bid: nobody has bid yet.";
  }
  if (view.phase === "lead") {
    return view.trump ? "Your lead." : "You won the bid: lead a card, its suit is trump (the pitch).";
  }
  return "Your turn: play a highlighted card.";
}

function renderDealInfo(view) {
  const info = $("deal-info");
  info.replaceChildren();
  const dealer = el("div", {}, "Dealer ", el("b", { text: SEAT_NAMES[view.dealer] }));
  const bidText = view.bids.length
    ? view.bids.map((b) => `${SEAT_NAMES[b.seat]} ${BID_NAMES[b.bid]}`).join(", ") : "no bids yet";
  info.append(dealer, el("div", {}, "Auction ", el("b", { text: bidText })));
  if (view.high_bid) {
    info.append(el("div", {}, "Contract ",
      el("b", { text: `${SEAT_NAMES[view.high_bidder]}, ${BID_NAMES[String(view.high_bid)]}` }),
      view.trump ? ` · trump ${SUITS[view.trump]}` : ""));
  }
  info.append(el("div", {}, `Tricks played ${view.tricks_done} of 6`));
  for (const [team, id] of [["NS", "won-ns"], ["EW", "won-ew"]]) {
    const box = $(id);
    box.replaceChildren(...view.won[team].map(mini));
  }
}

function owner(team) { return team === "NS" ? "us" : team === "EW" ? "them" : ""; }
function ownerText(team) { return team === "NS" ? "N-S" : team === "EW" ? "E-W" : "–"; }
const signed = (n) => (n > 0 ? `+${n}` : `${n}`);

function historyRow(h) {
  const bid = h.bid ? `${h.bidder} ${h.bid}` : "all pass";
  const row = el("tr", {}, el("td", { text: h.number + 1 }), el("td", { text: bid }));
  for (const p of ["high", "low", "jack", "game"]) {
    row.append(el("td", { class: owner(h.points[p]), text: ownerText(h.points[p]) }));
  }
  row.append(el("td", { text: signed(h.deal_score.NS) }), el("td", { text: signed(h.deal_score.EW) }));
  return row;
}

// --- dialogs ------------------------------------------------------------------------
function dealOver(event) {
  const table = el("table", { class: "points" });
  const names = { high: "High", low: "Low", jack: "Jack", game: "Game" };
  for (const p of ["high", "low", "jack", "game"]) {
    const team = event.points[p];
    table.append(el("tr", {}, el("td", { text: names[p] }),
      el("td", { class: owner(team), text: team === "NS" ? "you + North" : team === "EW" ? "West + East" : "nobody" })));
  }
  const bid = event.bid ? `${SEAT_NAMES[event.bidder]} bid ${BID_NAMES[String(event.bid)]}.` : "Everybody passed.";
  const made = event.bid ? (event.deal_score[TEAM_OF[event.bidder]] >= 0 ? " Made it." : " Set back!") : "";
  return [el("p", { text: bid + made }), table,
          el("table", { class: "points" },
            el("tr", {}, el("td", { text: "This deal" }), el("td", { text: `N-S ${signed(event.deal_score.NS)} · E-W ${signed(event.deal_score.EW)}` })),
            el("tr", {}, el("td", { text: "Score" }), el("td", { text: `N-S ${event.score.NS} · E-W ${event.score.EW}` })))];
}

tablePage({
  name: "setback",
  title: "Setback to 11",
  deal: "deal",
  intro: null,
  isTrump: (card, trump) => trump === card[1],
  moveText,
  render: renderTable,
  yourTurn,
  historyRow,
  dealOver,
  moveTitle: (event) => (event.explain ? `${SEAT_NAMES[event.seat]} played ${moveText(event.move)}` : null),
  moveSelector: (move) => `#bid-buttons [data-bid="${move}"]`,
  explain: {
    forced: "A forced move: only one legal move, or all legal moves are one abstract action. No lookup.",
    fallback: "Key missing from the strategy: the reference's rule chose (bid Three if legal, else Pass; in play the first abstract action).",
    lookups: true,
  },
});
