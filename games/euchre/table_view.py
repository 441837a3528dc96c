"""Euchre at the web table (`web.table_base.WebTable`, one game to 10, and the page every game
shares, `web/static/table.js`): the hand's face and how a hand opens (with its upcard), scores
and reads in the view, then how it shows: its words for the page, the upcard on the table while
trump is named, the calls' buttons and bubbles, the maker's chips, the hand's panel, the hands'
table and a hand's result, all as data built from the view (`show`).

The game follows `games.euchre.match.play_game`: South deals first, the deal passes clockwise
and `game.game_winner` says when a team has 10. A lone maker's partner sits out (when North
goes alone the bots play the whole hand). What South may not see stays hidden: the other
hands, and the dealer's discard unless South is the dealer (a bot dealer's discard is an event
without its card); a finished hand's replay shows everything.

A Euchre position (`POST /api/decide`, `decide --game euchre`: the one reader, `web.position`)
adds the upcard beside the hands (`SETUP_FIELDS`, `read_setup`), writes the dealer's discard
"?" for every seat but the dealer (`HIDDEN_PHASES`, `apply_hidden`: the view that seat gets at
the table) and checks voids by the suit a card follows, the left bower a trump
(`effective_suit_in`); the upcard's place is `public.py`'s, the world sampler's."""

from __future__ import annotations

from games.euchre import rules
from games.euchre import public  # noqa: F401 (the decide reader's layouts and known cards)
from games.euchre import state as S
from games.euchre.api import Hand
from games.euchre.cards import effective_suit, format_card, parse_card, power
from games.euchre.errors import EuchreError
from games.euchre.game import FIRST_DEALER, TARGET, game_winner, next_dealer  # noqa: F401
from games.euchre.state import OUT
from games.euchre.view import HIDDEN, SeatView  # noqa: F401 (a hook: the bots' view)
from games.scaffold.table import read_team_score
from games.scaffold.table_words import (SEAT_NAMES, SIDE, SUITS, SUIT_NAMES, TEAM_OF,
                                        TEAM_WORDS, bold, card, card_text, cell, chip,
                                        score_row, seats_show, suit_order, suit_text)

PAGE = {"name": "euchre", "title": "Euchre to 10", "heading": "Euchre", "target": "to 10",
        "deal": "hand", "buttons": "row",
        "intro": "24 cards (9 to Ace), five each. Trump is named in two rounds: order up the "
                 "turned card (the dealer picks it up and discards), or once it is turned down "
                 "name another suit; the dealer is stuck in the second round. The jack of trump "
                 "is highest, then the other jack of its colour. The makers score 1 for three or "
                 "four tricks, 2 for all five, 4 for five alone; euchred, the defenders score 2.",
        "history": ["#", "Dealer", "Trump", "Maker", "Tricks", "N-S", "E-W"]}
EXPLAIN = {"forced": "A forced move: one legal move, or all legal moves are one abstract action "
                     "(the dealer's discard follows the abstraction's rule). No lookup.",
           "fallback": "Key missing from the database: the heuristic chose.", "lookups": False}
PAGE["explain"] = EXPLAIN  # the Why panel's words for a forced move and a fallback
LEFT = {"C": "S", "S": "C", "D": "H", "H": "D"}  # the suit of the same colour
CARD_PHASES = ("discard", "lead", "follow")
SUIT_INDEX = {"C": 0, "D": 1, "H": 2, "S": 3}
CALL_ROUNDS = {"order": 1, "name": 2}  # the two rounds of naming trump

# --- the table's hooks (web.table_base) ----------------------------------------------------
Face = Hand
MOVE_HELP = ("'move' must be a card such as \"JD\", P (pass), a suit letter C, D, H, S, "
             "alone or partner")
REPLAY_FIELDS = {"rules": "euchre"}  # what the game's replay adds after its bots
REPLAY_SCORE = False  # a hand's replay needs no score
LAST_TRICK_CARRIES = True  # "Last trick" reaches back to the hand before
HIDDEN_PHASES = ("discard",)  # a bot dealer's discard is face down
EVENT_PHASES: dict = {}

BOTS = {"make": "games.euchre.play.tournament:make_euchre_player",  # the bots (web.bots)
        "abstraction": "games.euchre.abstraction", "undealt": "kitty"}  # the four cards not dealt


def open_hand(dealer: str, hands: dict, setup: dict | None, score: dict) -> Hand:
    """A hand with these cards and the stored upcard, to be played."""
    return Hand(dealer, hands, (setup or {}).get("upcard"))


