// The page of `setback-cfr serve`: renders the server's view of the game for South, and
// plays the events of each move (the bots' replies) one after another at the server's pace.
"use strict";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES = { S: "Spades", H: "Hearts", D: "Diamonds", C: "Clubs" };
const SEAT_NAMES = { N: "North", S: "You", W: "West", E: "East" };
const ROLES = { N: "partner", S: "South", W: "bot", E: "bot" };
const BID_NAMES = { P: "Pass", "2": "Two", "3": "Three", "4": "Four" };
const TEAM_OF = { N: "NS", S: "NS", W: "EW", E: "EW" };

const state = {
  game: null, view: null, delay: 600, bots: "", busy: false, lastExplain: null,
};

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

// --- cards --------------------------------------------------------------------------
function rankText(card) { return card[0] === "T" ? "10" : card[0]; }
function isRed(card) { return card[1] === "H" || card[1] === "D"; }
function cardFace(card, tag = "div", attrs = {}) {
  const trump = state.view && state.view.trump === card[1];
  const node = el(tag, { class: `card${isRed(card) ? " red" : ""}${trump ? " trumpcard" : ""}`,
                         "data-card": card, "aria-label": cardName(card), ...attrs });
  const corner = `${rankText(card)}${SUITS[card[1]]}`;
  node.append(el("span", { class: "corner", text: corner }),
              el("span", { class: "pip", text: SUITS[card[1]] }),
              el("span", { class: "corner bottom", text: corner }));
  return node;
}
function cardName(card) {
  const ranks = { A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "Ten" };
  return `${ranks[card[0]] || card[0]} of ${SUIT_NAMES[card[1]]}`;
}
function mini(card) {
  return el("span", { class: `mini${isRed(card) ? " red" : ""}`, text: `${rankText(card)}${SUITS[card[1]]}` });
}
function moveText(move) {
  return BID_NAMES[move] || `${rankText(move)}${SUITS[move[1]] || ""}`;
}

// --- rendering ----------------------------------------------------------------------
function render(view, { interactive = false } = {}) {
  state.view = view;
  $("score-ns").textContent = view.score.NS;
  $("score-ew").textContent = view.score.EW;
  const bidOf = Object.fromEntries(view.bids.map((b) => [b.seat, b.bid]));
  for (const seat of ["N", "W", "E", "S"]) {
    const box = document.querySelector(`.seat-${seat}`);
    box.replaceChildren();
    box.classList.toggle("to-act", view.to_act === seat);
    const name = el("div", { class: "name" }, SEAT_NAMES[seat],
                    el("span", { class: "role", text: `(${ROLES[seat]})` }));
    if (view.dealer === seat) name.append(el("span", { class: "chip dealer", text: "dealer", title: "deals this hand" }));
    box.append(name);
    const bid = bidOf[seat];
    const high = view.high_bidder === seat;
    box.append(el("div", { class: `bubble${high ? " high" : ""}`,
                           text: bid === undefined ? (view.phase === "bid" ? "…" : "") : `bid ${BID_NAMES[bid]}` }));
    if (seat !== "S") {
      const backs = el("div", { class: "backs", "aria-label": `${view.held[seat]} cards` });
      for (let i = 0; i < view.held[seat]; i++) backs.append(el("div", { class: "back" }));
      box.append(backs);
    }
  }
  // the trick on the table
  for (const seat of ["N", "W", "E", "S"]) document.querySelector(`.slot-${seat}`).replaceChildren();
  if (view.trick) {
    for (const { seat, card } of view.trick.cards) {
      const face = cardFace(card);
      if (view.trick.winner === seat) face.classList.add("winner");
      document.querySelector(`.slot-${seat}`).append(face);
    }
  }
  $("trump").textContent = view.trump ? `Trump ${SUITS[view.trump]} ${SUIT_NAMES[view.trump]}` : "";
  renderHand(view, interactive);
  renderStatus(view, interactive);
  renderDealInfo(view);
  renderHistory(view);
  $("last-trick").disabled = !view.last_trick;
  $("hint").disabled = !(interactive && view.to_act === "S");
  const download = $("download");
  download.hidden = view.status !== "over";
  download.href = `/api/games/${view.game}/replay`;
  download.setAttribute("download", `setback-${view.game}.json`);
}

