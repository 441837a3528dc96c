// The Euchre page of `setback-cfr serve --game euchre`: renders the server's view of the game
// for South (the upcard, the two rounds of naming trump, the dealer's discard, alone or with
// the partner, the tricks, the points and the score to 10), and plays the events of each move
// (the bots' replies) one after another at the server's pace. The same API as Setback's page.
"use strict";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES = { S: "Spades", H: "Hearts", D: "Diamonds", C: "Clubs" };
const SEAT_NAMES = { N: "North", S: "You", W: "West", E: "East" };
const ROLES = { N: "partner", S: "South", W: "bot", E: "bot" };
const TEAM_OF = { N: "NS", S: "NS", W: "EW", E: "EW" };
const TEAM_NAMES = { NS: "you + North", EW: "West + East" };

const state = { game: null, view: null, delay: 600, bots: "", busy: false };

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== false && v != null) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c != null) node.append(c);
  return node;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) {
    const err = new Error(data.error || `HTTP ${response.status}`);
    err.status = response.status;
    throw err;
  }
  return data;
}

// --- cards and moves ----------------------------------------------------------------
function rankText(card) { return card[0] === "T" ? "10" : card[0]; }
function isRed(card) { return card[1] === "H" || card[1] === "D"; }
function isCard(move) { return typeof move === "string" && move.length === 2; }
// the left bower: the jack of trump's colour, a trump once trump is named
function isTrump(card, trump) {
  if (!trump) return false;
  const left = { C: "S", S: "C", D: "H", H: "D" }[trump];
  return card[1] === trump || (card[0] === "J" && card[1] === left);
}
function cardName(card) {
  const ranks = { A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "Ten", 9: "Nine" };
  return `${ranks[card[0]] || card[0]} of ${SUIT_NAMES[card[1]]}`;
}
function cardFace(card, tag = "div", attrs = {}) {
  const trump = state.view && isTrump(card, state.view.trump);
  const node = el(tag, { class: `card${isRed(card) ? " red" : ""}${trump ? " trumpcard" : ""}`,
                         "data-card": card, "aria-label": cardName(card), ...attrs });
  const corner = `${rankText(card)}${SUITS[card[1]]}`;
  node.append(el("span", { class: "corner", text: corner }),
              el("span", { class: "pip", text: SUITS[card[1]] }),
              el("span", { class: "corner bottom", text: corner }));
  return node;
}
function mini(card) {
  return el("span", { class: `mini${isRed(card) ? " red" : ""}`, text: `${rankText(card)}${SUITS[card[1]]}` });
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
function render(view, { interactive = false } = {}) {
  state.view = view;
  $("score-ns").textContent = view.score.NS;
  $("score-ew").textContent = view.score.EW;
  const lastCall = {};
  for (const c of view.calls) lastCall[c.seat] = c;
  const naming = view.phase === "order" || view.phase === "name";
  for (const seat of ["N", "W", "E", "S"]) {
    const box = document.querySelector(`.seat-${seat}`);
    box.replaceChildren();
    box.classList.toggle("to-act", view.to_act === seat);
    box.classList.toggle("sits-out", view.out === seat);
    const name = el("div", { class: "name" }, SEAT_NAMES[seat],
                    el("span", { class: "role", text: `(${ROLES[seat]})` }));
    if (view.dealer === seat) name.append(el("span", { class: "chip dealer", text: "dealer", title: "deals this hand" }));
    if (view.maker === seat) name.append(el("span", { class: "chip maker", text: "maker", title: "named trump" }));
    if (view.maker === seat && view.alone) name.append(el("span", { class: "chip alone", text: "alone" }));
    if (view.out === seat) name.append(el("span", { class: "chip out", text: "sits out" }));
    box.append(name);
    const call = lastCall[seat];
    let bubble = "";
    if (call) bubble = callText(call);
    else if (naming) bubble = "…";
    box.append(el("div", { class: `bubble${call && call.call !== "P" ? " called" : ""}`, text: bubble }));
    if (seat !== "S") {
      const backs = el("div", { class: "backs", "aria-label": `${view.held[seat]} cards` });
      for (let i = 0; i < view.held[seat]; i++) backs.append(el("div", { class: "back" }));
      box.append(backs);
    }
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
  for (const seat of ["N", "W", "E", "S"]) document.querySelector(`.slot-${seat}`).replaceChildren();
  if (view.trick && !naming) {
    for (const { seat, card } of view.trick.cards) {
      const face = cardFace(card);
      if (view.trick.winner === seat) face.classList.add("winner");
      document.querySelector(`.slot-${seat}`).append(face);
    }
  }
  $("trump").textContent = view.trump ? `Trump ${SUITS[view.trump]} ${SUIT_NAMES[view.trump]}` : "";
  $("tally").textContent = view.trump ? `Tricks N-S ${view.tricks_won.NS} · E-W ${view.tricks_won.EW}` : "";
  renderHand(view, interactive);
  renderStatus(view, interactive);
  renderDealInfo(view);
  renderHistory(view);
  $("last-trick").disabled = !view.last_trick;
  $("hint").disabled = !(interactive && view.to_act === "S");
  const download = $("download");
  download.hidden = view.status !== "over";
  download.href = `/api/games/${view.game}/replay`;
  download.setAttribute("download", `euchre-${view.game}.json`);
}

function renderHand(view, interactive) {
  const mine = interactive && view.to_act === "S";
  const hand = $("hand");
  hand.replaceChildren();
  hand.classList.toggle("waiting", !mine);
  const cards = mine && (view.phase === "discard" || view.phase === "lead" || view.phase === "follow");
  hand.classList.toggle("calling", mine && !cards);
  for (const card of view.hand) {
    const legal = cards && view.legal.includes(card);
    const face = cardFace(card, "button", { type: "button", disabled: !legal });
    if (legal) {
      face.classList.add("legal");
      face.addEventListener("click", () => play(card));
    }
    hand.append(face);
  }
  // the calls: pass / order up / name a suit, then alone or with the partner
  const calls = $("call-buttons");
  calls.replaceChildren();
  const calling = mine && !cards;
  calls.hidden = !calling;
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

function renderStatus(view, interactive) {
  const status = $("status");
  let text;
  const up = `${rankText(view.upcard)}${SUITS[view.upcard[1]]}`;
  if (view.status === "over") {
    text = view.winner === "NS" ? `You and North won ${view.score.NS} to ${view.score.EW}.`
                                : `West and East won ${view.score.EW} to ${view.score.NS}.`;
  } else if (view.to_act === "S" && interactive) {
    if (view.phase === "order") {
      text = view.dealer === "S" ? `Pick up the ${up} (its suit is trump) or pass?`
                                 : `Order the ${up} up to ${SEAT_NAMES[view.dealer]} (its suit is trump) or pass?`;
    } else if (view.phase === "name") {
      text = view.stuck ? `You are the dealer and stuck: name trump (not ${SUIT_NAMES[view.upcard[1]]}).`
                        : `The ${up} was turned down: name another suit as trump, or pass.`;
    } else if (view.phase === "discard") {
      text = `You picked up the ${up}: discard one card.`;
    } else if (view.phase === "alone") {
      text = "You made trump: go alone (North sits out) or play with North?";
    } else if (view.phase === "lead") {
      text = "Your lead.";
    } else {
      text = "Your turn: play a highlighted card.";
    }
  } else if (view.to_act) {
    text = `${SEAT_NAMES[view.to_act]} is thinking…`;
  } else {
    text = "the hand is over.";  // its last card is played; the next hand is dealt after
  }
  status.textContent = `Hand ${view.deal + 1} · ${text}`;
  status.classList.toggle("your-turn", interactive && view.to_act === "S");
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

function renderHistory(view) {
  const body = $("history").querySelector("tbody");
  body.replaceChildren();
  for (const h of view.history) {
    const maker = `${h.maker}${h.alone ? " alone" : ""}`;
    const row = el("tr", {}, el("td", { text: h.number + 1 }), el("td", { text: h.dealer }),
                   el("td", { class: h.trump && "HD".includes(h.trump) ? "red" : "", text: SUITS[h.trump] || "–" }),
                   el("td", { text: maker }), el("td", { text: `${h.tricks.NS}-${h.tricks.EW}` }));
    for (const team of ["NS", "EW"]) {
      const p = h.points[team];
      row.append(el("td", { class: p ? (team === "NS" ? "us" : "them") : "", text: p ? `+${p}` : "0" }));
    }
    body.append(row);
  }
  const box = $("history-box");
  box.scrollTop = box.scrollHeight;  // the latest hand in sight
}

// --- the reasoning panel ------------------------------------------------------------
function renderExplain(x, title, phase) {
  $("explain-title").textContent = title;
  const box = $("explain");
  box.replaceChildren();
  if (!x) return;
  box.append(el("div", { class: "explain-head" }, el("b", { text: moveText(x.move, phase) }), ` — ${x.player}`));
  if (x.reason === "forced") {
    box.append(el("p", { class: "muted", text: "A forced move: one legal move, or all legal moves are one abstract action (the dealer's discard follows the abstraction's rule). No lookup." }));
    return;
  }
  const keyLine = el("div", {}, x.kind ? `${x.kind} key ` : "key ",
                     x.key ? el("span", { class: "key", text: x.key }) : el("i", { text: "none" }));
  if (x.reason === "rules") keyLine.append(el("span", { class: "tag rules", text: "rule-based player" }));
  else keyLine.append(el("span", { class: `tag ${x.found ? "found" : "missing"}`, text: x.found ? "found" : "not found" }));
  box.append(keyLine);
  if (x.reason === "fallback") {
    box.append(el("p", { class: "muted", text: "Key missing from the database: the heuristic chose." }));
  }
  if (x.actions && x.actions.length) {
    const table = el("table", { class: "actions-table" });
    table.append(el("tr", { class: "muted" }, el("td", { text: "action" }), el("td", { text: "plays" }),
                    el("td", { text: "probability" }), el("td")));
    x.actions.forEach((a, i) => {
      const p = a.prob;
      const fill = el("span");
      fill.style.width = `${p == null ? 0 : Math.round(p * 100)}%`;  // CSSOM: the CSP forbids style attributes
      table.append(el("tr", { class: i === x.chosen ? "chosen" : "" },
        el("td", {}, el("span", { class: "key", text: a.action })),
        el("td", { text: moveText(a.move, phase) }),
        el("td", { text: p == null ? "–" : `${(p * 100).toFixed(1)}%` }),
        el("td", {}, el("div", { class: "bar" }, fill))));
    });
    box.append(table);
  }
}

// --- dialogs ------------------------------------------------------------------------
function dialog(...children) {
  $("dialog").replaceChildren(...children.filter((c) => c != null));  // null: a part left out
  $("overlay").hidden = false;
}
function closeDialog() { $("overlay").hidden = true; }
function waitForButton(label, id) {
  return new Promise((resolve) => {
    const button = el("button", { id, onclick: () => { closeDialog(); resolve(); } }, label);
    $("dialog").querySelector(".buttons").append(button);
    button.focus();
  });
}

async function showDealOver(event) {
  const makers = TEAM_OF[event.maker];
  const made = event.tricks[makers];
  const scorer = event.points.NS ? "NS" : "EW";
  let how;
  if (made < 3) how = `Euchred! ${SEAT_NAMES[event.maker]}'s side took ${made} trick${made === 1 ? "" : "s"}.`;
  else if (made === 5) how = event.alone ? `${SEAT_NAMES[event.maker]} went alone and took all five!` : "A march: all five tricks.";
  else how = `${SEAT_NAMES[event.maker]}'s side made it with ${made} tricks.`;
  const trump = `${SUITS[event.trump]} ${SUIT_NAMES[event.trump]}`;
  dialog(el("h2", { text: `Hand ${event.number + 1} is over` }),
         el("p", { text: `${SEAT_NAMES[event.maker]} made ${trump} trump${event.alone ? ", alone" : ""}. ${how}` }),
         el("table", { class: "points" },
           el("tr", {}, el("td", { text: "Tricks" }), el("td", { text: `N-S ${event.tricks.NS} · E-W ${event.tricks.EW}` })),
           el("tr", {}, el("td", { text: "Points" }), el("td", { class: scorer === "NS" ? "us" : "them", text: `${TEAM_NAMES[scorer]} +${event.points[scorer]}` })),
           el("tr", {}, el("td", { text: "Score" }), el("td", { text: `N-S ${event.score.NS} · E-W ${event.score.EW}` }))),
         el("div", { class: "buttons" }));
  await waitForButton(event.next_game_over ? "See the result" : "Next hand", "next-deal");
}

function showGameOver(view) {
  const won = view.winner === "NS";
  dialog(el("h2", { id: "final-score", text: won ? "You won!" : "West and East won" }),
         el("div", { class: "big", text: `${view.score.NS} – ${view.score.EW}` }),
         el("p", { class: "muted", text: `You + North ${view.score.NS}, West + East ${view.score.EW}, after ${view.history.length} hands.` }),
         el("div", { class: "buttons" },
           el("a", { class: "button ghost", href: `/api/games/${view.game}/replay`, download: `euchre-${view.game}.json` }, "Download replay"),
           el("button", { class: "ghost", onclick: closeDialog }, "Look at the table"),
           el("button", { id: "play-again", onclick: () => { closeDialog(); newGame(); } }, "New game")));
}

function showLastTrick() {
  const t = state.view && state.view.last_trick;
  if (!t) return;
  const row = el("div", { class: "trick-show" });
  for (const { seat, card } of t.cards) {
    const face = cardFace(card);
    if (seat === t.winner) face.classList.add("winner");
    row.append(el("figure", {}, face, el("figcaption", { text: SEAT_NAMES[seat] })));
  }
  dialog(el("h2", { text: "Last trick" }), row,
         el("p", { text: `${SEAT_NAMES[t.leader]} led; ${SEAT_NAMES[t.winner]} won it.` }),
         el("div", { class: "buttons" }, el("button", { onclick: closeDialog }, "Close")));
}

function showError(message) {
  dialog(el("h2", { text: "Sorry" }), el("p", { text: message }),
         el("div", { class: "buttons" }, el("button", { onclick: () => { closeDialog(); reload(); } }, "Reload the game")));
}

// --- playing ------------------------------------------------------------------------
async function runEvents(events) {
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    if (event.type === "move") {
      render(event.view);
      if (event.explain) {
        renderExplain(event.explain, `${SEAT_NAMES[event.seat]}: ${moveText(event.move, event.phase)}`, event.phase);
      } else if (event.phase === "discard" && event.seat !== "S") {
        renderExplain(null, `${SEAT_NAMES[event.seat]} discarded a card, face down`);
      }
      const next = events[i + 1];
      const pause = event.trick_winner ? state.delay * 1.6 : state.delay;
      if (next && pause > 0) await sleep(pause);
    } else if (event.type === "deal_over") {
      render(event.view);
      const next = events[i + 1];
      event.next_game_over = next && next.type === "game_over";
      await showDealOver(event);
    } else if (event.type === "deal") {
      render(event.view);
      if (state.delay > 0) await sleep(state.delay);
    } else if (event.type === "game_over") {
      render(event.view);
    }
  }
}

async function play(move) {
  if (state.busy) return;
  state.busy = true;
  render(state.view, { interactive: false });
  try {
    const result = await api("POST", `/api/games/${state.game}/moves`, { move, version: state.view.version });
    await runEvents(result.events);
    finish(result.view);
  } catch (err) {
    state.busy = false;
    showError(err.message);
  }
}

function finish(view) {
  state.busy = false;
  render(view, { interactive: true });
  if (view.status === "over") showGameOver(view);
}

async function hint() {
  try {
    const x = await api("GET", `/api/games/${state.game}/hint`);
    const phase = state.view.phase;
    renderExplain(x, `Hint: the bot would play ${moveText(x.move, phase)}`, phase);
    const target = document.querySelector(`#hand [data-card="${x.move}"], #call-buttons [data-move="${x.move}"]`);
    if (target) { target.classList.add("hinted"); target.focus(); }
  } catch (err) {
    showError(err.message);
  }
}

function remember(game) {
  state.game = game;
  localStorage.setItem("euchre-game", game);
  const url = new URL(location.href);
  url.searchParams.set("game", game);
  history.replaceState(null, "", url);
}

async function newGame() {
  if (state.busy) return;
  state.busy = true;
  try {
    const result = await api("POST", "/api/games", {});
    remember(result.game);
    renderExplain(null, "the bots' reasoning");
    await runEvents(result.events);
    finish(result.view);
  } catch (err) {
    state.busy = false;
    showError(err.message);
  }
}

async function open(game) {
  const result = await api("GET", `/api/games/${game}`);
  remember(game);
  finish(result.view);
}

async function reload() {
  if (state.game) {
    try { await open(state.game); return; } catch (err) { /* fall through to the start */ }
  }
  await start();
}

async function start() {
  const { games } = await api("GET", "/api/games");
  const unfinished = games.filter((g) => g.status === "playing");
  const list = el("ul", { class: "games-list" });
  for (const g of unfinished.slice(0, 6)) {
    list.append(el("li", {}, el("span", { text: `Game ${g.id} · hand ${g.deals} · N-S ${g.score.NS}, E-W ${g.score.EW}` }),
                   el("button", { class: "ghost", onclick: () => { closeDialog(); open(g.id); } }, "Resume")));
  }
  dialog(el("h2", { text: "Euchre to 10" }),
         el("p", { text: `You play South; North is your partner; West and East are your opponents. The bots: ${state.bots}.` }),
         el("p", { class: "muted", text: "24 cards (9 to Ace), five each. Trump is named in two rounds: order up the turned card (the dealer picks it up and discards), or once it is turned down name another suit; the dealer is stuck in the second round. The jack of trump is highest, then the other jack of its colour. The makers score 1 for three or four tricks, 2 for all five, 4 for five alone; euchred, the defenders score 2." }),
         unfinished.length ? el("p", { class: "muted", text: "Unfinished games:" }) : null,
         unfinished.length ? list : null,
         el("div", { class: "buttons" }, el("button", { id: "start-game", onclick: () => { closeDialog(); newGame(); } }, "New game")));
}

async function main() {
  $("new-game").addEventListener("click", newGame);
  $("hint").addEventListener("click", hint);
  $("last-trick").addEventListener("click", showLastTrick);
  const config = await api("GET", "/api/config");
  state.delay = config.delay_ms;
  state.bots = config.bots;
  const wanted = new URL(location.href).searchParams.get("game") || localStorage.getItem("euchre-game");
  if (wanted) {
    try { await open(wanted); return; } catch (err) { localStorage.removeItem("euchre-game"); }
  }
  $("status").textContent = "Start a new game.";
  await start();
}

main().catch((err) => showError(err.message));
