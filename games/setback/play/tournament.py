"""Setback's part of the one tournament loop (`play.tournament.run_tournament`): its games to 11
(`play_game`), their rows and report, and `SETBACK`, the `TournamentGame` its registry entry
names (`tournament`).

A game (`play_game`): South deals first and the deal passes clockwise; each deal is dealt from
its own random stream `stream_seed(stream_seed(seed, game), deal)`, so deal k of game g is the
same whoever plays it and however the earlier deals went. Every decision goes through the
`games.setback.view.Player` interface with the acting seat's `SeatView`; a move that is not
legal is an error (the all-seeing `oracle`, `oracle.py`, declares `sees_all` and is handed a
copy of the whole deal instead: the only player this loop shows the hidden hands). A deal is
scored once its outcome is settled (`is_exhausted`), which gives the same score as playing it
to the last card. A game still undecided after `max_deals` deals is abandoned and counted as
such.

The win rate and its 95% interval (`win_rate_interval`):
- Single games: A's wins among decided games, a binomial proportion: the Wilson score
  interval (good at small counts and near 0 or 1, where the normal one leaves [0, 1]).
- Duplicate: the two games of a pair share their deals, so they are not independent draws
  (card luck makes them anti-correlated: whoever holds the good cards tends to win). The unit
  is the pair: its score is A's wins in the pair / 2 (an abandoned game counts half), the
  pairs are independent and identically distributed, and the interval is the pair scores'
  mean +- 1.96 standard errors (sample standard deviation / sqrt(pairs)), clipped to [0, 1].
  Treating the 2n games as independent would overstate the uncertainty when card luck
  dominates, and mis-state it in general.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from games.rng import new_rng, stream_seed
from games.scaffold.view import ask
from games.setback import state as S
from games.setback.game import FIRST_DEALER, game_winner, next_dealer
from games.setback.rules import apply_move, is_legal
from games.setback.scoring import deal_score, is_exhausted
from games.setback.command_words import PLAYERS as SPEC_HELP  # its grammar's help
from games.setback.view import SeatView
from play.player_spec import PlayerSpecError
from play.tournament import (DEFAULT_MAX_DEALS, PLAYER_SEED_BASE, IllegalMove, TournamentGame,
                             pair_interval, wilson_interval)

# One row per game, from player A's side.
COLUMNS = ("winner", "deals", "points_a", "points_b", "bids_a", "made_a", "set_a",
           "bids_b", "made_b", "set_b", "all_pass", "swapped")
(WINNER, DEALS, POINTS_A, POINTS_B, BIDS_A, MADE_A, SET_A, BIDS_B, MADE_B, SET_B, ALL_PASS,
 SWAPPED) = range(len(COLUMNS))
A_WON, B_WON, ABANDONED = 0, 1, -1


def deal_state(game_seed, deal_index: int) -> np.ndarray:
    """The starting state of deal `deal_index` of the game whose stream seed is `game_seed`."""
    state = S.new_state()
    S.random_deal(new_rng(int(stream_seed(np.uint64(game_seed), deal_index))), state)
    return state


def play_game(players, seed: int, game: int, swapped: bool = False,
              max_deals: int = DEFAULT_MAX_DEALS) -> np.ndarray:
    """Play game `game` of the tournament `seed` between players (A, B); return its row.

    A sits East-West (absolute team 0) unless `swapped`. Players with a `seed(s)` method are
    reseeded first from (seed, game, A/B), the same in both games of a duplicate pair.
    """
    a, b = players
    game_seed = np.uint64(stream_seed(np.uint64(seed), np.uint64(game)))
    for index, player in enumerate((a, b)):
        if hasattr(player, "seed"):
            player.seed(int(stream_seed(game_seed, PLAYER_SEED_BASE + index)))
    by_team = (b, a) if swapped else (a, b)  # absolute team 0 = EW, 1 = NS
    a_team = 1 if swapped else 0
    row = np.zeros(len(COLUMNS), dtype=np.int64)
    row[SWAPPED] = swapped
    row[WINNER] = ABANDONED
    score = [0, 0]
    dealer = FIRST_DEALER
    for deal in range(max_deals):
        state = deal_state(game_seed, deal)
        history: list[int] = []
        while not is_exhausted(state):
            seat = int(state[S.TO_ACT])
            player = by_team[(dealer + seat) % 2]
            view = SeatView.of(state, dealer, (score[0], score[1]), history)
            # the oracle (oracle.py) sees the deal
            move = ask(player, state, view)
            if not is_legal(state, move):
                raise IllegalMove(f"{player.name} chose the illegal move {move}")
            apply_move(state, move)
            history.append(move)
        relative = deal_score(state)  # by team relative to the dealer
        deal_by_team = [0, 0]
        for rel_team in (0, 1):
            deal_by_team[(rel_team + dealer) % 2] = int(relative[rel_team])
        score[0] += deal_by_team[0]
        score[1] += deal_by_team[1]
        row[DEALS] += 1
        row[POINTS_A] += deal_by_team[a_team]
        row[POINTS_B] += deal_by_team[1 - a_team]
        high = int(state[S.HIGH_BID])
        if high == 0:
            row[ALL_PASS] += 1
        else:
            bidder_team = (int(state[S.HIGH_BIDDER]) + dealer) % 2
            bidder_score = deal_by_team[bidder_team]
            column = BIDS_A if bidder_team == a_team else BIDS_B
            row[column] += 1
            row[column + (1 if bidder_score >= 0 else 2)] += 1  # made / set
        winner = game_winner(score[0], score[1])
        if winner >= 0:
            row[WINNER] = A_WON if winner == a_team else B_WON
            return row
        dealer = next_dealer(dealer)
    return row


def win_rate_interval(rows: np.ndarray, duplicate: bool) -> tuple[float, float, float]:
    """(A's win rate, low, high) of the 95% interval, as the module docstring explains."""
    winner = rows[:, WINNER]
    if not duplicate:
        decided = int((winner != ABANDONED).sum())
        wins = int((winner == A_WON).sum())
        low, high = wilson_interval(wins, decided)
        return (wins / decided if decided else 0.5), low, high
    score = np.where(winner == A_WON, 1.0, np.where(winner == B_WON, 0.0, 0.5))
    pairs = score.reshape(-1, 2).mean(axis=1)
    return pair_interval(pairs)


@dataclass
class Summary:
    """A tournament's figures, from player A's side unless named `_b`."""

    player_a: str
    player_b: str
    games: int
    duplicate: bool
    seed: int
    win_rate: float
    ci_low: float
    ci_high: float
    wins_a: int
    wins_b: int
    abandoned: int
    deals: int
    all_pass: int
    points_per_deal_a: float
    points_per_deal_b: float
    bids_a: int
    made_a: int
    set_a: int
    bids_b: int
    made_b: int
    set_b: int
    seconds: float = 0.0
    decisions_a: dict | None = None  # a database-backed player's lookups, misses, fallbacks
    decisions_b: dict | None = None
    interrupted: bool = False  # stopped by Ctrl-C: the figures cover the games completed

    def as_dict(self) -> dict:
        """The figures as a plain dict (JSON-ready)."""
        return dict(self.__dict__)


def summarize(rows: np.ndarray, names: tuple[str, str], duplicate: bool, seed: int,
              seconds: float = 0.0, counts: list | None = None) -> Summary:
    """The tournament figures of `rows` (from `run_tournament`)."""
    rate, low, high = win_rate_interval(rows, duplicate)
    total = rows.sum(axis=0) if rows.size else np.zeros(len(COLUMNS), np.int64)
    deals = int(total[DEALS])
    return Summary(
        player_a=names[0], player_b=names[1], games=int(rows.shape[0]), duplicate=duplicate,
        seed=seed, win_rate=rate, ci_low=low, ci_high=high,
        wins_a=int((rows[:, WINNER] == A_WON).sum()),
        wins_b=int((rows[:, WINNER] == B_WON).sum()),
        abandoned=int((rows[:, WINNER] == ABANDONED).sum()),
        deals=deals, all_pass=int(total[ALL_PASS]),
        points_per_deal_a=float(total[POINTS_A]) / deals if deals else 0.0,
        points_per_deal_b=float(total[POINTS_B]) / deals if deals else 0.0,
        bids_a=int(total[BIDS_A]), made_a=int(total[MADE_A]), set_a=int(total[SET_A]),
        bids_b=int(total[BIDS_B]), made_b=int(total[MADE_B]), set_b=int(total[SET_B]),
        seconds=seconds,
        decisions_a=(counts[0] or None) if counts else None,
        decisions_b=(counts[1] or None) if counts else None)


def format_summary(s: Summary) -> str:
    """The tournament report as text."""
    kind = "duplicate pairs" if s.duplicate else "games"
    units = s.games // 2 if s.duplicate else s.games
    lines = [
        f"{s.player_a} (A) vs {s.player_b} (B): {s.games:,} games"
        + (f" ({units:,} {kind})" if s.duplicate else "") + f", seed {s.seed}"
        + (f", {s.seconds:.1f} s" if s.seconds else ""),
        f"  A win rate      {100 * s.win_rate:.2f}%  (95% CI {100 * s.ci_low:.2f}% .. "
        f"{100 * s.ci_high:.2f}%, {'pairs, normal' if s.duplicate else 'Wilson'})",
        f"  games won       A {s.wins_a:,}  B {s.wins_b:,}  abandoned {s.abandoned:,}",
        f"  deals           {s.deals:,} ({s.deals / max(s.games, 1):.1f} per game, "
        f"{s.all_pass:,} all-pass)",
        f"  points per deal A {s.points_per_deal_a:+.3f}  B {s.points_per_deal_b:+.3f}",
        f"  bids won        A {s.bids_a:,} (made {s.made_a:,}, set {s.set_a:,}"
        f"{_pct(s.made_a, s.bids_a)})  B {s.bids_b:,} (made {s.made_b:,}, set {s.set_b:,}"
        f"{_pct(s.made_b, s.bids_b)})",
    ]
    for label, c in (("A", s.decisions_a), ("B", s.decisions_b)):
        if c and c.get("lookups"):
            missing = sum(v for k, v in c.items() if k.startswith("missing_"))
            lines.append(f"  {label} strategy     {c.get('decisions', 0):,} decisions, "
                         f"{c.get('lookups', 0):,} lookups, {c.get('found', 0):,} found, "
                         f"{missing:,} missing, {c.get('fallback', 0):,} fallback moves")
    return "\n".join(lines)


def _pct(part: int, whole: int) -> str:
    return f", {100 * part / whole:.0f}% made" if whole else ""


def _setback_unit(players, seed, unit, swapped, hands, max_deals) -> np.ndarray:
    """Game `unit` to 11 (`play_game`); Setback has no single-hand mode."""
    return play_game(players, seed, unit, swapped, max_deals)


def _setback_pair_scores(rows: np.ndarray) -> np.ndarray:
    """A's wins in each pair / 2, an abandoned game half a win."""
    winner = rows[:, :, WINNER]
    return np.where(winner == A_WON, 1.0, np.where(winner == B_WON, 0.0, 0.5)).mean(1)


def _setback_player(spec: str, seed: int = 0):
    """A Setback player of its grammar (`games.setback.play.grammar`)."""
    from games.setback.play.grammar import make_player

    return make_player(spec, seed)


def _setback_summary(rows, names, duplicate, hands, seed, seconds, counts=None) -> Summary:
    """`summarize` (Setback has no single-hand mode)."""
    return summarize(rows, names, duplicate, seed, seconds, counts)


SETBACK = TournamentGame(
    name="setback", title="Setback", target=11, width=len(COLUMNS), play_unit=_setback_unit,
    make_player=_setback_player, spec_error=PlayerSpecError,
    spec_help=SPEC_HELP, pair_scores=_setback_pair_scores,
    summarize=_setback_summary, format_summary=format_summary, rules_version="setback-1",
    max_deals=True, png=True)
