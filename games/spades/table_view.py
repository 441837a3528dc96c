"""Spades at the web table (`web.table_base.WebTable`, one game to 500, and the page every game
shares, `web/static/table.js`): the hand's face and how a hand opens (from the game score
before it: OpenSpiel reads a team's bags from its last digit), scores and reads in the view,
then how it shows: its words for the page, the bid picker (Nil and 1..13 in a grid), the bids
and tricks in the seats' bubbles, the teams' contracts, tricks and bags, the hands' table and
a hand's result, all as data built from the view (`show`).

The game follows `games.spades.match.play_game`: West deals first (so North bids and leads
first, as in OpenSpiel), the deal passes left, and `scoring.game_winner` says when a team has
500 and leads, or has fallen to -350 behind (the mercy rule). Every bid and card is public, so
the view hides the other hands only."""

from __future__ import annotations

from games.scaffold.table import next_dealer  # noqa: F401 (a hook)
from games.scaffold.table_words import (SEAT_NAMES, SIDE, TEAM_OF, TEAM_SHORT, bold,
                                        by_suit_then_rank, card_text, cell, score_row,
                                        seats_show, signed)
from games.spades import public  # noqa: F401 (the decide reader's voids and layouts)
from games.spades import state as S
from games.spades.api import Hand, _read_score
from games.spades.cards import RANK_CHARS
from games.spades.random_play import FIRST_DEALER  # noqa: F401 (a hook)
from games.spades.scoring import TARGET, bags_so_far, game_winner  # noqa: F401 (hooks)
from games.spades.view import SeatView  # noqa: F401 (a hook: the bots' view)

PAGE = {"name": "spades", "title": "Spades to 500", "heading": "Spades", "target": "to 500",
        "deal": "hand", "buttons": "grid",
        "intro": "52 cards, thirteen each; spades are always trump. Each seat bids the tricks it "
                 "will take (Nil: none), the seat left of the dealer first; the partners' bids "
                 "add up to their contract. Made: 10 a bid trick and 1 a trick over (a bag; "
                 "every tenth bag costs 100). Set: -10 a bid trick. Nil: +100, or -100 if it "
                 "takes a trick. Follow suit if you can; lead a spade only from a hand of "
                 "spades. First to 500 and ahead wins; at -350 and behind loses.",
        "history": ["#", "Bids N-S", "Bids E-W", "Tricks", "N-S", "E-W"]}
EXPLAIN = {"forced": "A forced move: one legal move. No lookup.",
           "fallback": "Key missing from the database: the heuristic chose.", "lookups": False}
PAGE["explain"] = EXPLAIN  # the Why panel's words for a forced move and a fallback
TEAM_SEATS = {"NS": ("S", "N"), "EW": ("W", "E")}
TEAMS = ("NS", "EW")

# --- the table's hooks (web.table_base) ----------------------------------------------------
Face = Hand
MOVE_HELP = "'move' must be a card such as \"TS\" or a bid: Nil or 1..13"
REPLAY_FIELDS = {"rules": "spades"}  # what the game's replay adds after its bots
REPLAY_SCORE = True  # a hand's replay carries the score before it (its bags)
LAST_TRICK_CARRIES = True  # "Last trick" reaches back to the hand before
HIDDEN_PHASES = ()  # no bot's move is face down
EVENT_PHASES: dict = {}

BOTS = {"make": "games.spades.play.tournament:make_spades_player",  # the bots (web.bots)
        "abstraction": "games.spades.abstraction", "undealt": None}  # every card is dealt


def open_hand(dealer: str, hands: dict, setup, score: dict) -> Hand:
    """A hand with these cards, from the game score before it, to be played."""
    return Hand(dealer, hands, score)


def setup_of(hand: Hand) -> None:
    """What the store keeps beside the hands: nothing (the score before is recomputed)."""
    return None


def _team_tricks(hand: Hand) -> dict:
    taken = hand.tricks_won()
    return {team: sum(n for seat, n in taken.items() if TEAM_OF[seat] == team) for team in TEAMS}


def _contracts(hand: Hand) -> dict:
    """Each team's contract so far: its bids' sum (a Nil counts 0), None before either seat of
    the team has bid."""
    bids = hand.bids()
    return {team: sum(int(b) for s, b in bids.items() if TEAM_OF[s] == team and b != "Nil")
            if any(TEAM_OF[s] == team for s in bids) else None for team in TEAMS}


