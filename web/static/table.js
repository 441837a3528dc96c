// The page of `setback-cfr serve`, whatever the game: it draws what the server sends. Each
// view carries `show` (built by the game's declaration, games/<game>/table_view.py): the seats'
// bubbles and chips, the upcard, the move buttons, the status on South's turn, the deal's
// panel and the deals' table; each event carries its own words (a move's `title`, a deal's
// result `show`, an explanation's `move_texts`). What the page needs of the game before any
// view (its name, title, word for a deal, rules, the Why panel's words) rides in the body's
// `data-table`. Here: the API's fetch, card faces, the table, South's cards, the status line,
// the "Why" panel, the dialogs, and a game's flow (each move's events played one after another
// at the server's pace, the hint, starting, resuming and reloading a game).
"use strict";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES = { S: "Spades", H: "Hearts", D: "Diamonds", C: "Clubs" };
const SEAT_NAMES = { N: "North", S: "You", W: "West", E: "East" };
const ROLES = { N: "partner", S: "South", W: "bot", E: "bot" };
const TEAM_OF = { N: "NS", S: "NS", W: "EW", E: "EW" };
const RANK_NAMES = { A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "Ten", 9: "Nine", 8: "Eight",
                     7: "Seven", 6: "Six", 5: "Five", 4: "Four", 3: "Three", 2: "Two" };

const state = {
  game: null, view: null, delay: 600, bots: "", busy: false, lastExplain: null,
};

// The page's game (web/page.py): `name` (the store's word), `title` (the welcome's heading),
// `deal` (its word for a deal: "deal" or "hand"), `intro` (the welcome's rules, "" none),
// `explain` ({forced, fallback: the Why panel's words; lookups: show the keys tried first}).
const GAME = JSON.parse(document.body.dataset.table);
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
const capital = (word) => word[0].toUpperCase() + word.slice(1);

