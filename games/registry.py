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
  `key_text(key)` (None when the text depends on a layout chosen per run: then
  `header_key_text(header)` gives the text of the layout a header records, and
  `header_layout(header)` the layout, which the game's database player reads)).

Optional entry points: `simulate`, a module with `simulate(seed, units, hands, stick,
on_chunk)` (and `max_deals=` for a game that may never end: one whose words lack
`ALWAYS_ENDS`), `summarize(stats, seconds, hands)` and `format_report(report, seed)`
(`setback-cfr simulate --game NAME`);
`evaluation`, the game's `train.evaluation.Evaluation` subclass (`train baseline --game NAME
--eval-every M`; Setback's `games/setback/train/evaluation.py`; a plug-in game's the shared
`train.evaluation:PluginEvaluation`, built from its codec, abstraction version and tournament); `heuristic`, the game's
heuristic player class (built with no arguments):
the fallback a database player needs for a key its database lacks, reached through the
registry because the players of `play/` sit above `db/` in the data flow; `tournament`, the
game's `play.tournament.TournamentGame` (how it plays a game or a single hand, its players'
grammar, its report): what the one tournament loop (`play.tournament.run_tournament`), the
`tournament` and `rating` commands and the results store need of it (`names(("tournament",))`
are the games they take); `trainer`, the baseline `Stage` factory `(seed, batch, algorithm,
sampling)` of a game trained on its own abstract game (`games/NAME/train/game.py`; Setback's
stages are its train module's); `card_location`, the game's declaration to the learned
card-location model (`search.card_location.Declaration`, in `games/NAME/search/card_location.py`:
its features, card order, pair features and public record; `names(("card_location",))` are the
games `learn belief` and `belief=model:` take); `inference`, the module of the game's
inference measurement (`evaluate(...)`, `format_table(result)`: how well beliefs over the hidden
hands match the truth, `setback-cfr inference`; Setback's `games/setback/play/inference_eval.py`);
`distill`, the game's declaration to the shared `train distill` stage
(`train.distill.DistillGame`: its network's features, its base table's player, its `net:`
player; `export` writes a distill run's network with its `export_net`; Setback's and Euchre's
in `games/NAME/train/distill.py`); `bootstrap`, the factory of
the game's score-aware stage on a baseline run (the quickstart's second step; Setback's
`games/setback/train/bootstrap.py`); `baseline`, the factory of the baseline stage of a game
whose train module trains it (the quickstart's first step; Setback's
`games/setback/train/baseline.py`).

A game's own actions of a shared command (`GameEntry.commands`, command -> module): the module's
`register_<command>(actions, end_options)` adds them (`commands(command)` lists them; Setback's
`learn generate|train|evaluate`, `games/setback/cli/learn_auction.py`). `train`'s module adds
the game's own stages and options and trains its baseline (what `cli/train.py` asks of it;
Setback's `games/setback/cli/train_stages.py`).

A game may be registered with its rules alone (`GameEntry.provides`), without a `key_codec`
until it has an abstraction (Spades had its rules, `replay`, `error`, a heuristic and a
tournament before its abstraction came). `names()` lists
the games that provide every entry point (the `--game` choices of the commands that train,
export, play or simulate), `names(needs)` those that provide the entry points `needs` names
(`replay --game` takes every game with a replay); `get` finds any registered game.

A four-seat trick-taking game writes its plug-in on the scaffold (`games/scaffold/`, with
`games/interface.py`, `abstraction/dealing.py`, `train/game_plugin.py`): the table, the seat's
view, the text face, the replay driver and the CFR interface's deal are written once there.
Beyond these entry points a game brings (see docs/games/adding-a-game.md): its abstract game
for the trainer (`games/<game>/train/game.py`, chosen by `train baseline --game`), a database
player and a heuristic player, and its `TournamentGame` (`tournament --game`, `rating --game`).

The plug-in's extent (`GameEntry.packages`, `GameEntry.plugin`): a game's files are in one place,
`games/NAME/` (`packages == ("games.NAME",)`: the rules at its top level, its abstraction, search,
training, database, players, toolkit modules and own commands in the layer subpackages
`games/NAME/abstraction/`, `search/`, `train/`, `db/`, `play/`, `envs/`, `cli/`). Outside its
place, the registry, `tests/` and `bench/`, a module may import a game only if the game's plug-in
list names it (`tests/test_game_imports.py` parses every module's imports and names any other).
`plugin` is the place (`games.NAME`, `games.NAME.*`) and that list, as dotted names or fnmatch
patterns: honestly, every module outside the place that is still bound to the game today, with the
reason. Every game's list is empty today.
`cfr/` imports no game at all.
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
    packages: tuple = ()  # the game's own packages (dotted): only its plug-in imports them
    plugin: tuple = ()  # the modules allowed to import them (dotted names, fnmatch patterns)
    optional: dict = field(default_factory=dict)  # `simulate`, `evaluation`, `heuristic`
    # a shared command -> the game's module adding its own actions to it (`commands`)
    commands: dict = field(default_factory=dict)

    def load(self, entry_point: str):
        """The object behind `entry_point` (importing its module on first use; a place
        without ":attribute" is the module itself)."""
        place = self.entry_points.get(entry_point) or self.optional.get(entry_point)
        if place is None:
            raise UnknownGameError(f"game {self.name!r} has no entry point {entry_point!r}")
        return load_place(place)

    def provides(self, entry_point: str) -> bool:
        """Whether the game names `entry_point` (a rules-only game lacks `key_codec`)."""
        return entry_point in self.entry_points or entry_point in self.optional

    def rules(self) -> dict:
        """The rules engine entry points, loaded, by name."""
        return {name: self.load(name) for name in RULES_ENTRY_POINTS}


def load_place(place: str):
    """The object at the dotted `place` ("module:attribute"; "module" alone is the module),
    its module imported now."""
    module, _, attribute = place.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attribute) if attribute else loaded


def _entry(name: str, description: str, package: str, *, state: str, rules: str,
           scoring: str, replay: str, error: str, key_codec: str | None, packages: tuple,
           plugin: tuple, simulate: str | None = None,
           evaluation: str | None = None, heuristic: str | None = None,
           tournament: str | None = None, trainer: str | None = None,
           card_location: str | None = None, inference: str | None = None,
           distill: str | None = None, bootstrap: str | None = None,
           baseline: str | None = None, commands: dict | None = None) -> GameEntry:
    places = {"replay": f"{replay}:replay", "error": error,
              "score_difference": f"{scoring}:score_difference"}
    if key_codec is not None:  # None: the game has no abstraction yet (rules only)
        places["key_codec"] = key_codec
    for attribute in ("STATE_SIZE", "new_state", "random_deal", "PHASE", "PHASE_OVER"):
        places[attribute] = f"{state}:{attribute}"
    for attribute in ("MAX_MOVES", "legal_moves", "is_legal", "apply_move"):
        places[attribute] = f"{rules}:{attribute}"
    return GameEntry(name, description, package, places, tuple(packages),
                     tuple(packages) + tuple(f"{p}.*" for p in packages) + tuple(plugin),
                     {k: v for k, v in (("simulate", simulate), ("evaluation", evaluation),
                                        ("heuristic", heuristic), ("tournament", tournament),
                                        ("trainer", trainer),
                                        ("card_location", card_location),
                                        ("inference", inference), ("distill", distill),
                                        ("bootstrap", bootstrap), ("baseline", baseline))
                      if v}, dict(commands or {}))


# The modules outside a game's place (`games/<game>/`, which its entry's `packages` names and
# whose every module may import it) that still import that place, each with why; kept honest
# by tests/test_game_imports.py (a module listed must import the place). All three are empty:
# the shared layers reach a game only through its entry points here.
SETBACK_PLUGIN = ()  # everything of Setback's is in its place
EUCHRE_PLUGIN = ()  # everything of Euchre's is in its place
SPADES_PLUGIN = ()  # everything of Spades' is in its place

GAMES = {
    entry.name: entry for entry in (
        _entry("setback", "Setback (Auction Pitch) to 11, no smudge", "games.setback",
               state="games.setback.state", rules="games.setback.rules",
               scoring="games.setback.scoring", replay="games.setback.replay",
               error="games.setback.errors:SetbackError",
               key_codec="games.setback.db.keys:KEY_CODEC",
               heuristic="games.setback.play.heuristic:HeuristicPlayer",
               evaluation="games.setback.train.evaluation:SetbackEvaluation",
               tournament="games.setback.play.tournament:SETBACK",
               simulate="games.setback.simulate",
               card_location="games.setback.search.card_location:GAME",
               inference="games.setback.play.inference_eval",
               distill="games.setback.train.distill:DISTILL",
               bootstrap="games.setback.train.bootstrap:bootstrap_stage",
               baseline="games.setback.train.baseline:baseline_stage",
               commands={"learn": "games.setback.cli.learn_auction",
                         "train": "games.setback.cli.train_stages"},
               packages=("games.setback",),
               plugin=SETBACK_PLUGIN),
        _entry("euchre", "Euchre as OpenSpiel 2.0.2's euchre (stick the dealer), to 10",
               "games.euchre",
               state="games.euchre.state", rules="games.euchre.rules",
               scoring="games.euchre.scoring", replay="games.euchre.replay",
               error="games.euchre.errors:EuchreError",
               key_codec="games.euchre.abstraction.codec:KEY_CODEC",
               simulate="games.euchre.simulate",
               evaluation="train.evaluation:PluginEvaluation",
               heuristic="games.euchre.play.heuristic:EuchreHeuristicPlayer",
               tournament="games.euchre.play.tournament:TOURNAMENT",
               trainer="games.euchre.train.game:euchre_baseline_stage",
               card_location="games.euchre.search.card_location:GAME",
               distill="games.euchre.train.distill:DISTILL",
               packages=("games.euchre",),
               plugin=EUCHRE_PLUGIN),
        _entry("spades", "Spades as OpenSpiel 2.0.2's spades, to 500 (not simulated yet)",
               "games.spades",
               state="games.spades.state", rules="games.spades.rules",
               scoring="games.spades.scoring", replay="games.spades.replay",
               error="games.spades.errors:SpadesError",
               key_codec="games.spades.abstraction.codec:KEY_CODEC",
               heuristic="games.spades.play.heuristic:SpadesHeuristicPlayer",
               evaluation="train.evaluation:PluginEvaluation",
               tournament="games.spades.play.tournament:TOURNAMENT",
               trainer="games.spades.train.game:spades_baseline_stage",
               packages=("games.spades",), plugin=SPADES_PLUGIN),
    )
}
DEFAULT_GAME = "setback"


def commands(command: str) -> dict:
    """{game: its module adding its own parts to the shared `command` (imported now)} of the
    registered games that name one (`GameEntry.commands`), in the registry's order; each has
    `register_<command>`, whose arguments the command names (`learn`: `register_learn(actions,
    end_options)`, Setback's auction evaluator; `train`: `register_train(stages)`, Setback's own
    stages and options, and what `cli/train.py` asks of it)."""
    return {name: load_place(entry.commands[command]) for name, entry in GAMES.items()
            if command in entry.commands}


# The program's (and the distribution's) name: the product is named after its first game, and
# every message, file format and metric name that says the program's name takes it from here,
# so the shared layers never spell a game's name. `PROGRAM_WORD` is its first word, the prefix of
# its identifiers (metric names, the owner cookie).
PROGRAM = "setback-cfr"
PROGRAM_WORD = PROGRAM.split("-")[0]


def words(name: str, kind: str, default=None):
    """Game `name`'s words `kind` for the shared commands and the server (an attribute of its
    `games/<game>/command_words.py`, plain text that imports nothing), or `default` when it
    declares none."""
    module = declaration(name, "command_words")
    return getattr(module, kind, default) if module is not None else default


def names(needs: tuple = ENTRY_POINTS) -> tuple[str, ...]:
    """The names of the registered games that provide every entry point of `needs` (by
    default all of `ENTRY_POINTS`: the games every `--game` command takes), the default
    first."""
    return tuple(e.name for e in GAMES.values() if all(e.provides(p) for p in needs))


def plugin_of(module: str) -> tuple[str, ...]:
    """The games whose plug-in lists `module` (a dotted name)."""
    from fnmatch import fnmatchcase

    return tuple(e.name for e in GAMES.values()
                 if any(fnmatchcase(module, p) for p in e.plugin))


def declaration(name: str, kind: str):
    """Game `name`'s module `<package>.<kind>`, its declaration to a shared layer (e.g.
    `toolkit`, `bid_tables`: `games/<game>/<kind>.py`; a dotted `kind` such as
    `abstraction.key_choice` is inside a subpackage), imported on this call; None when the game
    declares no such module."""
    import importlib.util

    module = f"{get(name).package}.{kind}"
    try:
        found = importlib.util.find_spec(module)
    except ModuleNotFoundError:  # a `kind` inside a subpackage the game does not have
        found = None
    return importlib.import_module(module) if found else None


def declarations(kind: str) -> dict:
    """{game: its declaration `kind`} of the registered games that have one (`declaration`)."""
    found = {name: declaration(name, kind) for name in GAMES}
    return {name: module for name, module in found.items() if module is not None}


def get(name: str) -> GameEntry:
    """The entry of game `name`; an unknown name is one clear error."""
    if name not in GAMES:
        raise UnknownGameError(f"unknown game {name!r}: expected one of {', '.join(GAMES)}")
    return GAMES[name]
