"""The four-seat table every trick-taking plug-in sits at: seats W N E S (absolute 0..3),
teams EW and NS by seat parity, the deal passing clockwise, and the text of cards and seats.

The engines keep seats relative to the dealer (0 = dealer) so one policy serves every seat;
`absolute_team` is the one place a dealer-relative team turns absolute. The parsers take the
game's exception type, so a bad token reads as that game's error.
"""

from __future__ import annotations

from numba import njit

SEAT_CHARS = "WNES"
TEAM_NAMES = ("EW", "NS")  # absolute seat parity: W=0, E=2 are EW; N=1, S=3 are NS


@njit(cache=True)
def next_dealer(dealer):
    """The dealer of the next hand: the seat to the left (clockwise, W N E S)."""
    return (dealer + 1) % 4


@njit(cache=True)
def absolute_team(relative_team, dealer):
    """Absolute team (0 EW, 1 NS) of a team given relative to `dealer` (0 = dealer's team)."""
    return (relative_team + dealer) % 2


def parse_letter(token, letters: str, what: str, error: type) -> int:
    """The index in `letters` of a one-letter token (case-insensitive), e.g. a seat in
    `SEAT_CHARS`; anything else raises `error` naming `what` it should have been."""
    text = str(token).strip().upper()
    if len(text) != 1 or text not in letters:
        raise error(f"bad {what} {token!r}: expected {', '.join(letters[:-1])} or "
                    f"{letters[-1]}")
    return letters.index(text)


def parse_seat(token, error: type) -> int:
    """Parse an absolute seat letter W, N, E or S (case-insensitive) into 0..3."""
    return parse_letter(token, SEAT_CHARS, "seat", error)


def read_team_score(score, in_range, error: type, message: str) -> tuple[int, int]:
    """(EW, NS) from an optional game score `{"NS": a, "EW": b}` (None: 0 to 0): `error(message)`
    unless it has exactly those keys, each an integer (not a bool) that `in_range` accepts."""
    if score is None:
        return 0, 0
    if (not isinstance(score, dict) or set(score) != set(TEAM_NAMES)
            or not all(isinstance(v, int) and not isinstance(v, bool) and in_range(v)
                       for v in score.values())):
        raise error(message)
    return score["EW"], score["NS"]


def parse_card_text(token, rank_chars: str, suit_chars: str, error: type, example: str,
                    ranks: str) -> tuple[int, int]:
    """(rank index in `rank_chars`, suit index) of a card token such as `AS`, `th` or `10H`
    (case-insensitive; `10` reads as `T`); a bad token raises `error`, quoting `example` (the
    game's cards) and `ranks` (its rank letters, as a sentence)."""
    if not isinstance(token, str):
        raise error(f"bad card {token!r}: expected a string such as {example}")
    text = token.strip().upper()
    if text.startswith("10") and len(text) == 3:
        text = "T" + text[2]
    if len(text) != 2 or text[0] not in rank_chars or text[1] not in suit_chars:
        raise error(f"bad card {token!r}: expected rank {ranks} then suit C, D, H or S")
    return rank_chars.index(text[0]), suit_chars.index(text[1])


def card_text(card: int, rank_chars: str, suit_chars: str, error: type) -> str:
    """The two-character text of a card index (`suit * ranks + rank`), e.g. `AS`."""
    n_ranks = len(rank_chars)
    n_cards = n_ranks * len(suit_chars)
    if not 0 <= card < n_cards:
        raise error(f"bad card index {card}: expected 0..{n_cards - 1}")
    return rank_chars[card % n_ranks] + suit_chars[card // n_ranks]


def mask_cards(mask, n_cards: int) -> list[int]:
    """Card indices in `mask`, ascending (by suit, then rank)."""
    mask = int(mask)
    return [card for card in range(n_cards) if mask >> card & 1]


def card_words(rank_chars: str, suit_chars: str, error: type, example: str, ranks: str):
    """(parse_card, format_card, format_cards) of a game's deck (card `suit * ranks + rank`):
    a token such as `JD`, `th` or `10H` to its index (`parse_card_text`; `error`, `example`
    and `ranks` as there), an index to its two characters (`card_text`), a mask to the texts
    of its cards in ascending order."""
    n_ranks, n_cards = len(rank_chars), len(rank_chars) * len(suit_chars)

    def parse_card(token) -> int:
        """Parse a card's text (rank then suit, case-insensitive, `10` for T) into its
        index; a bad token is the game's error."""
        rank, suit = parse_card_text(token, rank_chars, suit_chars, error, example, ranks)
        return suit * n_ranks + rank

    def format_card(card: int) -> str:
        """The two-character text of a card index."""
        return card_text(card, rank_chars, suit_chars, error)

    def format_cards(mask: int) -> list[str]:
        """Text of the cards in `mask`, ascending by index (suit, then rank)."""
        return [format_card(card) for card in mask_cards(mask, n_cards)]

    return parse_card, format_card, format_cards