// The server answers 503 with Retry-After when its bots have more work than it will queue:
// nothing was done, so the same request is sent again after that many seconds (a little
// jitter, so that the pages turned away together do not all come back together), and the
// page says so meanwhile.
const MAX_RETRY_S = 30;

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response = await fetch(path, init);
  while (response.status === 503 && response.headers.has("Retry-After")) {
    const seconds = Math.min(MAX_RETRY_S, Math.max(1, Number(response.headers.get("Retry-After")) || 1));
    $("busy").hidden = false;
    await sleep(1000 * seconds * (0.8 + 0.4 * Math.random()));
    response = await fetch(path, init);
  }
  $("busy").hidden = true;
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
function cardName(card) { return `${RANK_NAMES[card[0]] || card[0]} of ${SUIT_NAMES[card[1]]}`; }
// trump: a card of the trump suit, or one the game adds to it (a bower)
function isTrump(card) {
  const v = state.view;
  return Boolean(v && v.trump && (card[1] === v.trump || v.show.trump_also.includes(card)));
}
function cardFace(card, tag = "div", attrs = {}) {
  const node = el(tag, { class: `card${isRed(card) ? " red" : ""}${isTrump(card) ? " trumpcard" : ""}`,
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
// A move's words, as the server named them for this explanation (else the move itself).
function moveText(x, move) { return (x.move_texts && x.move_texts[move]) || move; }

// --- rendering ----------------------------------------------------------------------
function render(view, { interactive = false } = {}) {
  state.view = view;
  const show = view.show;
  $("score-ns").textContent = view.score.NS;
  $("score-ew").textContent = view.score.EW;
  for (const seat of ["N", "W", "E", "S"]) renderSeat(view, seat, show.seats[seat]);
  renderKitty(show.kitty);
  renderTrick(show.trick ? view.trick : null);
  $("trump").textContent = view.trump ? `Trump ${SUITS[view.trump]} ${SUIT_NAMES[view.trump]}` : "";
  $("tally").textContent = show.tally;
  const mine = interactive && view.to_act === "S";
  renderCards(view, mine, mine && show.cards).classList.toggle("calling", mine && !show.cards);
  renderButtons(mine ? show.buttons : [], show.note);
  renderDealInfo(view);
  renderStatus(view, interactive);
  renderHistory(view);
  $("last-trick").disabled = !view.last_trick;
  $("hint").disabled = !(interactive && view.to_act === "S");
  const download = $("download");
  download.hidden = view.status !== "over";
  download.href = `/api/games/${view.game}/replay`;
  download.setAttribute("download", `${GAME.name}-${view.game}.json`);
}

// A seat's box: its name with the dealer's chip and the game's chips, its bubble (a bid, a
// call), and a bot's card backs (overlapping more when there are many).
function renderSeat(view, seat, dress) {
  const box = document.querySelector(`.seat-${seat}`);
  box.replaceChildren();
  box.classList.toggle("to-act", view.to_act === seat);
  box.classList.toggle("sits-out", dress.out);
  const name = el("div", { class: "name" }, SEAT_NAMES[seat],
                  el("span", { class: "role", text: `(${ROLES[seat]})` }));
  if (view.dealer === seat) name.append(el("span", { class: "chip dealer", text: "dealer", title: "deals this hand" }));
  for (const [text, style, title] of dress.chips) name.append(el("span", { class: `chip ${style}`, text, title: title || null }));
  box.append(name, el("div", { class: `bubble${dress.mark ? ` ${dress.mark}` : ""}`, text: dress.bubble }));
  if (seat !== "S") {
    const backs = el("div", { class: `backs${view.held[seat] > 8 ? " many" : ""}`, "aria-label": `${view.held[seat]} cards` });
    for (let i = 0; i < view.held[seat]; i++) backs.append(el("div", { class: "back" }));
    box.append(backs);
  }
}

// A card turned up in the middle of the table (an upcard), or none.
function renderKitty(kitty) {
  const box = $("kitty");
  box.replaceChildren();
  box.hidden = !kitty;
  if (!kitty) return;
  box.classList.toggle("down", kitty.down);
  box.append(cardFace(kitty.card), el("span", { class: "caption", text: kitty.caption }));
}

// The trick on the table (null: an empty table), its winner's card marked.
function renderTrick(trick) {
  for (const seat of ["N", "W", "E", "S"]) document.querySelector(`.slot-${seat}`).replaceChildren();
  if (!trick) return;
  for (const { seat, card } of trick.cards) {
    const face = cardFace(card);
    if (trick.winner === seat) face.classList.add("winner");
    document.querySelector(`.slot-${seat}`).append(face);
  }
}

// South's cards as buttons: `mine` when South is to act, the legal ones enabled when
// `playing` (South plays a card now). Returns the hand's box.
function renderCards(view, mine, playing) {
  const hand = $("hand");
  hand.replaceChildren();
  hand.classList.toggle("waiting", !mine);
  hand.style.setProperty("--cards", view.hand.length);  // CSSOM (the CSP forbids style attributes): the overlap
  for (const card of view.hand) {
    const legal = playing && view.legal.includes(card);
    const face = cardFace(card, "button", { type: "button", disabled: !legal });
    if (legal) {
      face.classList.add("legal");
      face.addEventListener("click", () => play(card));
    }
    hand.append(face);
  }
  return hand;
}

// South's move buttons other than cards (bids, calls: the server's `buttons`), and a note.
function renderButtons(buttons, note) {
  const box = $("moves");
  box.replaceChildren();
  box.hidden = !buttons.length;
  for (const b of buttons) {
    box.append(el("button", { class: b.style, "data-move": b.move, title: b.title || null,
                              onclick: () => play(b.move) }, b.label));
  }
  if (buttons.length && note) box.append(el("span", { class: "label", text: note }));
}

// An info line's segments: text, {b: bold text} or {card: a mini card}.
function segments(line) {
  return line.map((s) => (typeof s === "string" ? s : s.card ? mini(s.card) : el("b", { text: s.b })));
}
// A table's row of [text, class] cells.
function cells(row, tag = "td") { return row.map(([text, style]) => el(tag, { class: style || null, text })); }

function renderDealInfo(view) {
  const show = view.show;
  $("deal-info").replaceChildren(...show.info.map((line) => el("div", {}, ...segments(line))));
  $("deal-tables").replaceChildren(...show.tables.map((t) => el("table", { class: "contracts", id: t.id || null },
    el("thead", {}, el("tr", {}, ...t.head.map((h) => el("th", { text: h })))),
    el("tbody", {}, ...t.rows.map((r) => el("tr", { class: r.style || null }, ...cells(r.cells)))))));
  $("card-rows").replaceChildren(...show.card_rows.map((r) => el("div", {}, el("span", { class: "label", text: r.label }),
    el("div", { class: "minicards" }, ...r.cards.map(mini)))));
  const list = $("tricks-list");
  list.replaceChildren(...((view.tricks || []).map((t, i) => {
    const row = el("div", { class: "row" }, el("span", { class: "n", text: `${i + 1}.` }));
    for (const { seat, card } of t.cards) {
      const m = mini(card);
      m.prepend(el("small", { text: seat }));
      if (seat === t.winner) m.classList.add("best");
      row.append(m);
    }
    row.append(el("span", { class: `who ${TEAM_OF[t.winner] === "NS" ? "us" : "them"}`, text: SEAT_NAMES[t.winner] }));
    return row;
  })));
  list.scrollTop = list.scrollHeight;
}

function renderStatus(view, interactive) {
  const status = $("status");
  let text;
  if (view.status === "over") {
    text = view.winner === "NS" ? `You and North won ${view.score.NS} to ${view.score.EW}.`
                                : `West and East won ${view.score.EW} to ${view.score.NS}.`;
  } else if (view.to_act === "S") {
    // not interactive: South's move is on its way (or the page is only showing the game)
    text = interactive ? view.show.your_turn : "Your turn.";
  } else if (view.to_act) {
    text = `${SEAT_NAMES[view.to_act]} is thinking…`;
  } else {
    text = `the ${GAME.deal} is over.`;  // its last card is played; the next one is dealt after
  }
  status.textContent = `${capital(GAME.deal)} ${view.deal + 1} · ${text}`;
  status.classList.toggle("your-turn", interactive && view.to_act === "S");
}

function renderHistory(view) {
  $("history").querySelector("tbody").replaceChildren(...view.show.history.map((row) => el("tr", {}, ...cells(row))));
  const box = $("history-box");
  box.scrollTop = box.scrollHeight;  // the latest deal in sight
}

// --- the reasoning panel ------------------------------------------------------------
function renderExplain(x, title) {
  $("explain-title").textContent = title;
  const box = $("explain");
  box.replaceChildren();
  if (!x) return;
  box.append(el("div", { class: "explain-head" }, el("b", { text: moveText(x, x.move) }), ` — ${x.player}`));
  if (x.reason === "forced") {
    box.append(el("p", { class: "muted", text: GAME.explain.forced }));
    return;
  }
  if (x.reason === "network" || (x.key == null && x.lookups && !x.lookups.length && x.reason === "search")) {
    // a policy network (net:FILE, or search on one) reads the whole view: no key to show
    box.append(el("p", { class: "muted", text: "Policy network (train distill): its probability of each " +
                         "legal move, from the seat's whole view." }));
  } else {
    const keyLine = el("div", {}, x.kind ? `${x.kind} key ` : "key ",
                       x.key ? el("span", { class: "key", text: x.key }) : el("i", { text: "none" }));
    if (x.reason === "rules") keyLine.append(el("span", { class: "tag rules", text: "rule-based player" }));
    else if (x.key) keyLine.append(el("span", { class: `tag ${x.found ? "found" : "missing"}`, text: x.found ? "found" : "not found" }));
    box.append(keyLine);
  }
  for (const look of GAME.explain.lookups ? x.lookups || [] : []) {
    if (look.key === x.key) continue;
    box.append(el("div", { class: "muted" }, `first tried ${look.kind} key `,
                  el("span", { class: "key", text: look.key }), look.found ? " (found)" : " (not found)"));
  }
  if (x.reason === "fallback") {
    box.append(el("p", { class: "muted", text: GAME.explain.fallback }));
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
        el("td", { text: moveText(x, a.move) }),
        el("td", { text: p == null ? "–" : `${(p * 100).toFixed(1)}%` }),
        el("td", {}, el("div", { class: "bar" }, fill))));
    });
    box.append(table);
  }
  if (x.searched && x.searched.length) renderSearched(x);
}

