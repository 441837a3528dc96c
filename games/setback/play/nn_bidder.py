"""The learned bidder `nn:MODEL[,made=P][,expected][,play=SPEC]`: bids and pitches by the
learned auction evaluator (`games.setback.search.learned_evaluator`, a model file of `setback-cfr
learn train`); every other card is the play player's.

- Auction: for each legal bid and each trump the seat holds, the network's distribution of
  the deal score pair (ours, theirs) after that bid (the other seats finishing the auction as
  in the training data); each bid takes its best trump and the best bid wins (ties to the
  lower bid, `games.setback.search.single_dummy.choose_bid`, as sds). The value is the probability
  of winning the game after the deal (`search.win_probability`, the default, as sds) or, with
  `,expected`, the expected deal score (ours minus theirs). No sampling, no solving: a few
  forward passes of a small network, tens of microseconds.
- `,made=P` (0 < P <= 1): a contract of our own at a level, with a trump, is bid only if the
  network gives it a probability of at least P of being made (our own contract's
  distribution at that level: every class but a set); the others are valued as not there.
  If no bid and trump is left (a dealer who must bid), the floor is ignored for that decision.
- Pitch: the same network's distribution of our own contract at the bid won, per trump; the
  card is the play player's pitch if it pitches that suit, else the suit's top card
  (`games.setback.play.evaluated_bidder.pitch_card`).
- Everything else: the play player (SPEC parsed by `grammar.make_player`; default
  `heuristic`).

The perfect-information correction, for a model trained on solver labels, is inside the
model (its targets were corrected, `games.setback.play.learn_data.solver_pairs`); a model trained on
played-out deals needs none.
"""

from __future__ import annotations

from games.setback import state as S
from games.setback.play.evaluated_bidder import EvaluatedBidder, split_bidder_spec
from games.setback.search.learned_evaluator import LearnedEvaluator
from games.setback.search.single_dummy import choose_bid


class NnPlayer(EvaluatedBidder):
    """The learned bidder of the module docstring (`games.setback.view.Player`)."""

    def __init__(self, evaluator: LearnedEvaluator, play=None, score_aware: bool = True,
                 name: str | None = None, made_floor: float = 0.0):
        super().__init__(play, score_aware, name or "nn")
        self.evaluator = evaluator
        self.made_floor = float(made_floor)

    def _context(self, view):
        """(hand, seat, bids by seat, score (us, them), our team deals next) of `view`."""
        state = view.state
        seat = int(view.seat)
        return (int(state[S.HAND + seat]), seat, state[S.BID:S.BID + 4],
                view.score_us_them, seat % 2 == 1)

    def bid_values(self, view, legal_bids):
        """float64[len(legal_bids), 4]: the value table of the seat's legal bids."""
        hand, seat, bids, score, deal_next = self._context(view)
        return self.evaluator.auction_values(hand, seat, bids, legal_bids, self.score_aware,
                                             score, deal_next, self.made_floor)

    def auction_table(self, view, bids: list[int]):
        """The network's values of the seat's legal bids (our own contracts below the made
        floor valued -inf, unless that leaves nothing), with those bids."""
        return self.bid_values(view, bids), bids

    def best_trump(self, view) -> int:
        """The trump the network picks for the bidder about to pitch in `view`."""
        hand, seat, bids, score, deal_next = self._context(view)
        level = int(view.state[S.HIGH_BID])
        values = self.evaluator.pitch_values(hand, seat, bids, level, self.score_aware, score,
                                             deal_next)
        return choose_bid(values, [level])[1]


def parse_nn_spec(spec: str) -> tuple[str, bool, str | None, float]:
    """(model path, score-aware, play spec or None, made floor (0: none)) of
    `nn:MODEL[,made=P][,expected][,play=SPEC]`; `play.player_spec.PlayerSpecError` in one
    line when malformed."""
    from play.player_spec import PlayerSpecError

    text = str(spec).strip()
    body, score_aware, play_spec = split_bidder_spec(text)
    floor = 0.0
    head, sep, value = body.rpartition(",made=")
    if sep:
        try:
            floor = float(value)
        except ValueError:
            floor = -1.0
        if not 0.0 < floor <= 1.0:
            raise PlayerSpecError(f"{text!r}: made=P takes a probability above 0 and at most "
                                  "1, as in made=0.6")
        body = head
    kind, colon, model = body.partition(":")
    if kind.strip().lower() != "nn" or not colon or not model.strip():
        raise PlayerSpecError(f"{text!r}: expected nn:MODEL[,made=P][,expected][,play=SPEC]")
    return model.strip(), score_aware, play_spec, floor


def make_nn_player(spec: str, seed: int = 0) -> NnPlayer:
    """The learned bidder of `nn:MODEL[,made=P][,expected][,play=SPEC]` (module docstring); a
    bad spec or a refused model file raises `play.player_spec.PlayerSpecError` in one line."""
    from games.setback.play.grammar import PlayerSpecError, make_player
    from games.setback.search.learned_evaluator import ModelFileError

    model, score_aware, play_spec, floor = parse_nn_spec(spec)
    try:
        evaluator = LearnedEvaluator.load(model)
    except ModelFileError as exc:
        raise PlayerSpecError(str(exc)) from None
    play = make_player(play_spec, seed) if play_spec else None
    return NnPlayer(evaluator, play=play, score_aware=score_aware, name=str(spec).strip(),
                    made_floor=floor)
