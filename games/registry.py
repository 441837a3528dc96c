"""The games this framework knows: one entry a game, naming where its plug-in lives.

An entry holds only dotted names ("module:attribute"), resolved on first use, so importing the
registry imports no game package: a command can list the games (`--game` choices) without
paying for any of them, and no game's package can form an import loop through the registry
(the registry imports none of the kinds that register in it).

What a game provides (the plug-in boundary, as far as it is built today):

* `replay(spec) -> dict`: the engine behind `setback-cfr replay --game NAME` (JSON in, JSON out);
* `error`: the exception type its bad input raises (reported as one line, exit status 2);
* the rules engine over a flat int64 state array, in numba: `STATE_SIZE`, `new_state()`,
  `random_deal(rng, state)` (a `games.rng` generator), `legal_moves(state, moves) -> n`
  (ascending move numbers into a buffer of `MAX_MOVES`), `is_legal(state, move)`,
  `apply_move(state, move)`, the over test `state[PHASE] == PHASE_OVER`, and
  `score_difference(state)` (team 0's payoff minus team 1's; teams relative to the dealer);
* `key_codec`: what the strategy files and the database need of its abstraction's keys (one
  object: `game`, `kind_names`, `unknown`, `stage_kinds` (stage -> kinds its export holds),
  `key_kinds(texts)`, `action_names(text, n)`, `check_header(header)` (the recorded
  abstraction and version, refused in one line when this program's keys are others) and
  `key_text(key)` (None when the text depends on a layout chosen per run)).

Beyond these entry points a game brings (see the README's "adding a game"): its abstract game
for the trainer (`train/<game>_game.py`, chosen by `train baseline --game`), a database player
and a heuristic player, and a tournament (`tournament --game`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

# The entry points every game names, and what the rules engine entry points are.
RULES_ENTRY_POINTS = ("STATE_SIZE", "new_state", "random_deal", "MAX_MOVES", "legal_moves",
                      "is_legal", "apply_move", "PHASE", "PHASE_OVER", "score_difference")
ENTRY_POINTS = ("replay", "error", "key_codec") + RULES_ENTRY_POINTS


class UnknownGameError(ValueError):
    """A game name the registry does not know."""


@dataclass(frozen=True)
class GameEntry:
    """One registered game: its name, a one-line description, its package, and the dotted
    place ("module:attribute") of each entry point of `ENTRY_POINTS`."""

    name: str
    description: str
    package: str
    entry_points: dict = field(default_factory=dict)

    def load(self, entry_point: str):
        """The object behind `entry_point` (importing its module on first use)."""
        if entry_point not in self.entry_points:
            raise UnknownGameError(f"game {self.name!r} has no entry point {entry_point!r}")
        module, _, attribute = self.entry_points[entry_point].partition(":")
        return getattr(importlib.import_module(module), attribute)

    def rules(self) -> dict:
        """The rules engine entry points, loaded, by name."""
        return {name: self.load(name) for name in RULES_ENTRY_POINTS}


def _entry(name: str, description: str, package: str, *, state: str, rules: str,
           scoring: str, replay: str, error: str, key_codec: str) -> GameEntry:
    places = {"replay": f"{replay}:replay", "error": error, "key_codec": key_codec,
              "score_difference": f"{scoring}:score_difference"}
    for attribute in ("STATE_SIZE", "new_state", "random_deal", "PHASE", "PHASE_OVER"):
        places[attribute] = f"{state}:{attribute}"
    for attribute in ("MAX_MOVES", "legal_moves", "is_legal", "apply_move"):
        places[attribute] = f"{rules}:{attribute}"
    return GameEntry(name, description, package, places)


GAMES = {
    entry.name: entry for entry in (
        _entry("setback", "Setback (Auction Pitch) to 11, no smudge", "games.setback",
               state="games.setback.state", rules="games.setback.rules",
               scoring="games.setback.scoring", replay="games.setback.replay",
               error="games.setback.errors:SetbackError",
               key_codec="db.setback_keys:KEY_CODEC"),
        _entry("euchre", "Euchre as OpenSpiel 2.0.2's euchre (stick the dealer), to 10",
               "games.euchre",
               state="games.euchre.state", rules="games.euchre.rules",
               scoring="games.euchre.scoring", replay="games.euchre.replay",
               error="games.euchre.errors:EuchreError",
               key_codec="abstraction.euchre.codec:KEY_CODEC"),
    )
}
DEFAULT_GAME = "setback"


def names() -> tuple[str, ...]:
    """The registered games' names, the default first."""
    return tuple(GAMES)


def get(name: str) -> GameEntry:
    """The entry of game `name`; an unknown name is one clear error."""
    if name not in GAMES:
        raise UnknownGameError(f"unknown game {name!r}: expected one of {', '.join(GAMES)}")
    return GAMES[name]