// A search player's figures: each legal move's mean points of the deal for the bot's team,
// rolled out over the sampled worlds (a game's search player, play/search_base.py), best first.
function renderSearched(x) {
  const box = $("explain");
  box.append(el("p", { class: "muted", text: `Searched ${x.worlds} layouts of the hidden cards, each move ` +
                       `played out with the blueprint. Value: the bot's team's points minus the other's, this ${GAME.deal}, on average.` }));
  const values = x.searched.map((s) => s.value);
  const low = Math.min(...values), span = Math.max(...values) - low || 1;
  const table = el("table", { class: "actions-table searched-table" });
  table.append(el("tr", { class: "muted" }, el("td", { text: "plays" }), el("td", { text: "searched value" }),
                  el("td")));
  for (const s of x.searched) {
    const fill = el("span");
    fill.style.width = `${Math.round(((s.value - low) / span) * 100)}%`;  // CSSOM, as above
    table.append(el("tr", { class: s.move === x.move ? "chosen" : "" },
      el("td", { text: moveText(x, s.move) }),
      el("td", { text: `${s.value >= 0 ? "+" : ""}${s.value.toFixed(2)}` }),
      el("td", {}, el("div", { class: "bar" }, fill))));
  }
  box.append(table);
  if (x.belief && x.belief.length) renderBelief(x);
}

