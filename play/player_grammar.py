"""A game's player grammar, written once: the kind a spec names (its head: the text before the
first `:`, `,` or `[`, so `ismcts:100,pyspiel` is `ismcts`) chooses the factory that builds the
player, and a game declares only its kinds (`Grammar`). The oracle, whose own `bid=` spec may
hold anything, is asked first. A kind the game lacks, or an unknown spec, is one line of the
game's spec error naming what it takes. It names no game: a trick-taking game declares its
kinds to `play.trick_game_grammar` (in `games/NAME/play/tournament.py`); Setback's grammar,
with its composites, is `games/setback/play/grammar.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Grammar:
    """A game's players by kind: `kinds` maps a head to `factory(text, seed)` (the spec as
    written, stripped), `plain` a kind written alone (`random`, `heuristic`: no argument) to
    `build(seed)`; `title` names the game in messages (none: Setback's, the first grammar),
    `error` is its one-line spec error and
    `help` what it takes; `oracle` is `(is_oracle_spec(text), make(text, seed))` where the
    game has one; `missing`, the heads of kinds other games have and this one not yet
    (refused saying so)."""

    title: str
    error: type
    help: str
    kinds: dict
    plain: dict = field(default_factory=dict)
    oracle: tuple | None = None
    missing: tuple = ()

    def make(self, spec: str, seed: int = 0):
        """The player of `spec`; the game's spec error (one line) for a bad one."""
        text = str(spec).strip()
        if self.oracle is not None and self.oracle[0](text):
            return self.oracle[1](text, seed)
        if text.lower() in self.plain:
            return self.plain[text.lower()](seed)
        head = text.lower().partition(":")[0].partition(",")[0].partition("[")[0]
        if head in self.kinds:
            return self.kinds[head](text, seed)
        if head in self.missing:
            raise self.error(f"{text!r}: {self.title} has no {head} player yet (expected "
                             f"{self.help})")
        game = f"{self.title} " if self.title else ""
        raise self.error(f"unknown {game}player {text!r}: expected {self.help}")
