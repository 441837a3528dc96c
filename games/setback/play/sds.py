"""The single-dummy bidder `sds[:W][,expected][,play=SPEC]`: bids and pitches by solving
sampled layouts; every other card is the play player's.

- Auction: `games.setback.search.single_dummy.SingleDummy` draws W layouts of the other hands
  (default 20; only layouts in which the heuristic would have bid as the earlier seats did are kept,
  up to 8 W draws, the shortfall filled with the rejected ones), finishes the auction in
  each for every legal bid of the seat (the later seats bid as the heuristic would, and an
  other seat's contract is played in the trump the heuristic would pitch), solves every
  contract exactly (the seat's own in every trump it holds) and bids what maximises the
  expected probability of winning the game (`search.win_probability`: P(win | score pair,
  who deals next), from heuristic self-play deal outcomes), or, with `,expected`
  (`score_aware=False`), the expected deal score (our team's minus theirs). Each bid is
  judged with its best trump.
- Pitch (the bidder's first card, which sets trump): the same evaluation on W fresh layouts
  (those in which the heuristic would have made the other seats' bids) at the bid won; the
  best trump's card is the one the play player would pitch if it pitches that suit, else
  the highest card of the suit (it takes High if anything does, and the
  perfect-information values of a suit's leads differ little).
- Everything else: the play player (SPEC parsed by `grammar.make_player`; default
  `heuristic`).

The perfect-information bias correction (`CORRECTION`) is applied to every contract (the
seat's own, its partner's, the opponents'): per bid level, the probability that one of the
points the solver gives the bidder in a made contract goes to the defenders. See
`bench/sds_strength.py --calibrate`.
"""

from __future__ import annotations

import numpy as np

from games.setback import state as S
from games.setback.rules import BID_MOVE
from games.setback.view import SeatView
from games.setback.play.evaluated_bidder import EvaluatedBidder, split_bidder_spec
from games.setback.search.single_dummy import SingleDummy, choose_bid

DEFAULT_WORLDS = 20
# The perfect-information bias correction: bid level -> the probability that a contract the
# solver makes loses one of its points to the defenders in real play. Fitted on 200 deals and
# checked on 200 others (`python bench/sds_strength.py --calibrate 400 --worlds 20 --seed 3`,
# the first bidder with everyone else passing, every card by the heuristic): uncorrected the
# evaluator over-predicts the bidder's deal score by +0.39 / +0.73 / +0.57 at Two / Three /
# Four on the held-out half; corrected -0.10 / +0.03 / -0.09, and the squared error of the
# deal score and the Brier score of "made" both fall at every level.
CORRECTION: dict[int, float] = {2: 0.36, 3: 0.29, 4: 0.29}


class HeuristicContinuation:
    """`games.setback.search.single_dummy.Continuation` by the heuristic: the later seats' bids and
    an other bidder's trump, each from that seat's own view of the sampled world."""

    MEMO_SIZE = 200_000  # remembered bids; the memo is emptied when it grows past this

    def __init__(self):
        from games.setback.play.heuristic import HeuristicPlayer

        self.player = HeuristicPlayer()
        self._memo: dict = {}

    def bid(self, state: np.ndarray, dealer: int, score: tuple[int, int]) -> int:
        """The heuristic's bid (0, 2, 3, 4) for the seat to act in `state`. Remembered: the
        heuristic's bid depends only on the seat, its hand, its partner's bid, the high bid
        and its holder, and the score (games/setback/play/heuristic.py rules 1-3), and one
        evaluation asks the same question in many worlds and options."""
        seat = int(state[S.TO_ACT])
        key = (seat, int(state[S.HAND + seat]), int(state[S.BID + (seat + 2) % 4]),
               int(state[S.HIGH_BID]), int(state[S.HIGH_BIDDER]), (dealer + seat) % 2,
               score)
        bid = self._memo.get(key)
        if bid is None:
            if len(self._memo) >= self.MEMO_SIZE:
                self._memo.clear()
            bid = int(self.player.choose(SeatView.of(state, dealer, score))) - BID_MOVE
            self._memo[key] = bid
        return bid

    def pitch_suit(self, state: np.ndarray, dealer: int, score: tuple[int, int]) -> int:
        """The suit of the heuristic's pitch for the bidder to lead in `state`: its best suit
        by `games.setback.play.heuristic.suit_value` (rule 4), among the suits the bidder holds (the
        lowest held suit when every suit is worth 0, as the heuristic's own pitch does)."""
        from games.setback.play.heuristic import cards_of, suit_value

        hand = cards_of(state[S.HAND + int(state[S.TO_ACT])])
        held = sorted({c // 13 for c in hand})
        return max(held, key=lambda s: (suit_value(hand, s), -s))


class SdsPlayer(EvaluatedBidder):
    """The single-dummy bidder of the module docstring (`games.setback.view.Player`)."""

    def __init__(self, worlds: int = DEFAULT_WORLDS, play=None, seed: int = 0,
                 score_aware: bool = True, correction: dict | None = None,
                 continuation: bool = True, name: str | None = None,
                 threads: int | None = None):
        if worlds < 1:
            raise ValueError("the sds player needs at least one world")
        super().__init__(play, score_aware, name or f"sds:{worlds}")
        self.worlds = int(worlds)
        self.correction = dict(CORRECTION if correction is None else correction)
        self.continuation = HeuristicContinuation() if continuation else None
        self.evaluator = SingleDummy(seed, threads=threads)

    def seed(self, seed: int) -> None:
        """Restart the world sampler (and the play player's generator, if it has one)."""
        self.evaluator.seed(seed)
        super().seed(seed)

    def auction_table(self, view, bids: list[int]):
        """The W-world evaluation's values of the seat's legal bids, with their bids."""
        evaluation = self.evaluator.evaluate_auction(view, self.worlds, self.continuation)
        return evaluation.values(self.score_aware, self.correction), evaluation.bids

    def best_trump(self, view) -> int:
        """The trump the evaluation picks for the bidder about to pitch in `view`."""
        hand = int(view.state[S.HAND + view.seat])
        suits = {c // 13 for c in range(52) if hand >> c & 1}
        if len(suits) == 1:
            return suits.pop()
        evaluation = self.evaluator.evaluate_pitch(view, self.worlds,
                                                   continuation=self.continuation)
        _, trump = choose_bid(evaluation.values(self.score_aware, self.correction),
                              evaluation.bids)
        return trump


def make_sds_player(spec: str, seed: int = 0) -> SdsPlayer:
    """The sds player of `sds[:W][,expected][,play=SPEC]` (module docstring; `,expected`
    bids by expected deal score instead of win probability); a bad spec raises
    `play.player_spec.PlayerSpecError` in one line."""
    from games.setback.play.grammar import PlayerSpecError, make_player

    text = str(spec).strip()
    body, score_aware, play_spec = split_bidder_spec(text)
    kind, colon, worlds_text = body.partition(":")
    if kind.strip().lower() != "sds" or "," in body:
        raise PlayerSpecError(f"{text!r}: expected sds[:W][,expected][,play=SPEC]")
    worlds = DEFAULT_WORLDS
    if colon:
        if not worlds_text.strip().isdigit() or int(worlds_text) < 1:
            raise PlayerSpecError(f"{text!r}: W (worlds) must be a positive integer, as in "
                                  "sds:20")
        worlds = int(worlds_text)
    play = make_player(play_spec, seed) if play_spec else None
    return SdsPlayer(worlds, play=play, seed=seed, score_aware=score_aware, name=text)

