"""Setback at the web table (`web.table_base.WebTable`, one game to 11, and the page every game
shares, `web/static/table.js`): the hand's face and how a deal opens, scores and reads in the
view, then how it shows: its words for the page, the auction's buttons and bubbles, the deal's
panel (the auction, the contract, the cards each team won), the deals' table and a deal's
result, all as data built from the view (`show`).

Unlike a tournament, every deal is played to its last card: a person expects to play out the
hand (the score is the same, `is_exhausted` says so)."""

from __future__ import annotations

from games.scaffold.table import read_team_score
from games.scaffold.table_words import (SEAT_NAMES, SIDE, TEAM_OF, TEAM_SHORT, TEAM_WORDS,
                                        bold, by_suit_then_rank, card_text, cell, score_row,
                                        seats_show, signed, suit_text)
from games.setback import public  # noqa: F401 (the decide reader's voids and layouts)
from games.setback import state as S
from games.setback.api import Deal
from games.setback.cards import RANK_CHARS, parse_hand
from games.setback.errors import SetbackError
from games.setback.game import FIRST_DEALER, game_winner, next_dealer  # noqa: F401 (hooks)
from games.setback.view import SeatView  # noqa: F401 (a hook: the bots' view)

PAGE = {"name": "setback", "title": "Setback to 11", "heading": "Setback", "target": "to 11",
        "deal": "deal", "intro": "", "buttons": "row",
        "history": ["#", "Bid", "High", "Low", "Jack", "Game", "N-S", "E-W"]}
BID_NAMES = {"P": "Pass", "2": "Two", "3": "Three", "4": "Four"}
POINTS = {"high": "High", "low": "Low", "jack": "Jack", "game": "Game"}
EXPLAIN = {"forced": "A forced move: only one legal move, or all legal moves are one abstract "
                     "action. No lookup.",
           "fallback": "Key missing from the strategy: the reference's rule chose (bid Three if "
                       "legal, else Pass; in play the first abstract action).",
           "lookups": True}
PAGE["explain"] = EXPLAIN  # the Why panel's words for a forced move and a fallback

# --- the table's hooks (web.table_base) ----------------------------------------------------
Face = Deal
MOVE_HELP = "'move' must be a card such as \"AS\" or a bid P, 2, 3, 4"
REPLAY_FIELDS: dict = {}  # what the game's replay adds after its bots
REPLAY_SCORE = True  # a deal's replay carries the score before it (the bootstrap keys)
LAST_TRICK_CARRIES = False  # "Last trick" is this deal's only
HIDDEN_PHASES = ()  # no bot's move is face down
EVENT_PHASES = {"lead": "card", "follow": "card"}  # a move event's phase: bid or card

BOTS = {"make": "games.setback.play.grammar:make_player",  # the bots (web.bots): the player grammar,
        "describe": "games.setback.abstraction.describe:describe_decision",  # a rule player's key
        "undealt": "undealt"}  # the belief's word for the cards no seat holds


def open_hand(dealer: str, hands: dict, setup, score: dict) -> Deal:
    """A deal with these hands, to be played."""
    return Deal(dealer, hands)


def setup_of(deal: Deal) -> None:
    """What the store keeps beside the hands: nothing."""
    return None


def result(deal: Deal, before: dict) -> tuple[dict, dict]:
    """(what the game score gains, the deal's result) of a finished deal: the points' teams,
    the deal's score, the high bid and its bidder."""
    deal_score = deal.deal_score()
    high = int(deal.state[S.HIGH_BID])
    bidder = deal.seat_letter(int(deal.state[S.HIGH_BIDDER])) if high else None
    return deal_score, {"points": deal.points(), "deal_score": deal_score, "bid": high,
                        "bidder": bidder}


def view_fields(deal: Deal, record, log: list, done: list) -> dict:
    """The view's fields of Setback's: the auction (the bids, the high bid and bidder) and the
    cards each team has won this deal."""
    high = int(deal.state[S.HIGH_BID])
    won: dict = {"EW": [], "NS": []}
    for trick in done:
        won[TEAM_OF[trick["winner"]]] += [c["card"] for c in trick["cards"]]
    return {"bids": [{"seat": m["seat"], "bid": m["move"]} for m in log if m["phase"] == "bid"],
            "high_bid": high,
            "high_bidder": deal.seat_letter(int(deal.state[S.HIGH_BIDDER])) if high else None,
            "won": won}


def sort_key(trump: str | None):
    """South's hand grouped by suit (trump first once known), high cards first."""
    return by_suit_then_rank(trump, RANK_CHARS)


# --- the decide reader's hooks (web.position) -----------------------------------------------
POSITION = {"size": "six", "hand": '{"N": ["QH", "TH", "5D", "9C", "4S", "8C"]}',
            "moves": '["3", "P", "AS"]', "tokens": '"P", "3" or "AS"'}  # its examples
HIDDEN_FIELDS = (S.EXHAUSTED,)  # whether the Jack was dealt: the hidden hands'
MAX_SCORE = 10**9  # as `setback-cfr replay`: keeps the scores inside the key builder's int64


def read_score(score) -> tuple[int, int]:
    """(EW, NS) from a position's optional "score"."""
    return read_team_score(score, lambda v: abs(v) <= MAX_SCORE, SetbackError,
                           '"score" must look like {"EW": 3, "NS": -2} (integers within '
                           '+-1,000,000,000)')


