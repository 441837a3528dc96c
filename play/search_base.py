"""The rollout search player of any game: draw worlds consistent with the view, roll every legal
move out in each with the blueprint, play the best mean (`SearchPlayerBase`).

The worlds (the game's sampler on its public facts), their weights (the one likelihood,
`search/likelihood.py`, on the game's hooks), which decisions are the bids, the card-location
model and the Why panel's figures are written here once. A game's player
(`games/setback/play/search_player.py`, `games/euchre/play/search_player.py`,
`games/spades/play/search_player.py`) subclasses it with its declaration (the class attributes
`public`, `rules`, `fields`, `sampler`, `model_game`, `table_game`) and what is its game's alone:
the cards the Why panel follows, a hand with nothing left to search, the rollouts' objective, its
explanation.
"""

from __future__ import annotations

import time

import numpy as np

from games.rng import new_rng, next_u64
from play.search_options import (CHOICES, MODEL_BELIEFS, belief_kind, belief_settings,
                                 constructor_options, resample, shared_arrays)

POOL_PARTS = 8  # a weighted pool is drawn in this many parts, each from its own seed


def codec_arrays(blueprint):
    """The policy arrays (`db.policy_arrays.PolicyArrays`) of a plug-in game's database player
    (`db.plugin_player`), its keys read by the game's codec (`games/NAME/abstraction/codec.py`,
    `db.codec_policy_arrays`: another game's or abstraction's database, or a key the codec
    cannot read, is refused in one line)."""
    from db.codec_policy_arrays import codec_arrays_of_store
    from games import registry

    codec = registry.declaration(blueprint.game, "abstraction.codec")
    return codec_arrays_of_store(blueprint.db, blueprint.game, codec)