// Where the search believed the cards that matter lie (the bot says which), per cent of the
// layouts searched, by seat.
function renderBelief(x) {
  const belief = x.belief;
  const box = $("explain");
  const seats = Object.keys(belief[0].percent);
  box.append(el("p", { class: "muted", text: "Where the bot believes these cards are " +
                       "(per cent of the layouts it searched):" }));
  const table = el("table", { class: "actions-table belief-table" });
  table.append(el("tr", { class: "muted" }, el("td", { text: "card" }),
                  ...seats.map((s) => el("td", { text: s }))));
  for (const b of belief) {
    const top = Math.max(...seats.map((s) => b.percent[s]));
    table.append(el("tr", {}, el("td", { text: moveText(x, b.card) }),
      ...seats.map((s) => el("td", { class: b.percent[s] === top && top > 0 ? "chosen" : "",
                                     text: `${b.percent[s].toFixed(0)}%` }))));
  }
  box.append(table);
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
  dialog(el("h2", { text: `${capital(GAME.deal)} ${event.number + 1} is over` }), event.show.text ? el("p", { text: event.show.text }) : null,
         el("table", { class: "points" }, ...event.show.rows.map((row) => el("tr", {}, ...cells(row)))),
         el("div", { class: "buttons" }));
  await waitForButton(event.next_game_over ? "See the result" : `Next ${GAME.deal}`, "next-deal");
}

function showGameOver(view) {
  const won = view.winner === "NS";
  dialog(el("h2", { id: "final-score", text: won ? "You won!" : "West and East won" }),
         el("div", { class: "big", text: `${view.score.NS} – ${view.score.EW}` }),
         el("p", { class: "muted", text: `You + North ${view.score.NS}, West + East ${view.score.EW}, after ${view.history.length} ${GAME.deal}s.` }),
         el("div", { class: "buttons" },
           el("a", { class: "button ghost", href: `/api/games/${view.game}/replay`, download: `${GAME.name}-${view.game}.json` }, "Download replay"),
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
      if (event.explain) state.lastExplain = event.explain;
      if (event.title) renderExplain(event.explain || null, event.title);
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
    renderExplain(x, `Hint: the bot would play ${moveText(x, x.move)}`);
    const target = document.querySelector(`#hand [data-card="${x.move}"], #moves [data-move="${x.move}"]`);
    if (target) { target.classList.add("hinted"); target.focus(); }
  } catch (err) {
    showError(err.message);
  }
}

function remember(game) {
  state.game = game;
  localStorage.setItem(`${GAME.name}-game`, game);
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
    list.append(el("li", {}, el("span", { text: `Game ${g.id} · ${GAME.deal} ${g.deals} · N-S ${g.score.NS}, E-W ${g.score.EW}` }),
                   el("button", { class: "ghost", onclick: () => { closeDialog(); open(g.id); } }, "Resume")));
  }
  dialog(el("h2", { text: GAME.title }),
         el("p", { text: `You play South; North is your partner; West and East are your opponents. The bots: ${state.bots}.` }),
         GAME.intro ? el("p", { class: "muted", text: GAME.intro }) : null,
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
  const key = `${GAME.name}-game`;
  const wanted = new URL(location.href).searchParams.get("game") || localStorage.getItem(key);
  if (wanted) {
    try { await open(wanted); return; } catch (err) { localStorage.removeItem(key); }
  }
  $("status").textContent = "Start a new game.";
  await start();
}

main().catch((err) => showError(err.message));
