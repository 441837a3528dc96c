// The Euchre page of `setback-cfr serve --game euchre`: what is Euchre's (the upcard, the two
// rounds of naming trump, the dealer's discard, alone or with the partner, the hand's tricks,
// the points and the score to 10) described to table-common.js (loaded first), which renders
// the server's view of the game for South and plays the events of each move (the bots'
// replies) one after another at the server's pace. The same API as Setback's page.
"use strict";

const TEAM_NAMES = { NS: "you + North", EW: "West + East" };

// --- cards and moves ----------------------------------------------------------------
// the left bower: the jack of trump's colour, a trump once trump is named
function isTrump(card, trump) {
  if (!trump) return false;
  const left = { C: "S", S: "C", D: "H", H: "D" }[trump];
  return card[1] === trump || (card[0] === "J" && card[1] === left);
}
// A move as words; `phase` tells an order-up (round 1) from naming a suit (round 2).
function moveText(move, phase) {
  if (move === null || move === undefined) return "a card, face down";
  if (move === "P") return "Pass";
  if (move === "alone") return "Go alone";
  if (move === "partner") return "Play with partner";
  if (move.length === 1) return phase === "order" ? `Order up ${SUITS[move]}` : `${SUIT_NAMES[move]} ${SUITS[move]}`;
  return `${rankText(move)}${SUITS[move[1]]}`;
}
function callText(call) {
  if (call.call === "P") return "Pass";
  if (call.round === 2) return `Names ${SUITS[call.call]}`;
  const dealer = state.view && state.view.dealer === call.seat;
  return dealer ? `Picks up ${SUITS[call.call]}` : `Order up ${SUITS[call.call]}`;
}

// --- rendering ----------------------------------------------------------------------
function renderTable(view, interactive) {
  const lastCall = {};
  for (const c of view.calls) lastCall[c.seat] = c;
  const naming = view.phase === "order" || view.phase === "name";
  for (const seat of ["N", "W", "E", "S"]) {
    const call = lastCall[seat];
    let bubble = "";
    if (call) bubble = callText(call);
    else if (naming) bubble = "…";
    const box = renderSeat(view, seat, [
      view.maker === seat ? el("span", { class: "chip maker", text: "maker", title: "named trump" }) : null,
      view.maker === seat && view.alone ? el("span", { class: "chip alone", text: "alone" }) : null,
      view.out === seat ? el("span", { class: "chip out", text: "sits out" }) : null,
    ], el("div", { class: `bubble${call && call.call !== "P" ? " called" : ""}`, text: bubble }));
    box.classList.toggle("sits-out", view.out === seat);
  }
  // the upcard while trump is named, else the trick on the table
  const kitty = $("kitty");
  kitty.replaceChildren();
  kitty.hidden = !naming;
  kitty.classList.toggle("down", view.upcard_status === "turned down");
  if (naming) {
    kitty.append(cardFace(view.upcard),
                 el("span", { class: "caption", text: view.upcard_status === "up" ? "turned up" : "turned down" }));
  }
  renderTrick(naming ? null : view.trick);
  $("trump").textContent = view.trump ? `Trump ${SUITS[view.trump]} ${SUIT_NAMES[view.trump]}` : "";
  $("tally").textContent = view.trump ? `Tricks N-S ${view.tricks_won.NS} · E-W ${view.tricks_won.EW}` : "";
  renderHand(view, interactive);
  renderDealInfo(view);
}

function renderHand(view, interactive) {
  const mine = interactive && view.to_act === "S";
  const cards = mine && (view.phase === "discard" || view.phase === "lead" || view.phase === "follow");
  renderCards(view, mine, cards).classList.toggle("calling", mine && !cards);
  // the calls: pass / order up / name a suit, then alone or with the partner
  const calling = mine && !cards;
  const calls = moveButtons("call-buttons", calling);
  if (!calling) return;
  for (const move of view.legal) {
    let label = moveText(move, view.phase);
    if (view.phase === "order" && move !== "P" && view.dealer === "S") label = `Pick it up ${SUITS[move]}`;
    if (view.phase === "name" && move !== "P") label = `Name ${SUITS[move]} ${SUIT_NAMES[move]}`;
    const kind = move === "P" ? "pass" : move.length === 1 ? `suit${"HD".includes(move) ? " red" : ""}` : "";
    calls.append(el("button", { class: kind, "data-move": move, onclick: () => play(move) }, label));
  }
  if (view.stuck) calls.append(el("span", { class: "label", text: "(the dealer is stuck: no pass)" }));
}

function yourTurn(view) {
  const up = `${rankText(view.upcard)}${SUITS[view.upcard[1]]}`;
  if (view.phase === "order") {
    return view.dealer === "S" ? `Pick up the ${up} (its suit is trump) or pass?`
                               : `Order the ${up} up to ${SEAT_NAMES[view.dealer]} (its suit is trump) or pass?`;
  }
  if (view.phase === "name") {
    return view.stuck ? `You are the dealer and stuck: name trump (not ${SUIT_NAMES[view.upcard[1]]}).`
                      : `The ${up} was turned down: name another suit as trump, or pass.`;
  }
  if (view.phase === "discard") return `You picked up the ${up}: discard one card.`;
  if (view.phase === "alone") return "You made trump: go alone (North sits out) or play with North?";
  if (view.phase === "lead") return "Your lead.";
  return "Your turn: play a highlighted card.";
}