def read_hand(letter: str, cards) -> int:
    """The mask of the six cards a position shows for `letter`."""
    try:
        return parse_hand(cards, expected_size=S.HAND_SIZE)
    except SetbackError as exc:
        raise SetbackError(f"hand {letter}: {exc}") from None


def start_state(hands, score, dealer: int):
    """A deal's state with the known `hands` (by seat relative to the dealer; 0: unknown)."""
    state = S.new_state()
    S.reset_deal(state, hands)
    return state


API = {"title": "Setback", "target": "11", "replay": "setback-cfr replay",
       "moves": "a card (AS, TH, 10H) or a bid (P, 2, 3, 4)",  # web.openapi's words
       "deal": {"noun": "deal", "size": 6, "setup": [], "score": True, "moves": None},
       "position": {"words": POSITION["size"],
                    "moves": "the bids (P, 2, 3, 4) then the cards, in order",
                    "score": "the game score before this deal (default 0-0)",
                    "example": {"dealer": "S", "score": {"EW": 9, "NS": 8},
                                "hands": {"E": ["AH", "TS", "6H", "2C", "JD", "QS"]},
                                "moves": ["3", "P", "P", "P", "AS", "4S"]}}}

# --- how it shows (web/static/table.js) -----------------------------------------------------
def move_text(move: str | None, phase: str = "") -> str:
    """A move as the page names it: a bid's word or a card."""
    return BID_NAMES.get(move) or card_text(move)


def show(view: dict) -> dict:
    """What the page draws of `view` beyond the cards: seats, buttons, panels."""
    bids = {b["seat"]: b["bid"] for b in view["bids"]}
    bidding = view["phase"] == "bid"
    bubbles = {s: (f"bid {BID_NAMES[bids[s]]}" if s in bids else "…" if bidding else "")
               for s in "NWES"}
    marks = {view["high_bidder"]: "high"} if view["high_bidder"] else {}
    mine = view["to_act"] == "S"
    buttons = [{"move": b, "label": "Pass" if b == "P" else f"Bid {BID_NAMES[b]}",
                "style": "pass" if b == "P" else ""}
               for b in ("P", "2", "3", "4") if bidding and mine and b in view["legal"]]
    return {"seats": seats_show(bubbles, marks), "trick": True, "kitty": None, "tally": "",
            "trump_also": [],
            "cards": not bidding, "buttons": buttons, "note": "",
            "your_turn": _your_turn(view), "info": _info(view), "tables": [],
            "card_rows": [{"label": "Cards won by you + North", "cards": view["won"]["NS"]},
                          {"label": "Cards won by West + East", "cards": view["won"]["EW"]}],
            "history": [_history_row(h) for h in view["history"]]}


def _your_turn(view: dict) -> str:
    if view["phase"] == "bid":
        if view["high_bid"]:
            return (f"Your bid: {SEAT_NAMES[view['high_bidder']]} holds "
                    f"{BID_NAMES[str(view['high_bid'])]}.")
        return "Your bid: nobody has bid yet."
    if view["phase"] == "lead":
        return ("Your lead." if view["trump"] else
                "You won the bid: lead a card, its suit is trump (the pitch).")
    return "Your turn: play a highlighted card."


def _info(view: dict) -> list:
    auction = ", ".join(f"{SEAT_NAMES[b['seat']]} {BID_NAMES[b['bid']]}" for b in view["bids"])
    lines = [["Dealer ", bold(SEAT_NAMES[view["dealer"]])],
             ["Auction ", bold(auction or "no bids yet")]]
    if view["high_bid"]:
        contract = f"{SEAT_NAMES[view['high_bidder']]}, {BID_NAMES[str(view['high_bid'])]}"
        trump = f" · trump {suit_text(view['trump'])}" if view["trump"] else ""
        lines.append(["Contract ", bold(contract), trump])
    lines.append([f"Tricks played {view['tricks_done']} of 6"])
    return lines


def _history_row(h: dict) -> list:
    row = [cell(h["number"] + 1), cell(f"{h['bidder']} {h['bid']}" if h["bid"] else "all pass")]
    for point in POINTS:
        team = h["points"][point]
        row.append(cell(TEAM_SHORT.get(team, "–"), SIDE.get(team, "")))
    return row + [cell(signed(h["deal_score"]["NS"])), cell(signed(h["deal_score"]["EW"]))]


def deal_over(event: dict) -> dict:
    """The result dialog of a deal: who bid, who took each point, the deal's and game's
    score."""
    if event["bid"]:
        made = event["deal_score"][TEAM_OF[event["bidder"]]] >= 0
        text = (f"{SEAT_NAMES[event['bidder']]} bid {BID_NAMES[str(event['bid'])]}."
                + (" Made it." if made else " Set back!"))
    else:
        text = "Everybody passed."
    rows = [[cell(name), cell(TEAM_WORDS.get(event["points"][p], "nobody"),
                              SIDE.get(event["points"][p], ""))] for p, name in POINTS.items()]
    rows += [[cell("This deal"), cell(f"N-S {signed(event['deal_score']['NS'])} · "
                                      f"E-W {signed(event['deal_score']['EW'])}")],
             score_row(event)]
    return {"text": text, "rows": rows}


def move_title(event: dict) -> str | None:
    """The Why panel's title after a bot's move (None: leave the panel as it is)."""
    if not event.get("explain"):
        return None
    return f"{SEAT_NAMES[event['seat']]} played {move_text(event['move'])}"