function renderHand(view, interactive) {
  const hand = $("hand");
  hand.replaceChildren();
  hand.classList.toggle("waiting", !(interactive && view.to_act === "S"));
  const playing = interactive && view.to_act === "S" && view.phase !== "bid";
  for (const card of view.hand) {
    const legal = playing && view.legal.includes(card);
    const face = cardFace(card, "button", { type: "button", disabled: !legal });
    if (legal) {
      face.classList.add("legal");
      face.addEventListener("click", () => play(card));
    }
    hand.append(face);
  }
  const bids = $("bid-buttons");
  bids.replaceChildren();
  const bidding = interactive && view.to_act === "S" && view.phase === "bid";
  bids.hidden = !bidding;
  if (bidding) {
    for (const bid of ["P", "2", "3", "4"]) {
      if (!view.legal.includes(bid)) continue;
      bids.append(el("button", { class: bid === "P" ? "pass" : "", "data-bid": bid,
                                 onclick: () => play(bid) }, bid === "P" ? "Pass" : `Bid ${BID_NAMES[bid]}`));
    }
  }
}

function renderStatus(view, interactive) {
  const status = $("status");
  let text;
  if (view.status === "over") {
    text = view.winner === "NS" ? `You and North won ${view.score.NS} to ${view.score.EW}.`
                                : `West and East won ${view.score.EW} to ${view.score.NS}.`;
  } else if (view.to_act === "S" && interactive) {
    if (view.phase === "bid") {
      text = view.high_bid ? `Your bid: ${SEAT_NAMES[view.high_bidder]} holds ${BID_NAMES[String(view.high_bid)]}.`
                           : "Your bid: nobody has bid yet.";
    } else if (view.phase === "lead") {
      text = view.trump ? "Your lead." : "You won the bid: lead a card, its suit is trump (the pitch).";
    } else {
      text = "Your turn: play a highlighted card.";
    }
  } else if (view.to_act) {
    text = `${SEAT_NAMES[view.to_act]} is thinking…`;
  } else {
    text = "the deal is over.";  // its last card is played; the next deal is dealt after
  }
  status.textContent = `Deal ${view.deal + 1} · ${text}`;
  status.classList.toggle("your-turn", interactive && view.to_act === "S");
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

function renderHistory(view) {
  const body = $("history").querySelector("tbody");
  body.replaceChildren();
  for (const h of view.history) {
    const bid = h.bid ? `${h.bidder} ${h.bid}` : "all pass";
    const row = el("tr", {}, el("td", { text: h.number + 1 }), el("td", { text: bid }));
    for (const p of ["high", "low", "jack", "game"]) {
      row.append(el("td", { class: owner(h.points[p]), text: ownerText(h.points[p]) }));
    }
    row.append(el("td", { text: signed(h.deal_score.NS) }), el("td", { text: signed(h.deal_score.EW) }));
    body.append(row);
  }
  const box = $("history-box");
  box.scrollTop = box.scrollHeight;  // the latest deal in sight
}
const signed = (n) => (n > 0 ? `+${n}` : `${n}`);

// --- the reasoning panel ------------------------------------------------------------
function renderExplain(x, title) {
  $("explain-title").textContent = title;
  const box = $("explain");
  box.replaceChildren();
  if (!x) return;
  const head = el("div", { class: "explain-head" }, el("b", { text: moveText(x.move) }),
                  ` — ${x.player}`);
  box.append(head);
  if (x.reason === "forced") {
    box.append(el("p", { class: "muted", text: "A forced move: only one legal move, or all legal moves are one abstract action. No lookup." }));
    return;
  }
  const keyLine = el("div", {}, x.kind ? `${x.kind} key ` : "key ",
                     x.key ? el("span", { class: "key", text: x.key }) : el("i", { text: "none" }));
  if (x.reason === "rules") keyLine.append(el("span", { class: "tag rules", text: "rule-based player" }));
  else keyLine.append(el("span", { class: `tag ${x.found ? "found" : "missing"}`, text: x.found ? "found" : "not found" }));
  box.append(keyLine);
  for (const look of x.lookups || []) {
    if (look.key === x.key) continue;
    box.append(el("div", { class: "muted" }, `first tried ${look.kind} key `,
                  el("span", { class: "key", text: look.key }), look.found ? " (found)" : " (not found)"));
  }
  if (x.reason === "fallback") {
    box.append(el("p", { class: "muted", text: "Key missing from the strategy: the reference's rule chose (bid Three if legal, else Pass; in play the first abstract action)." }));
  }
  if (x.actions && x.actions.length) {
    const table = el("table", { class: "actions-table" });
    table.append(el("tr", { class: "muted" }, el("td", { text: "action" }), el("td", { text: "plays" }),
                    el("td", { text: "probability" }), el("td")));
    x.actions.forEach((a, i) => {
      const p = a.prob;
      const fill = el("span");
      fill.style.width = `${p == null ? 0 : Math.round(p * 100)}%`;  // CSSOM: the CSP forbids style attributes
      const bar = el("div", { class: "bar" }, fill);
      table.append(el("tr", { class: i === x.chosen ? "chosen" : "" },
        el("td", {}, el("span", { class: "key", text: a.action })),
        el("td", { text: moveText(a.move) }),
        el("td", { text: p == null ? "–" : `${(p * 100).toFixed(1)}%` }),
        el("td", {}, bar)));
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
  const table = el("table", { class: "points" });
  const names = { high: "High", low: "Low", jack: "Jack", game: "Game" };
  for (const p of ["high", "low", "jack", "game"]) {
    const team = event.points[p];
    table.append(el("tr", {}, el("td", { text: names[p] }),
      el("td", { class: owner(team), text: team === "NS" ? "you + North" : team === "EW" ? "West + East" : "nobody" })));
  }
  const bid = event.bid ? `${SEAT_NAMES[event.bidder]} bid ${BID_NAMES[String(event.bid)]}.` : "Everybody passed.";
  const made = event.bid ? (event.deal_score[TEAM_OF[event.bidder]] >= 0 ? " Made it." : " Set back!") : "";
  dialog(el("h2", { text: `Deal ${event.number + 1} is over` }), el("p", { text: bid + made }), table,
         el("table", { class: "points" },
           el("tr", {}, el("td", { text: "This deal" }), el("td", { text: `N-S ${signed(event.deal_score.NS)} · E-W ${signed(event.deal_score.EW)}` })),
           el("tr", {}, el("td", { text: "Score" }), el("td", { text: `N-S ${event.score.NS} · E-W ${event.score.EW}` }))),
         el("div", { class: "buttons" }));
  await waitForButton(event.next_game_over ? "See the result" : "Next deal", "next-deal");
}

function showGameOver(view) {
  const won = view.winner === "NS";
  dialog(el("h2", { id: "final-score", text: won ? "You won!" : "West and East won" }),
         el("div", { class: "big", text: `${view.score.NS} – ${view.score.EW}` }),
         el("p", { class: "muted", text: `You + North ${view.score.NS}, West + East ${view.score.EW}, after ${view.history.length} deals.` }),
         el("div", { class: "buttons" },
           el("a", { class: "button ghost", href: `/api/games/${view.game}/replay`, download: `setback-${view.game}.json` }, "Download replay"),
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
        state.lastExplain = event.explain;
        renderExplain(event.explain, `${SEAT_NAMES[event.seat]} played ${moveText(event.move)}`);
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
    const result = await api("POST", `/api/games/${state.game}/moves`,
                             { move, version: state.view.version });
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
    renderExplain(x, `Hint: the bot would play ${moveText(x.move)}`);
    const target = document.querySelector(`#hand [data-card="${x.move}"], #bid-buttons [data-bid="${x.move}"]`);
    if (target) { target.classList.add("hinted"); target.focus(); }
  } catch (err) {
    showError(err.message);
  }
}

function remember(game) {
  state.game = game;
  localStorage.setItem("setback-game", game);
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
    list.append(el("li", {}, el("span", { text: `Game ${g.id} · deal ${g.deals} · N-S ${g.score.NS}, E-W ${g.score.EW}` }),
                   el("button", { class: "ghost", onclick: () => { closeDialog(); open(g.id); } }, "Resume")));
  }
  dialog(el("h2", { text: "Setback to 11" }),
         el("p", { text: `You play South; North is your partner; West and East are your opponents. The bots: ${state.bots}.` }),
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
  const wanted = new URL(location.href).searchParams.get("game") || localStorage.getItem("setback-game");
  if (wanted) {
    try { await open(wanted); return; } catch (err) { localStorage.removeItem("setback-game"); }
  }
  $("status").textContent = "Start a new game.";
  await start();
}

main().catch((err) => showError(err.message));
