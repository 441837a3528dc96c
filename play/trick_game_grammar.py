"""The player grammar of a trick-taking game, built from what the game declares
(`trick_game_grammar`): the kinds every such game has (`random`, its heuristic, `db:PATH`, the
oracle) come from its registry entry and declarations, and a game names only its own factories
(search, ISMCTS, Trickster's bot, an oracle with options). It names no game.
"""

from __future__ import annotations

import os

from play.player_grammar import Grammar


def database_player(text: str, seed: int, game: str, error: type):
    """`db:PATH[,sample]` (`text`) of `game` (`db.plugin_player.PluginDatabasePlayer`); a bad
    spec or a database that cannot be read is one `error` line."""
    from db.errors import DatabaseError
    from db.plugin_player import PluginDatabasePlayer

    path, _, option = text[3:].partition(",")
    if not path.strip():
        raise error(f"{text!r}: a database player is db:PATH[,sample]")
    if option not in ("", "sample"):
        raise error(f"{text!r}: the only option of db:PATH is ',sample'")
    try:
        return PluginDatabasePlayer(path, sample=option == "sample", seed=seed, game=game,
                                    name=f"db:{os.path.basename(path)}"
                                    + (",sample" if option else ""))
    except DatabaseError as exc:
        raise error(str(exc)) from None


def _loaded(place):
    """`place` itself, or the object a dotted "module:attribute" names (imported now)."""
    from games.registry import load_place

    return load_place(place) if isinstance(place, str) else place


def trick_game_grammar(game: str, title: str, error: type, help: str, *, search=None,
                       ismcts=None, trickster=None, oracle=None, missing: tuple = ()) -> Grammar:
    """The `Grammar` of a trick-taking game `game` (a registered name) from what it declares,
    each kind a callable or a dotted "module:attribute" resolved when a player of it is built:
    `search` and `oracle` are `make(text, seed, make_player, error)` (`make_player` the
    grammar's own, for the player they build on), `ismcts` the game's `NativeGame`
    (`play.ismcts_player`), `trickster` `make(text, seed, error)`. Every such game has
    `random`, `heuristic` (its registry entry's, when it has one), `db:PATH[,sample]` (its
    keys' database player, `db.plugin_player`, when it has a key codec) and the oracle of
    `play.trick_oracle` on its `trick_play` declaration, with `oracle`'s options (a dict:
    `colon`, `exact_tricks`, `node_limit`, `play_on`) where it gives some; its bidder is the
    heuristic, or `random` for a game without one (never asked in a game whose every decision
    is a card); a kind not declared is absent."""
    from games import registry
    from games.scaffold.match import RandomPlayer

    entry = registry.get(game)

    def make(text: str, seed: int):
        return grammar.make(text, seed)

    def heuristic(seed: int):
        return entry.load("heuristic")()

    def make_oracle(text: str, seed: int):
        from play.trick_oracle import make_trick_oracle_player

        return make_trick_oracle_player(text, seed, make, error,
                                        registry.declaration(game, "trick_play"), f"{title} ",
                                        **{"bidder": next(iter(plain)), **_loaded(oracle or {})})

    def database(text: str, seed: int):
        return database_player(text, seed, game, error)

    def native_ismcts(text: str, seed: int):
        from play.ismcts_player import make_ismcts_player

        return make_ismcts_player(text, seed, game, _loaded(ismcts), error)

    kinds = {"db": database} if entry.provides("key_codec") else {}
    if search is not None:
        kinds["search"] = lambda text, seed: _loaded(search)(text, seed, make, error)
    if ismcts is not None:
        kinds["ismcts"] = native_ismcts
    if trickster is not None:
        kinds["trickster"] = lambda text, seed: _loaded(trickster)(text, seed, error)
    def is_oracle(text: str) -> bool:
        from play.trick_oracle import is_oracle_spec

        return is_oracle_spec(text)

    # the oracle's default bidder: the first plain kind (the heuristic, where there is one)
    plain = {"heuristic": heuristic} if entry.provides("heuristic") else {}
    plain["random"] = RandomPlayer
    grammar = Grammar(title, error, help, kinds, plain, (is_oracle, make_oracle), missing)
    return grammar