function renderDealInfo(view) {
  const info = $("deal-info");
  info.replaceChildren();
  info.append(el("div", {}, "Dealer ", el("b", { text: SEAT_NAMES[view.dealer] }),
                 " · upcard ", mini(view.upcard), ` ${view.upcard_status}`));
  for (const round of [1, 2]) {
    const calls = view.calls.filter((c) => c.round === round);
    if (!calls.length) continue;
    info.append(el("div", {}, `Round ${round} `,
                   el("b", { text: calls.map((c) => `${SEAT_NAMES[c.seat]} ${callText(c).toLowerCase()}`).join(", ") })));
  }
  if (view.trump) {
    const how = view.alone === null ? "" : view.alone ? ", alone" : ", with partner";
    info.append(el("div", {}, "Trump ", el("b", { text: `${SUITS[view.trump]} ${SUIT_NAMES[view.trump]}` }),
                   " by ", el("b", { text: `${SEAT_NAMES[view.maker]}${how}` })));
  }
  if (view.discard) info.append(el("div", {}, "You discarded ", mini(view.discard)));
  info.append(el("div", {}, `Tricks played ${view.tricks_done} of 5 · N-S ${view.tricks_won.NS}, E-W ${view.tricks_won.EW}`));
  const list = $("tricks-list");
  list.replaceChildren();
  view.tricks.forEach((t, i) => {
    const row = el("div", { class: "row" }, el("span", { class: "n", text: `${i + 1}.` }));
    for (const { seat, card } of t.cards) {
      const m = mini(card);
      m.prepend(el("small", { text: seat }));
      if (seat === t.winner) m.classList.add("best");
      row.append(m);
    }
    row.append(el("span", { class: `who ${TEAM_OF[t.winner] === "NS" ? "us" : "them"}`, text: SEAT_NAMES[t.winner] }));
    list.append(row);
  });
}

function historyRow(h) {
  const maker = `${h.maker}${h.alone ? " alone" : ""}`;
  const row = el("tr", {}, el("td", { text: h.number + 1 }), el("td", { text: h.dealer }),
                 el("td", { class: h.trump && "HD".includes(h.trump) ? "red" : "", text: SUITS[h.trump] || "–" }),
                 el("td", { text: maker }), el("td", { text: `${h.tricks.NS}-${h.tricks.EW}` }));
  for (const team of ["NS", "EW"]) {
    const p = h.points[team];
    row.append(el("td", { class: p ? (team === "NS" ? "us" : "them") : "", text: p ? `+${p}` : "0" }));
  }
  return row;
}

// --- dialogs ------------------------------------------------------------------------
function dealOver(event) {
  const makers = TEAM_OF[event.maker];
  const made = event.tricks[makers];
  const scorer = event.points.NS ? "NS" : "EW";
  let how;
  if (made < 3) how = `Euchred! ${SEAT_NAMES[event.maker]}'s side took ${made} trick${made === 1 ? "" : "s"}.`;
  else if (made === 5) how = event.alone ? `${SEAT_NAMES[event.maker]} went alone and took all five!` : "A march: all five tricks.";
  else how = `${SEAT_NAMES[event.maker]}'s side made it with ${made} tricks.`;
  const trump = `${SUITS[event.trump]} ${SUIT_NAMES[event.trump]}`;
  return [el("p", { text: `${SEAT_NAMES[event.maker]} made ${trump} trump${event.alone ? ", alone" : ""}. ${how}` }),
          el("table", { class: "points" },
            el("tr", {}, el("td", { text: "Tricks" }), el("td", { text: `N-S ${event.tricks.NS} · E-W ${event.tricks.EW}` })),
            el("tr", {}, el("td", { text: "Points" }), el("td", { class: scorer === "NS" ? "us" : "them", text: `${TEAM_NAMES[scorer]} +${event.points[scorer]}` })),
            el("tr", {}, el("td", { text: "Score" }), el("td", { text: `N-S ${event.score.NS} · E-W ${event.score.EW}` })))];
}

// The Why panel's title after a bot's move: its explanation, or a bot dealer's hidden discard.
function moveTitle(event) {
  if (event.explain) return `${SEAT_NAMES[event.seat]}: ${moveText(event.move, event.phase)}`;
  if (event.phase === "discard" && event.seat !== "S") return `${SEAT_NAMES[event.seat]} discarded a card, face down`;
  return null;
}

tablePage({
  name: "euchre",
  title: "Euchre to 10",
  deal: "hand",
  intro: "24 cards (9 to Ace), five each. Trump is named in two rounds: order up the turned card (the dealer picks it up and discards), or once it is turned down name another suit; the dealer is stuck in the second round. The jack of trump is highest, then the other jack of its colour. The makers score 1 for three or four tricks, 2 for all five, 4 for five alone; euchred, the defenders score 2.",
  rankNames: { 9: "Nine" },
  isTrump,
  moveText,
  render: renderTable,
  yourTurn,
  historyRow,
  dealOver,
  moveTitle,
  moveSelector: (move) => `#call-buttons [data-move="${move}"]`,
  explain: {
    forced: "A forced move: one legal move, or all legal moves are one abstract action (the dealer's discard follows the abstraction's rule). No lookup.",
    fallback: "Key missing from the database: the heuristic chose.",
    lookups: false,
  },
});
