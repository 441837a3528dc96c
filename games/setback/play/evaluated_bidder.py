"""What the evaluating bidders (`sds`, `games/setback/play/sds.py`; `nn`,
`games/setback/play/nn_bidder.py`) share: they bid and pitch by a table of values per bid and trump,
and leave every other card to a play player.

A subclass says how it values the seat's legal bids (`auction_table`) and which trump it
pitches (`best_trump`); this class makes the moves, times every auction and pitch evaluation
(`decision_times`, what the strength benches report as percentiles), and parses the spec
suffixes both understand (`,expected`, `,play=SPEC`).
"""

from __future__ import annotations

import time

from games.setback import state as S
from games.setback.rules import BID_MOVE
from games.setback.search.single_dummy import choose_bid


class EvaluatedBidder:
    """A `games.setback.view.Player` bidding by `auction_table` and pitching by `best_trump`;
    the play player (default the heuristic) makes every other move."""

    def __init__(self, play=None, score_aware: bool = True, name: str = ""):
        if play is None:
            from games.setback.play.heuristic import HeuristicPlayer

            play = HeuristicPlayer()
        self.play = play
        self.score_aware = bool(score_aware)
        self.name = name
        self.decision_times: list[float] = []  # seconds, every auction and pitch evaluation

    def auction_table(self, view, bids: list[int]):
        """(values float64[len(bids'), 4 trumps], bids') for the seat to bid in `view`, whose
        legal bids are `bids`; `games.setback.search.single_dummy.choose_bid` picks from it."""
        raise NotImplementedError

    def best_trump(self, view) -> int:
        """The trump the bidder about to pitch in `view` picks."""
        raise NotImplementedError

    def seed(self, seed: int) -> None:
        """Reseed the play player (subclasses that draw reseed their own generator too)."""
        if hasattr(self.play, "seed"):
            self.play.seed(seed)

    def choose(self, view) -> int:
        """The move for the seat to act in `view` (a `games.setback.view.SeatView`)."""
        state = view.state
        legal = view.legal_moves()
        if int(state[S.PHASE]) == S.PHASE_AUCTION:
            if legal.size == 1:
                return int(legal[0])
            start = time.perf_counter()
            values, bids = self.auction_table(view, [int(m) - BID_MOVE for m in legal])
            bid, _ = choose_bid(values, bids)
            self.decision_times.append(time.perf_counter() - start)
            return BID_MOVE + bid
        if int(state[S.TRUMP]) < 0 and int(state[S.HIGH_BIDDER]) == int(view.seat):
            start = time.perf_counter()
            trump = self.best_trump(view)
            self.decision_times.append(time.perf_counter() - start)
            return pitch_card(view, trump, self.play)
        return int(self.play.choose(view))

    def close(self) -> None:
        """Close the play player (a database player holds a connection)."""
        if hasattr(self.play, "close"):
            self.play.close()


def pitch_card(view, trump: int, play) -> int:
    """The card pitching `trump`: the play player's choice if it pitches that suit, else the
    highest card of the suit in the hand."""
    hand = int(view.state[S.HAND + view.seat])
    suit_cards = [c for c in range(13 * trump, 13 * trump + 13) if hand >> c & 1]
    if not suit_cards:
        raise ValueError(f"cannot pitch suit {trump}: not in the hand")
    card = int(play.choose(view))
    return card if card // 13 == trump else max(suit_cards)


def split_bidder_spec(spec: str) -> tuple[str, bool, str | None]:
    """(body, score-aware, play spec or None) of `BODY[,expected][,play=SPEC]`;
    `play.player_spec.PlayerSpecError` in one line when `,play=` names nobody."""
    from play.player_spec import PlayerSpecError

    text = str(spec).strip()
    body, sep, play_spec = text.partition(",play=")
    if sep and not play_spec.strip():
        raise PlayerSpecError(f"{text!r}: play= needs a player, as in play=heuristic")
    score_aware = True
    if body.lower().endswith(",expected"):
        body, score_aware = body[:-len(",expected")], False
    return body, score_aware, (play_spec.strip() if sep else None)