def setup_of(hand: Hand) -> dict:
    """What the store keeps beside the dealer, hands and moves: the upcard."""
    return {"upcard": hand.upcard}


def result(hand: Hand, before: dict) -> tuple[dict, dict]:
    """(what the game score gains, the hand's result: points, tricks, maker, trump, alone) of
    a finished hand."""
    points, won = hand.points(), hand.tricks_won()
    return points, {"points": points, "tricks": {"NS": won["NS"], "EW": won["EW"]},
                    "maker": hand.maker, "trump": hand.trump, "alone": bool(hand.alone)}


def view_fields(hand: Hand, record, log: list, done: list) -> dict:
    """The view's fields of Euchre's: the upcard and what became of it, the calls of the two
    rounds, whether the dealer is stuck, the maker, alone, who sits out, South's own discard,
    the hand's tricks and each team's count."""
    calls = [{"seat": m["seat"], "call": m["move"], "round": CALL_ROUNDS[m["phase"]]}
             for m in log if m["phase"] in CALL_ROUNDS]
    ordered = any(c["round"] == 1 and c["call"] != "P" for c in calls)
    status = "up" if hand.phase == "order" else "taken" if ordered else "turned down"
    out = int(hand.state[OUT])
    discard = next((m["move"] for m in log if m["phase"] == "discard"), None)
    return {"target": 10, "upcard": hand.upcard, "upcard_status": status, "calls": calls,
            "stuck": hand.phase == "name" and hand.to_act == record.dealer
            and "P" not in hand.legal_moves(),
            "maker": hand.maker, "alone": hand.alone,
            "out": hand.seat_letter(out) if out >= 0 else None,
            "discard": discard if record.dealer == "S" else None, "tricks": done,
            "tricks_won": {team: sum(TEAM_OF[t["winner"]] == team for t in done)
                           for team in ("NS", "EW")}}


def sort_key(trump: str | None):
    """South's hand grouped by suit (trump first once named, the bowers at its top), high
    cards first."""
    order, t = suit_order(trump), SUIT_INDEX[trump] if trump else -1

    def key(text: str) -> tuple[int, int]:
        """A card's place: its (effective) suit's, then high cards first."""
        card = parse_card(text)
        if t < 0:
            return order.index(text[1]), -card
        suit = effective_suit(card, t)
        return order.index("CDHS"[suit]), -power(card, t, suit)
    return key


# --- the decide reader's hooks (web.position) -----------------------------------------------
POSITION = {"size": "five", "hand": '{"E": ["JC", "AC", "TD", "KD", "TS"]}',
            "moves": '["P", "P", "S", "?", "partner", "JS"]',
            "tokens": '"P", "S", "?", "partner" or "JS"'}  # its examples
HIDDEN_FIELDS = ()  # a view knows every field it is given (the discard: `apply_hidden`)
SETUP_FIELDS = ("upcard",)  # beside dealer, hands, moves and score: the card turned up


def read_score(score) -> tuple[int, int]:
    """(EW, NS) from a position's optional "score" (`{"NS": a, "EW": b}`, 0..9: a game to 10
    still being played)."""
    return read_team_score(score, lambda v: 0 <= v < TARGET, EuchreError,
                           '"score" must look like {"NS": 4, "EW": 7} (integers 0 to 9: the '
                           "game score before this hand of a game to 10)")


def read_hand(letter: str, cards) -> int:
    """The mask of the five cards a position shows for `letter` (the dealer's as dealt,
    before any pick-up)."""
    return Hand.read_hand(letter, cards, 0)


def read_setup(fields: dict, hand: int) -> int:
    """The upcard of a position's `fields` (`SETUP_FIELDS`), a card not in the `hand` shown."""
    if not isinstance(fields["upcard"], str):
        raise EuchreError('"upcard" must be the card turned up, such as "JD"')
    try:
        upcard = parse_card(fields["upcard"])
    except EuchreError as exc:
        raise EuchreError(f"upcard: {exc}") from None
    if hand >> upcard & 1:
        raise EuchreError(f"duplicate card {format_card(upcard)} (the upcard is in the hand "
                          "shown: the hand is as dealt, before any pick-up)")
    return upcard


def start_state(hands, score, dealer: int, upcard: int):
    """A hand's state with the known `hands` (by seat relative to the dealer; 0: unknown) and
    `upcard` turned up, stick the dealer on (as the table plays)."""
    state = S.new_state()
    S.reset_hand(state, hands, upcard, 1)
    return state


