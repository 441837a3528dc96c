"""The words every game's browser table shares (`web/table_base.py` and each game's
`table_view.py`): suit symbols and names, the seats as South's page names them, a card and
a team as short text, and the pieces of the page's panels as plain data (the page script,
`web/static/table.js`, draws them; nothing here is markup).

An info line is a list of segments: a string, `bold(text)` or `card(code)` (a mini card)."""

from __future__ import annotations

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
SEAT_NAMES = {"N": "North", "S": "You", "W": "West", "E": "East"}
TEAM_OF = {"W": "EW", "E": "EW", "N": "NS", "S": "NS"}
TEAM_WORDS = {"NS": "you + North", "EW": "West + East"}
TEAM_SHORT = {"NS": "N-S", "EW": "E-W"}
SIDE = {"NS": "us", "EW": "them"}  # the style class of a team's figures


def card_text(card: str) -> str:
    """A card as the page writes it: rank (10 for T) and suit symbol, e.g. "10♥"."""
    return f"{'10' if card[0] == 'T' else card[0]}{SUITS.get(card[1], '')}"


def suit_text(suit: str) -> str:
    """A suit as symbol and name, e.g. "♠ Spades"."""
    return f"{SUITS[suit]} {SUIT_NAMES[suit]}"


def signed(n: int) -> str:
    """A change of score with its sign: "+3", "-2", "0"."""
    return f"+{n}" if n > 0 else str(n)


def bold(text) -> dict:
    """An info line's bold segment."""
    return {"b": str(text)}


def card(code: str) -> dict:
    """An info line's mini card."""
    return {"card": code}


def cell(text, style: str = "") -> list:
    """A table cell: its text and style class ("" none; `SIDE[team]` a team's colour)."""
    return [str(text), style]


def chip(text: str, style: str, title: str = "") -> list:
    """A seat's chip after its name: text, style class, tooltip."""
    return [text, style, title]


def score_row(event: dict) -> list:
    """The result dialog's last row: the game score after the deal."""
    return [cell("Score"), cell(f"N-S {event['score']['NS']} · E-W {event['score']['EW']}")]


def seats_show(bubbles: dict, marks: dict | None = None, chips: dict | None = None,
               out: str | None = None) -> dict:
    """Every seat's dress: its bubble's text (`bubbles`), the bubble's style (`marks`), its
    chips after the name and whether it sits out (`out`)."""
    marks, chips = marks or {}, chips or {}
    return {seat: {"bubble": bubbles.get(seat, ""), "mark": marks.get(seat, ""),
                   "chips": chips.get(seat, []), "out": seat == out} for seat in "NWES"}


SUIT_ORDER = "SHCD"  # South's hand, by suit with colours alternating


def suit_order(trump: str | None) -> str:
    """The suits of South's hand in the page's order: trump first once known."""
    return (trump or "") + SUIT_ORDER.replace(trump or "", "")


def by_suit_then_rank(trump: str | None, ranks: str):
    """The sort key of South's cards: by suit (`suit_order`), high cards first (`ranks`
    ascending)."""
    order = suit_order(trump)
    return lambda text: (order.index(text[1]), -ranks.index(text[0]))