def _bags(before: dict) -> dict:
    """Each team's bags before this hand as OpenSpiel counts them: its game score's last digit
    (negative at a negative score: `scoring.bags_so_far`)."""
    return {team: int(bags_so_far(before[team])) for team in TEAMS}


def result(hand: Hand, before: dict) -> tuple[dict, dict]:
    """(what the game score gains: contracts, Nil, bags; the hand's result) of a finished
    hand."""
    points = hand.scores()
    return points, {"points": points, "bids": hand.bids(), "taken": hand.tricks_won(),
                    "tricks": _team_tricks(hand), "contracts": _contracts(hand),
                    "bags": _bags(before)}


def view_fields(hand: Hand, record, log: list, done: list) -> dict:
    """The view's fields of Spades': the target, the bids, the contracts, the bags before the
    hand, the tricks each seat and team took, the hand's tricks."""
    return {"target": TARGET, "trump": "S",
            "bids": [{"seat": seat, "bid": bid} for seat, bid in hand.bids().items()],
            "contracts": _contracts(hand), "bags": _bags(record.score_before),
            "taken": hand.tricks_won(), "tricks_won": _team_tricks(hand), "tricks": done}


def sort_key(trump: str | None):
    """South's hand by suit, spades (always trump) first, colours alternating, high cards
    first."""
    return by_suit_then_rank("S", RANK_CHARS)


# --- the decide reader's hooks (web.position) -----------------------------------------------
POSITION = {"size": "13", "hand": '{"E": ["AS", "KS", ...13 cards as dealt]}',
            "moves": '["3", "Nil", "KH"]', "tokens": '"Nil", "4" or "KH"'}  # its examples
HIDDEN_FIELDS = ()  # a view knows every field it is given


def read_score(score):
    """(EW, NS) from a position's optional "score" (`{"NS": a, "EW": b}`, within 1,000,000)."""
    return _read_score(score)


def read_hand(letter: str, cards) -> int:
    """The mask of the thirteen cards a position shows for `letter`."""
    return Hand.read_hand(letter, cards, 0)


def start_state(hands, score, dealer: int):
    """A hand's state with the known `hands` (by seat relative to the dealer; 0: unknown),
    from the game score before it (its bags)."""
    state = S.new_state()
    S.reset_hand(state, hands, *(int(score[(dealer + t) % 2]) for t in (0, 1)))
    return state


SPADES_MOVES = "the bids (Nil, 1..13) then the cards, in order"
API = {"title": "Spades", "target": "500", "replay": "setback-cfr replay --game spades",
       "moves": "a card (TS, 2C, 10H) or a bid (Nil, 1..13)",  # web.openapi's words
       "deal": {"noun": "hand", "size": 13, "setup": [], "score": True, "moves": SPADES_MOVES},
       "position": {"words": POSITION["size"], "moves": SPADES_MOVES,
                    "score": "the game score before this hand (default 0-0): the bags are its "
                             "last digit",
                    "example": {"dealer": "S", "score": {"NS": 120, "EW": -35},
                                "hands": {"E": ["AS", "KS", "9S", "4S", "AH", "QH", "7H", "3H",
                                                "KD", "8D", "2D", "JC", "5C"]},
                                "moves": ["3", "Nil"]}}}  # West and North have bid: East acts

# --- how it shows (web/static/table.js) -----------------------------------------------------
def move_text(move: str | None, phase: str = "") -> str:
    """A move as words: Nil, "Bid 3" or a card."""
    if move == "Nil":
        return "Nil"
    return f"Bid {move}" if move.isdigit() else card_text(move)


def _team_bids(bids: dict, team: str, short: bool = False) -> str:
    """A team's bids: "You 3 · North Nil", or short "3+Nil" (South's or West's first)."""
    seats = [s for s in TEAM_SEATS[team] if s in bids]
    if short:
        return "+".join(bids[s] for s in seats) or "–"
    return " · ".join(f"{SEAT_NAMES[s]} {bids[s]}" for s in seats) or "–"