def effective_suit_in(state, card: int) -> int:
    """The suit `card` follows in `state` (trump named: the left bower is a trump), for the
    voids a position's moves show."""
    return int(effective_suit(card, state[S.TRUMP]))


def apply_hidden(state) -> int:
    """Apply the dealer's discard for a seat that does not see it, and return what that
    seat's history holds (`HIDDEN`): the rules' discard of a card everyone knows the dealer
    holds (the upcard), that card put back and the discard left unknown (`DISCARD` -1), as
    the seat's view has them."""
    upcard = int(state[S.UPCARD])
    rules.apply_discard(state, upcard)
    state[S.HAND] |= 1 << upcard
    state[S.DISCARD] = -1
    return HIDDEN


EUCHRE_MOVES = ("the calls (P, suit letters), the dealer's discard, alone or partner, then the "
                "cards, in order")
API = {"title": "Euchre", "target": "10", "replay": "setback-cfr replay --game euchre",
       "moves": "a card (JD, 9H, 10S), P (pass), a suit letter C, D, H or S (order up the "
                "upcard's suit, or name trump), alone or partner",  # web.openapi's words
       "deal": {"noun": "hand", "size": 5, "setup": ["upcard"], "score": False,
                "moves": EUCHRE_MOVES},
       "position": {"words": POSITION["size"],
                    "moves": EUCHRE_MOVES + ' ("?" for the dealer\'s discard unless the seat '
                             "to act is the dealer)",
                    "score": "the game score before this hand (default 0-0)",
                    "example": {
                        "dealer": "S", "upcard": "AS", "score": {"NS": 6, "EW": 8},
                        "hands": {"E": ["JC", "AC", "TD", "KD", "TS"]},
                        "moves": ["P", "P", "S", "?", "partner", "JS", "QS"]}}}
# (West and North pass, East orders spades up, South discards unseen by East, East plays with
# its partner; West leads the right bower, North follows: East follows with the left bower,
# a spade now, or the ten)

# --- how it shows (web/static/table.js) -----------------------------------------------------
def move_text(move: str | None, phase: str = "") -> str:
    """A move as words; `phase` tells an order-up (round 1) from naming a suit (round 2)."""
    words = {"P": "Pass", "alone": "Go alone", "partner": "Play with partner"}
    if move is None:
        return "a card, face down"
    if move in words:
        return words[move]
    if len(move) == 1:
        return f"Order up {SUITS[move]}" if phase == "order" else \
            f"{SUIT_NAMES[move]} {SUITS[move]}"
    return card_text(move)


def _call_text(call: dict, dealer: str) -> str:
    if call["call"] == "P":
        return "Pass"
    if call["round"] == 2:
        return f"Names {SUITS[call['call']]}"
    return f"{'Picks up' if dealer == call['seat'] else 'Order up'} {SUITS[call['call']]}"


def show(view: dict) -> dict:
    """What the page draws of `view` beyond the cards: seats, the upcard, buttons, panels."""
    naming = view["phase"] in ("order", "name")
    last = {c["seat"]: c for c in view["calls"]}
    bubbles = {s: _call_text(last[s], view["dealer"]) if s in last else "…" if naming else ""
               for s in "NWES"}
    marks = {s: "called" for s, c in last.items() if c["call"] != "P"}
    chips = {}
    if view["maker"]:
        chips[view["maker"]] = [chip("maker", "maker", "named trump")] + (
            [chip("alone", "alone")] if view["alone"] else [])
    if view["out"]:
        chips[view["out"]] = [chip("sits out", "out")]
    kitty = None
    if naming:
        kitty = {"card": view["upcard"], "down": view["upcard_status"] == "turned down",
                 "caption": "turned up" if view["upcard_status"] == "up" else "turned down"}
    mine = view["to_act"] == "S"
    calling = mine and view["phase"] not in CARD_PHASES
    trump = view["trump"]
    return {"seats": seats_show(bubbles, marks, chips, view["out"]), "trick": not naming,
            "kitty": kitty, "trump_also": [f"J{LEFT[trump]}"] if trump else [],
            "tally": (f"Tricks N-S {view['tricks_won']['NS']} · E-W {view['tricks_won']['EW']}"
                      if trump else ""),
            "cards": view["phase"] in CARD_PHASES,
            "buttons": [_button(move, view) for move in view["legal"]] if calling else [],
            "note": "(the dealer is stuck: no pass)" if calling and view["stuck"] else "",
            "your_turn": _your_turn(view), "info": _info(view), "tables": [], "card_rows": [],
            "history": [_history_row(h) for h in view["history"]]}


