"""The rating ladder: which duplicate matches to play, playing the missing pairs into the
results store (`play.results_store`), and the Bradley-Terry fit of what is stored
(`play.rating`).

Orientation: of two players, the one whose (spec, fingerprint) sorts first is player A of
their matchup (East-West in the first game of every pair), so the games do not depend on the
order the players are listed in.

Schedule: with `round_robin`, every pair of listed players meets. Otherwise a listed player
is "rated" when the store holds a complete match (the --games pairs asked) between it and
another listed player; the matches played are then every new player against every other
player, and the stored complete or started matches are used as they are (a started match
is finished); rated players are not replayed against each other. When that leaves the
players unconnected (a store rating two separate groups), it falls back to the round robin.
A fresh store is therefore a round robin, and adding one player to a rated ladder plays only
its own matches.

Playing: each match of N games is pairs 0..N-1 of the game's duplicate tournament `seed`,
played by the one tournament loop (`play.tournament.run_tournament(..., duplicate=True,
game=...)`: the same deals, player seeds and rows as `tournament --game G --duplicate`), only
the pairs not stored yet. The players and the game are the store's game's
(`play.tournament.TournamentGame` of its registry entry: Setback's games to 11, Euchre's to
10, Spades' to 500); a game that always ends (Euchre, Spades) does not use `max_deals` (its
matches are stored with 0). The store must be of the same game. Chunks of pairs are played (by
forked worker processes when `workers` > 1) and each chunk is stored in one transaction as it
completes, so Ctrl-C keeps every completed chunk.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from play.rating import Match, RatingError, Ratings, check_connected, cycles, fit, win_matrix

DEFAULT_CHUNK = 10


class LadderError(ValueError):
    """Bad ladder input (too few players, a player listed twice, an anchor not rated)."""


@dataclass
class Entrant:
    """A listed player: its spec, the fingerprint of its files, its store id, the player."""

    spec: str
    fingerprint: str
    id: int = -1
    player: object = None


@dataclass
class LadderResult:
    """Everything a rating run reports."""

    entrants: list[Entrant]
    ratings: Ratings
    matrix: list
    cycles: list
    matches: list[dict]
    played_pairs: int
    store: str
    store_counts: dict
    seed: int
    games: int
    extra: dict = field(default_factory=dict)
    game: str | None = None  # the store's game (None: the default game's)

    def as_dict(self) -> dict:
        """JSON-ready figures."""
        r = self.ratings
        players = [{"spec": e.spec, "fingerprint": e.fingerprint, "rating": float(r.rating[k]),
                    "low": float(r.low[k]), "high": float(r.high[k]),
                    "pairs": int(r.pairs[k]), "games": 2 * int(r.pairs[k])}
                   for k, e in enumerate(self.entrants)]
        return {"players": players,
                "anchor": {"spec": self.entrants[r.anchor].spec, "rating": r.anchor_rating},
                "matrix": self.matrix, "cycles": [[self.entrants[k].spec for k in c]
                                                  for c in self.cycles],
                "matches": self.matches, "played_pairs": self.played_pairs,
                "bootstrap_replicates": r.replicates, "joint_bootstrap": r.joint,
                "store": self.store, "store_counts": self.store_counts, "seed": self.seed,
                "games_per_match": self.games, "game": self.game or _default_game()}


def _default_game() -> str:
    """The registry's default game, the game of a store object that names none (a
    `play.results_store.ResultsStore` always names its own)."""
    from games import registry

    return registry.DEFAULT_GAME


# --- playing pairs ----------------------------------------------------------------------
def play_pairs(players, seed: int, games: list[int], on_chunk, workers: int = 1,
               max_deals: int = 200, chunk: int = DEFAULT_CHUNK, bar=None,
               game: str | None = None) -> int:
    """Play pairs `games` of the duplicate tournament `seed` of `game` (None: the default
    game) between players (A, B) through the one tournament loop
    (`play.tournament.run_tournament`); call `on_chunk(games, rows)` for each chunk as it
    completes, in order; return the pairs played. KeyboardInterrupt propagates after the completed chunks were handed over."""
    from play.tournament import run_tournament

    rows = run_tournament(players, list(games), seed, True, workers, max_deals, chunk,
                          progress=False, game=game, on_chunk=on_chunk, bar=bar)
    return rows.shape[0] // 2


# --- the ladder -----------------------------------------------------------------------
def entrants_of(specs: list[str]) -> list[Entrant]:
    """The entrants of the listed specs (stripped, fingerprinted); a spec listed twice or
    fewer than two players is a LadderError."""
    from play.results_store import fingerprint

    seen = set()
    out = []
    for raw in specs:
        spec = str(raw).strip()
        if not spec:
            raise LadderError("an empty player name")
        if spec in seen:
            raise LadderError(f"player {spec!r} is listed twice")
        seen.add(spec)
        out.append(Entrant(spec, fingerprint(spec)))
    if len(out) < 2:
        raise LadderError("a rating needs at least two players")
    return out


def schedule(entrants: list[Entrant], store, seed: int, games: int, max_deals: int,
             round_robin: bool) -> list[tuple[int, int, int | None, int]]:
    """The matchups to rate: (index of A, index of B, match id or None, stored pairs)
    (module docstring)."""
    n = len(entrants)
    every = []
    for x in range(n):
        for y in range(x + 1, n):
            a, b = sorted((x, y), key=lambda k: (entrants[k].spec, entrants[k].fingerprint))
            match = store.match_id(entrants[a].id, entrants[b].id, seed, max_deals, create=False)
            every.append((a, b, match, len(store.stored_games(match, games))))
    if round_robin:
        return every
    rated = {k for a, b, _, stored in every if stored == games for k in (a, b)}
    chosen = [m for m in every if m[3] > 0 or m[0] not in rated or m[1] not in rated]
    try:
        check_connected(n, [Match(a, b, np.zeros(1)) for a, b, _, _ in chosen])
    except RatingError:
        return every
    return chosen


def run_ladder(specs: list[str], store, games: int, seed: int = 0, anchor: str = "heuristic",
               anchor_rating: float = 1500.0, workers: int = 1, max_deals: int = 200,
               round_robin: bool = False, progress: bool = True,
               replicates: int = 1000, chunk: int = DEFAULT_CHUNK) -> LadderResult:
    """Play what is missing and rate the players (module docstring). `store` is an open
    `ResultsStore` whose game (`store.game`) is the players' game; player specs are checked
    (the game's spec error, a PlayerSpecError) before anything is played."""
    from tqdm import tqdm

    from play.tournament import tournament_game

    game = getattr(store, "game", None) or _default_game()
    plugin = tournament_game(game)
    make_player = plugin.make_player
    if not plugin.max_deals:
        max_deals = 0  # its games always end: the limit is no part of its matches

    entrants = entrants_of(specs)
    names = [e.spec for e in entrants]
    if anchor.strip() not in names:
        raise LadderError(f"the anchor {anchor!r} is not one of the players")
    anchor_index = names.index(anchor.strip())
    try:
        for e in entrants:
            e.player = make_player(e.spec, seed)
        for e in entrants:
            e.id = store.player_id(e.spec, e.fingerprint)
        plan = schedule(entrants, store, seed, games, max_deals, round_robin)
        missing = []
        for a, b, match, stored in plan:
            if stored < games:
                if match is None:
                    match = store.match_id(entrants[a].id, entrants[b].id, seed, max_deals)
                done = store.stored_games(match, games)
                missing.append((a, b, match, [g for g in range(games) if g not in done]))
        played = 0
        total = sum(len(g) for *_, g in missing)
        with tqdm(total=total, unit="pair", disable=not progress or not total,
                  leave=False) as bar:
            for number, (a, b, match, todo) in enumerate(missing, 1):
                bar.set_description(f"match {number}/{len(missing)}")

                def keep(chunk_games, rows, match=match):
                    """Store a completed chunk (one transaction)."""
                    store.add_pairs(match, chunk_games, rows)

                played += play_pairs((entrants[a].player, entrants[b].player), seed, todo,
                                     keep, workers, max_deals, chunk, bar, game)
    finally:
        for e in entrants:
            if hasattr(e.player, "close"):
                e.player.close()
    matches, info = [], []
    for a, b, _, _ in plan:
        match = store.match_id(entrants[a].id, entrants[b].id, seed, max_deals, create=False)
        scores = store.scores(match, games)
        matches.append(Match(a, b, scores))
        info.append({"a": entrants[a].spec, "b": entrants[b].spec, "pairs": int(scores.size),
                     "score_a": float(scores.mean()) if scores.size else None,
                     # every pair alike (a whitewash, typically): resampling cannot vary it
                     "uniform": bool(scores.size and np.all(scores == scores[0]))})
    ratings = fit(names, matches, anchor_index, anchor_rating, replicates, seed)
    matrix = win_matrix(len(names), matches)
    return LadderResult(entrants, ratings, matrix, cycles(matrix), info, played, store.path,
                        store.counts(), seed, games, game=game)