class SearchPlayerBase:
    """Plays by rollout search on `blueprint` (a database player of the game), whose tables
    `table` (`db.policy_arrays.PolicyArrays`) the rollouts of `game` (the abstract game of the
    CFR interface, `cfr/game.py`) follow; `state_size` is the game's full state's. The options
    are those of `play/search_options.py`: `greedy` is `rollout=greedy`, `search_bids`
    `bids=search`, `think_ms` `think`; `temper`, `pool` and `floor` left None take the
    belief's defaults (`search_options.BELIEF_DEFAULTS`).

    A game's player declares its game in four class attributes (the rest is written here):
    `public` (its public facts and likelihood hooks, `games/<game>/public.py`), `rules` (its
    rules module: `apply_move`), `fields` (its state module: `TO_ACT`, `PLAYED`) and `sampler`
    (its compiled world sampler, `games/<game>/search/worlds.py`: `public_worlds`); `model_game`
    names the card-location model's game where it has one, `cards_that_matter` the cards the
    Why panel follows."""

    public = rules = fields = sampler = None  # the game's modules (class docstring)
    model_game: str | None = None  # `belief=model:FILE`'s game (None: no model yet)
    table_game: str | None = None  # the game the rollouts' table must be of (None: unchecked)

    def __init__(self, blueprint, table, game, state_size: int, worlds: int = 100,
                 greedy: bool = False, search_bids: bool = True, margin: float = 0.0,
                 think_ms: float | None = None, threads: int | None = None,
                 voids: bool = True, seed: int = 0, name: str | None = None,
                 belief: str = "uniform", temper: float | None = None,
                 pool: int | None = None, floor: float | None = None,
                 evidence: str = "others"):
        if worlds < 1:
            raise ValueError("a search player needs at least one world")
        kind, model_path = belief_kind(belief)
        if (kind not in CHOICES["belief"] + MODEL_BELIEFS or (kind in MODEL_BELIEFS) !=
                bool(model_path) or evidence not in CHOICES["evidence"]):
            raise ValueError(f"belief is one of {', '.join(CHOICES['belief'])}, model:FILE or "
                             f"model+policy:FILE; evidence one of "
                             f"{', '.join(CHOICES['evidence'])}")
        if self.table_game is not None and getattr(table, "game", None) != self.table_game:
            raise ValueError(f"the rollouts' table is for {getattr(table, 'game', None)!r}, "
                             f"not {self.table_game!r}")
        temper, pool, floor = belief_settings(kind, temper, pool, floor)
        if not 0.0 < temper <= 1.0 or pool < 1 or not 0.0 < floor < 1.0:
            raise ValueError("0 < temper <= 1, pool >= 1, 0 < floor < 1")
        self.blueprint = blueprint
        self.table = table
        self.worlds = int(worlds)
        self.search_bids = bool(search_bids)
        self.margin = float(margin)
        self.think_ms = think_ms
        self.voids = bool(voids)
        self.belief, self.temper, self.pool, self.floor = kind, temper, pool, floor
        self.evidence = evidence
        self.model = None if model_path is None else self._load_model(model_path)
        self.search = self._new_search(game, table, greedy, threads)
        self.name = name or f"search:{blueprint.name}"
        self.rng = new_rng(seed)
        self.stats = {"searched": 0, "worlds": 0, "rejected": 0, "deviations": 0,
                      "weighted": 0, "ess": 0.0}
        drawn = self.worlds * (self.pool if kind != "uniform" else 1)
        self._states = np.zeros((drawn, state_size), dtype=np.int64)

    @classmethod
    def from_options(cls, text: str, seed: int, options: dict, blueprint, arrays=None,
                     error=ValueError, **extra):
        """The player of the spec `text` whose options (`search_options.parse_options`) are
        `options`, on `blueprint`; the rollouts' tables are `arrays(blueprint)` (by default
        `codec_arrays`), read once a process. A blueprint whose tables cannot be read is closed
        and `error` raised (one line). `extra`: a game's own constructor arguments."""
        from db.errors import DatabaseError

        try:
            table = shared_arrays(blueprint, arrays or codec_arrays)
        except DatabaseError as exc:
            blueprint.close()
            raise error(str(exc)) from None
        try:
            return cls(blueprint, table, seed=seed, name=text.strip(),
                       **constructor_options(options), **extra)
        except ValueError as exc:  # a belief model that cannot be read, or is another game's
            blueprint.close()
            raise error(f"{text.strip()!r}: {exc}") from None

    def _new_search(self, game, table, greedy: bool, threads):
        """The rollouts' driver: `RolloutSearch` on the blueprint's tables (a player whose
        rollouts follow something else returns its own)."""
        from search.rollout_search import RolloutSearch

        return RolloutSearch(game, table, greedy, threads)

    def seed(self, seed: int) -> None:
        """Restart the player's generator (and the blueprint's) from `seed`."""
        self.rng = new_rng(seed)
        if hasattr(self.blueprint, "seed"):
            self.blueprint.seed(seed)

    def explain(self, view) -> dict:
        """`decide`'s figures (the move, why, the worlds, every legal move's searched value);
        a game's player may give more (Setback's adds its blueprint's trace)."""
        return self.decide(view)

    def choose(self, view) -> int:
        """The move for the seat to act in `view` (a `SeatView` of the game)."""
        return self.decide(view)["move"]

    def decide(self, view) -> dict:
        """The decision and the search's figures: `{"move", "reason": "forced" | "blueprint" |
        "search" (or a game's own reason for playing the blueprint's move, `_unsearched`),
        "worlds", "moves": [{"move", "value"}...] best first (each legal move's mean value for
        the player's team), "blueprint_move"}`."""
        from search.rollout_search import choose

        legal = view.legal_moves()
        if legal.size == 1:
            return {"move": int(legal[0]), "reason": "forced", "worlds": 0, "moves": [],
                    "blueprint_move": int(legal[0])}
        decision_seed = int(next_u64(self.rng)) >> 1  # 63 bits; drawn even where unused
        reason = self._unsearched(view.state)
        if reason is not None:
            move = int(self.blueprint.choose(view))
            return {"move": move, "reason": reason, "worlds": 0, "moves": [],
                    "blueprint_move": move}
        deadline = None
        if self.think_ms is not None:
            deadline = time.perf_counter() + self.think_ms / 1000.0
        worlds = self._worlds(view, new_rng(decision_seed))
        sign = 1 if view.seat % 2 == 0 else -1  # team 0 is the utility's side
        values = self.search.values(worlds, legal, sign, decision_seed, deadline,
                                    self._objective(view))
        blueprint_move = None
        if self.margin > 0.0:
            blueprint_move = int(self.blueprint.choose(view))
        index = choose(values, None if blueprint_move is None else
                       int(np.flatnonzero(legal == blueprint_move)[0]), self.margin)
        move = int(legal[index])
        self.stats["searched"] += 1
        self.stats["worlds"] += values.shape[0]
        self.last_worlds = worlds[:values.shape[0]]  # what `belief_summary` reads
        if blueprint_move is not None and move != blueprint_move:
            self.stats["deviations"] += 1
        mean = values.mean(axis=0)
        order = np.argsort(-mean, kind="stable")
        return {"move": move, "reason": "search", "worlds": int(values.shape[0]),
                "moves": [{"move": int(legal[i]), "value": float(mean[i])} for i in order],
                "blueprint_move": blueprint_move,
                "belief": self.belief_summary(view, self.last_worlds)}

    def belief_summary(self, view, worlds) -> list:
        """Where the cards that matter (`_cards_that_matter`) lie in the searched `worlds`:
        `[{"card", "holders": [left, partner, right, nobody]}...]`, each the share of the
        worlds in which the seat to the acting seat's left (its partner, its right) holds the
        card, the last the share in which nobody does (Setback: undealt; Euchre: the kitty or
        the discard). The cards the seat sees are left out."""
        seen = int(view.state[self._hand_field + view.seat]) | self._seen_cards(view)
        out = []
        for card in self._cards_that_matter(view):
            if seen >> card & 1:
                continue
            bit = np.int64(1) << card
            shares = [float(np.mean((worlds[:, self._hand_field + (view.seat + k) % 4]
                                     & bit) != 0)) for k in (1, 2, 3)]
            out.append({"card": int(card),
                        "holders": shares + [max(0.0, 1.0 - sum(shares))]})
        return out

    def _unsearched(self, state) -> str | None:
        """Why the blueprint's move is played at `state` without a search (None: search it):
        "blueprint" for the bids under `bids=blueprint`."""
        return "blueprint" if self._bidding(state) and not self.search_bids else None

    def _worlds(self, view, rng) -> np.ndarray:
        """The decision's worlds (int64[worlds, state size]): uniform among the consistent
        layouts; with `belief=bids` or `belief=policy` a pool of `pool` times as many,
        resampled (systematically) in proportion to their weights (`_log_weights`) raised to
        `temper`."""
        history = np.asarray(view.history, dtype=np.int64)
        # who played which card and the voids the moves show: read once a decision
        self._facts = self.public.replay_public(view.state, view.history)
        weighted = self.belief != "uniform" and history.size > 0
        if not weighted:
            states = self._states[:self.worlds]
            self.stats["rejected"] += self._draw_all(view, rng, states)
            return states
        # The pool is large: its parts are drawn on the search's threads, each part from a
        # seed of its own, so the pool is the same for any number of threads.
        states = self._states
        seeds = [int(next_u64(rng)) for _ in range(POOL_PARTS)]
        bounds = [states.shape[0] * k // POOL_PARTS for k in range(POOL_PARTS + 1)]
        self.stats["rejected"] += sum(self.search.each(POOL_PARTS, lambda k: self._draw_all(
            view, new_rng(seeds[k]), states[bounds[k]:bounds[k + 1]])))
        picks, ess = resample(self.pool_log_weights(view, states, history), 1.0, self.worlds,
                              rng)
        self.stats["weighted"] += 1
        self.stats["ess"] += ess
        return states[picks]

    def pool_log_weights(self, view, states, history) -> np.ndarray:
        """The log-weights of the pool `states` that the worlds are resampled by: the moves'
        evidence (`_log_weights`: the bids, or every move of the modelled seats) times
        `temper`, plus a learned model's log-probability of each world, taken as it is (a
        model is a belief already; the moves' evidence is a rough model of the others' play).
        All zero (uniform) when no world has a finite weight."""
        log_w = np.zeros(states.shape[0], dtype=np.float64)
        if self.belief != "model":
            self._log_weights(view, states, history, log_w)
            log_w *= self.temper
        if self.model is not None:
            from_model = np.zeros(states.shape[0], dtype=np.float64)
            self._model_log_weights(view, states, from_model)
            log_w += from_model
        if not np.isfinite(log_w.max()):
            log_w[:] = 0.0
        return log_w

    def _draw_all(self, view, rng, states) -> int:
        """Fill every row of `states` with a consistent world (`_draw`); returns the layouts
        rejected on the way. ValueError when the view admits none."""
        drawn, rejected = self._draw(view, rng, states)
        if drawn < states.shape[0]:
            raise ValueError("no layout of the hidden cards is consistent with this view")
        return int(rejected)

    def modelled_seats(self, view) -> int:
        """The seats whose moves weigh the worlds under `belief=policy`, as a bit mask of seats
        (the view's frame): every other seat (`evidence=others`), or the two opponents."""
        seats = 0
        for seat in range(4):
            if seat != view.seat and (self.evidence == "others" or (seat - view.seat) % 2):
                seats |= 1 << seat
        return seats

    def _bidding(self, state) -> bool:
        """Whether `state` is a decision of the game's bids (`bids=` covers them: the game's
        `in_auction`)."""
        return bool(self.public.in_auction(state))

    def _draw(self, view, rng, states) -> tuple[int, int]:
        """Fill `states` with worlds drawn uniformly among the layouts consistent with `view`
        (the game's sampler on the facts `_worlds` read): (worlds drawn, fewer than the rows
        when none is; layouts rejected on the way)."""
        played_by, extra_voids = self._facts
        return self.sampler.public_worlds(view.state, view.seat, played_by, extra_voids, rng,
                                          self.voids, states)

    def _log_weights(self, view, states, history, out) -> None:
        """Each world's log-weight into `out` (`search/likelihood.py`): under `belief=bids`
        the blueprint's log-probability of every seat's bids in `history`; under
        `belief=policy` of every move the modelled seats made (`modelled_seats`, the pool split
        among the search's threads); a probability below `self.floor` counting as
        `self.floor`."""
        from play.likelihood import ALL_SEATS, world_log_weights
        from search.likelihood import BIDS, POLICY

        args = (self.public, self.rules.apply_move, self.fields.TO_ACT, self.search.functions)
        played_by = self.public.replay_public(view.state, view.history)[0]
        if self.belief == "bids":
            world_log_weights(*args, BIDS, states, played_by, history, ALL_SEATS, self.table,
                              self.floor, out)
            return
        modelled = self.modelled_seats(view)
        self.search.split(states.shape[0], lambda first, stop: world_log_weights(
            *args, POLICY, states, played_by, history, modelled, self.table, self.floor, out,
            first, stop))

    _hand_field = 0  # the state field of seat 0's hand (HAND + seat), the same in every game

    def _cards_that_matter(self, view) -> tuple:
        """The hidden cards whose whereabouts the Why panel shows (none by default)."""
        return ()

    def _seen_cards(self, view) -> int:
        """The cards `view`'s seat has seen played (a mask: every card played)."""
        return int(view.state[self.fields.PLAYED])

    @classmethod
    def _load_model(cls, path: str):
        """The learned card-location model of `path` for this game (`belief=model:FILE`), read
        once a process; ValueError (one line) when it cannot be read or is another game's."""
        if cls.model_game is None:
            raise ValueError("belief=model: this game has no card-location model yet")
        from play.search_options import shared_model

        return shared_model(path, cls.model_game)

    def _model_log_weights(self, view, states, out) -> None:
        """Each world's log-probability under the card-location model into `out`: the sum over
        the cards hidden from the seat of the model's log-probability of the world's holder."""
        from search.card_location import world_log_weights

        world_log_weights(self.model.log_probs_view(view), states, view.seat, out)

    def _objective(self, view):
        """The rollouts' objective for `RolloutSearch.values` (None: the game's payoff)."""
        return None

    def close(self) -> None:
        """Stop the search's threads and close the blueprint."""
        self.search.close()
        if hasattr(self.blueprint, "close"):
            self.blueprint.close()