def _button(move: str, view: dict) -> dict:
    label = move_text(move, view["phase"])
    if view["phase"] == "order" and move != "P" and view["dealer"] == "S":
        label = f"Pick it up {SUITS[move]}"
    if view["phase"] == "name" and move != "P":
        label = f"Name {suit_text(move)}"
    style = "pass" if move == "P" else f"suit{' red' if move in 'HD' else ''}" \
        if len(move) == 1 else ""
    return {"move": move, "label": label, "style": style}


def _your_turn(view: dict) -> str:
    up = card_text(view["upcard"])
    phase = view["phase"]
    if phase == "order":
        return (f"Pick up the {up} (its suit is trump) or pass?" if view["dealer"] == "S" else
                f"Order the {up} up to {SEAT_NAMES[view['dealer']]} (its suit is trump) or pass?")
    if phase == "name":
        return (f"You are the dealer and stuck: name trump (not {SUIT_NAMES[view['upcard'][1]]})."
                if view["stuck"] else
                f"The {up} was turned down: name another suit as trump, or pass.")
    if phase == "discard":
        return f"You picked up the {up}: discard one card."
    if phase == "alone":
        return "You made trump: go alone (North sits out) or play with North?"
    return "Your lead." if phase == "lead" else "Your turn: play a highlighted card."


def _info(view: dict) -> list:
    lines = [["Dealer ", bold(SEAT_NAMES[view["dealer"]]), " · upcard ", card(view["upcard"]),
              f" {view['upcard_status']}"]]
    for round_ in (1, 2):
        calls = [c for c in view["calls"] if c["round"] == round_]
        if calls:
            lines.append([f"Round {round_} ", bold(", ".join(
                f"{SEAT_NAMES[c['seat']]} {_call_text(c, view['dealer']).lower()}"
                for c in calls))])
    if view["trump"]:
        how = "" if view["alone"] is None else ", alone" if view["alone"] else ", with partner"
        lines.append(["Trump ", bold(suit_text(view["trump"])), " by ",
                      bold(f"{SEAT_NAMES[view['maker']]}{how}")])
    if view["discard"]:
        lines.append(["You discarded ", card(view["discard"])])
    lines.append([f"Tricks played {view['tricks_done']} of 5 · N-S {view['tricks_won']['NS']}, "
                  f"E-W {view['tricks_won']['EW']}"])
    return lines


def _history_row(h: dict) -> list:
    row = [cell(h["number"] + 1), cell(h["dealer"]),
           cell(SUITS.get(h["trump"], "–"), "red" if h["trump"] in ("H", "D") else ""),
           cell(f"{h['maker']}{' alone' if h['alone'] else ''}"),
           cell(f"{h['tricks']['NS']}-{h['tricks']['EW']}")]
    return row + [cell(f"+{h['points'][t]}" if h["points"][t] else "0",
                       SIDE[t] if h["points"][t] else "") for t in ("NS", "EW")]


def deal_over(event: dict) -> dict:
    """The result dialog of a hand: who made trump, how the makers did, the points and the
    score."""
    maker = SEAT_NAMES[event["maker"]]
    made = event["tricks"][TEAM_OF[event["maker"]]]
    scorer = "NS" if event["points"]["NS"] else "EW"
    if made < 3:
        how = f"Euchred! {maker}'s side took {made} trick{'' if made == 1 else 's'}."
    elif made == 5:
        how = f"{maker} went alone and took all five!" if event["alone"] else \
            "A march: all five tricks."
    else:
        how = f"{maker}'s side made it with {made} tricks."
    alone = ", alone" if event["alone"] else ""
    return {"text": f"{maker} made {suit_text(event['trump'])} trump{alone}. {how}",
            "rows": [[cell("Tricks"), cell(f"N-S {event['tricks']['NS']} · "
                                           f"E-W {event['tricks']['EW']}")],
                     [cell("Points"), cell(f"{TEAM_WORDS[scorer]} +{event['points'][scorer]}",
                                           SIDE[scorer])],
                     score_row(event)]}


def move_title(event: dict) -> str | None:
    """The Why panel's title after a bot's move: its explanation, or a bot dealer's face-down
    discard (None: leave the panel as it is)."""
    if event.get("explain"):
        return f"{SEAT_NAMES[event['seat']]}: {move_text(event['move'], event['phase'])}"
    if event["phase"] == "discard" and event["seat"] != "S":
        return f"{SEAT_NAMES[event['seat']]} discarded a card, face down"
    return None
