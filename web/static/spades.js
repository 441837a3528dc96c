// The Spades page of `setback-cfr serve --game spades`: what is Spades' (the bids Nil or 1..13
// picked from a grid, the teams' contracts, the tricks each seat took, the bags, the hand's
// points and the score to 500) described to table-common.js (loaded first), which renders the
// server's view of the game for South and plays the events of each move (the bots' replies)
// one after another at the server's pace. The same API as Setback's page.
"use strict";

const TEAM_NAMES = { NS: "you + North", EW: "West + East" };
const signed = (n) => (n > 0 ? `+${n}` : `${n}`);
const isBid = (move) => move === "Nil" || /^\d+$/.test(move);

function moveText(move) {
  if (move === "Nil") return "Nil";
  if (isBid(move)) return `Bid ${move}`;
  return `${rankText(move)}${SUITS[move[1]] || ""}`;
}
function bidText(bid) { return bid === "Nil" ? "Nil" : `bid ${bid}`; }
// The bids of a team's two seats, e.g. "You 3 · North Nil" (`bids` maps seat -> bid);
// `short`: "3+Nil" (South's or West's first).
function teamBids(bids, team, short = false) {
  const seats = (team === "NS" ? ["S", "N"] : ["W", "E"]).filter((s) => bids[s] !== undefined);
  if (short) return seats.map((s) => bids[s]).join("+") || "–";
  return seats.map((s) => `${SEAT_NAMES[s]} ${bids[s]}`).join(" · ") || "–";
}
function bidsOf(view) { return Object.fromEntries(view.bids.map((b) => [b.seat, b.bid])); }

// --- rendering ----------------------------------------------------------------------
function renderTable(view, interactive) {
  const bids = bidsOf(view);
  const playing = view.phase !== "bid";
  for (const seat of ["N", "W", "E", "S"]) {
    const bid = bids[seat];
    let text = bid === undefined ? (playing ? "" : "…") : bidText(bid);
    if (bid !== undefined && playing) text += ` · took ${view.taken[seat]}`;
    renderSeat(view, seat, [], el("div", { class: `bubble${bid === "Nil" ? " nil" : ""}`, text }));
  }
  renderTrick(view.trick && view.phase !== "bid" ? view.trick : null);
  $("trump").textContent = `Trump ${SUITS.S} Spades`;
  $("tally").textContent = playing ? `Tricks N-S ${view.tricks_won.NS} · E-W ${view.tricks_won.EW}` : "";
  const mine = interactive && view.to_act === "S";
  const bidding = mine && view.phase === "bid";
  renderCards(view, mine, mine && playing).classList.toggle("calling", bidding);
  const picker = moveButtons("bid-buttons", bidding);
  if (!bidding) return renderDealInfo(view);
  for (const bid of view.legal) {
    picker.append(el("button", { class: bid === "Nil" ? "nil" : "", "data-bid": bid, title: bid === "Nil" ? "take no trick: +100, else -100" : `${bid} trick${bid === "1" ? "" : "s"}`,
                                 onclick: () => play(bid) }, bid));
  }
  if (view.legal.length < 14) {
    picker.append(el("span", { class: "label", text: `North bid ${bids.N}: together at most 13` }));
  }
  renderDealInfo(view);
}

function yourTurn(view) {
  if (view.phase === "bid") {
    const bids = bidsOf(view);
    const partner = bids.N === undefined ? "North has not bid yet" : `North bid ${bids.N}`;
    return `Your bid: how many tricks will you take? (${partner}; Nil: none at all)`;
  }
  if (view.phase === "lead") return "Your lead (a spade only from a hand of spades).";
  return "Your turn: play a highlighted card.";
}