def show(view: dict) -> dict:
    """What the page draws of `view` beyond the cards: seats, the bid picker, panels."""
    bids = {b["seat"]: b["bid"] for b in view["bids"]}
    playing = view["phase"] != "bid"
    bubbles, marks = {}, {}
    for seat in "NWES":
        bid = bids.get(seat)
        text = ("" if playing else "…") if bid is None else \
            "Nil" if bid == "Nil" else f"bid {bid}"
        if bid is not None and playing:
            text += f" · took {view['taken'][seat]}"
        bubbles[seat], marks[seat] = text, "nil" if bid == "Nil" else ""
    bidding = view["to_act"] == "S" and not playing
    buttons = [{"move": b, "label": b, "style": "nil" if b == "Nil" else "",
                "title": "take no trick: +100, else -100" if b == "Nil" else
                f"{b} trick{'' if b == '1' else 's'}"} for b in view["legal"]] if bidding else []
    note = f"North bid {bids.get('N')}: together at most 13" \
        if bidding and len(view["legal"]) < 14 else ""
    return {"seats": seats_show(bubbles, marks), "trick": playing, "kitty": None,
            "trump_also": [],
            "tally": (f"Tricks N-S {view['tricks_won']['NS']} · E-W {view['tricks_won']['EW']}"
                      if playing else ""),
            "cards": playing, "buttons": buttons, "note": note, "your_turn": _your_turn(view),
            "info": [["Dealer ", bold(SEAT_NAMES[view["dealer"]]),
                      f" · tricks played {view['tricks_done']} of 13"]],
            "tables": [_contracts_table(view, bids)], "card_rows": [],
            "history": [_history_row(h) for h in view["history"]]}


def _contracts_table(view: dict, bids: dict) -> dict:
    rows = []
    for team in ("NS", "EW"):
        contract = view["contracts"][team]
        made = contract is not None and view["tricks_won"][team] >= contract \
            and view["phase"] != "bid"
        rows.append({"style": SIDE[team], "cells": [
            cell(TEAM_SHORT[team]), cell(_team_bids(bids, team)),
            cell("–" if contract is None else contract),
            cell(view["tricks_won"][team], "made" if made else ""), cell(view["bags"][team])]})
    return {"id": "contracts", "head": ["", "Bids", "Contract", "Tricks", "Bags"], "rows": rows}


def _your_turn(view: dict) -> str:
    if view["phase"] == "bid":
        north = next((b["bid"] for b in view["bids"] if b["seat"] == "N"), None)
        partner = "North has not bid yet" if north is None else f"North bid {north}"
        return f"Your bid: how many tricks will you take? ({partner}; Nil: none at all)"
    if view["phase"] == "lead":
        return "Your lead (a spade only from a hand of spades)."
    return "Your turn: play a highlighted card."


def _history_row(h: dict) -> list:
    return [cell(h["number"] + 1), cell(_team_bids(h["bids"], "NS", True)),
            cell(_team_bids(h["bids"], "EW", True)),
            cell(f"{h['tricks']['NS']}-{h['tricks']['EW']}")] + [
        cell(signed(h["points"][t]), SIDE[t] if h["points"][t] > 0 else "") for t in ("NS", "EW")]


def deal_over(event: dict) -> dict:
    """The result dialog of a hand: each team's Nils and contract, the points and the score."""
    rows = []
    for team, seats in TEAM_SEATS.items():
        parts = [f"{SEAT_NAMES[s]}'s Nil "
                 + ("made (+100)" if event["taken"][s] == 0 else "set (-100)")
                 for s in seats if event["bids"][s] == "Nil"]
        contract, took = event["contracts"][team], event["tricks"][team]
        if contract:
            parts.append(f"made {contract} with {took} trick{'' if took == 1 else 's'}"
                         if took >= contract else f"set: {took} of {contract}")
        rows.append([cell(TEAM_SHORT[team]), cell("; ".join(parts) or "no contract")])
    rows += [[cell("Points"), cell(f"N-S {signed(event['points']['NS'])} · "
                                   f"E-W {signed(event['points']['EW'])}")], score_row(event)]
    return {"text": "", "rows": rows}


def move_title(event: dict) -> str | None:
    """The Why panel's title after a bot's move (None: leave the panel as it is)."""
    if not event.get("explain"):
        return None
    return f"{SEAT_NAMES[event['seat']]}: {move_text(event['move'])}"