function renderDealInfo(view) {
  const info = $("deal-info");
  info.replaceChildren(el("div", {}, "Dealer ", el("b", { text: SEAT_NAMES[view.dealer] }),
                          ` · tricks played ${view.tricks_done} of 13`));
  const bids = bidsOf(view);
  const body = $("contracts").querySelector("tbody");
  body.replaceChildren(...["NS", "EW"].map((team) => {
    const contract = view.contracts[team];
    const made = contract !== null && view.tricks_won[team] >= contract && view.phase !== "bid";
    return el("tr", { class: team === "NS" ? "us" : "them" },
      el("td", { text: team === "NS" ? "N-S" : "E-W" }), el("td", { text: teamBids(bids, team) }),
      el("td", { text: contract === null ? "–" : String(contract) }),
      el("td", { class: made ? "made" : "", text: String(view.tricks_won[team]) }),
      el("td", { text: String(view.bags[team]) }));
  }));
  const list = $("tricks-list");
  list.replaceChildren(...view.tricks.map((t, i) => {
    const row = el("div", { class: "row" }, el("span", { class: "n", text: `${i + 1}.` }));
    for (const { seat, card } of t.cards) {
      const m = mini(card);
      m.prepend(el("small", { text: seat }));
      if (seat === t.winner) m.classList.add("best");
      row.append(m);
    }
    row.append(el("span", { class: `who ${TEAM_OF[t.winner] === "NS" ? "us" : "them"}`, text: SEAT_NAMES[t.winner] }));
    return row;
  }));
  list.scrollTop = list.scrollHeight;
}

function historyRow(h) {
  const row = el("tr", {}, el("td", { text: h.number + 1 }),
                 el("td", { text: teamBids(h.bids, "NS", true) }), el("td", { text: teamBids(h.bids, "EW", true) }),
                 el("td", { text: `${h.tricks.NS}-${h.tricks.EW}` }));
  for (const team of ["NS", "EW"]) {
    const p = h.points[team];
    row.append(el("td", { class: p > 0 ? (team === "NS" ? "us" : "them") : "", text: signed(p) }));
  }
  return row;
}

// --- dialogs ------------------------------------------------------------------------
function dealOver(event) {
  const lines = [];
  for (const team of ["NS", "EW"]) {
    const seats = team === "NS" ? ["S", "N"] : ["W", "E"];
    const parts = [];
    for (const s of seats) {
      if (event.bids[s] === "Nil") parts.push(`${SEAT_NAMES[s]}'s Nil ${event.taken[s] === 0 ? "made (+100)" : "set (-100)"}`);
    }
    const contract = event.contracts[team];
    if (contract) {
      const took = event.tricks[team];
      parts.push(took >= contract ? `made ${contract} with ${took} trick${took === 1 ? "" : "s"}` : `set: ${took} of ${contract}`);
    }
    lines.push(el("tr", {}, el("td", { text: team === "NS" ? "N-S" : "E-W" }),
                  el("td", { text: parts.join("; ") || "no contract" })));
  }
  return [el("table", { class: "points" }, ...lines,
            el("tr", {}, el("td", { text: "Points" }), el("td", { text: `N-S ${signed(event.points.NS)} · E-W ${signed(event.points.EW)}` })),
            el("tr", {}, el("td", { text: "Score" }), el("td", { text: `N-S ${event.score.NS} · E-W ${event.score.EW}` })))];
}

tablePage({
  name: "spades",
  title: "Spades to 500",
  deal: "hand",
  intro: "52 cards, thirteen each; spades are always trump. Each seat bids the tricks it will take (Nil: none), the seat left of the dealer first; the partners' bids add up to their contract. Made: 10 a bid trick and 1 a trick over (a bag; every tenth bag costs 100). Set: -10 a bid trick. Nil: +100, or -100 if it takes a trick. Follow suit if you can; lead a spade only from a hand of spades. First to 500 and ahead wins; at -350 and behind loses.",
  rankNames: {},
  isTrump: (card) => card[1] === "S",
  moveText,
  render: renderTable,
  yourTurn,
  historyRow,
  dealOver,
  moveTitle: (event) => (event.explain ? `${SEAT_NAMES[event.seat]}: ${moveText(event.move)}` : null),
  moveSelector: (move) => `#bid-buttons [data-bid="${move}"]`,
  explain: {
    forced: "A forced move: one legal move. No lookup.",
    fallback: "Key missing from the database: the heuristic chose.",
    lookups: false,
  },
});
