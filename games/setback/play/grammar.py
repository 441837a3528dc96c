"""Setback's player grammar, its players named on the command line: `random`, `heuristic`,
`db:PATH`, `strategy:PATH`, the PIMC card players `pimc[:WORLDS]` and `pimc-pi[:WORLDS]:POLICY`
(`pimc.py`), the SDS bidder `sds[:W][,play=SPEC]` (`sds.py`), OpenSpiel's ISMCTS bot
`ismcts[:SIMS]` (`play/ismcts_player.py`), rollout search on a blueprint `search[OPTIONS]:POLICY`
(`search_player.py`), Trickster Cards' Pitch bot `trickster:pitch` (`trickster.py`, run with Mono
from the checkout named by `TRICKSTER_BOTS`), and any of them with another player's bidding,
`PLAYER,bid=BIDDER` (`composite.py`). And `oracle[,bid=SPEC]` (`oracle.py`), which SEES EVERY
HAND (double-dummy card play on the true deal): a ceiling for `tournament` and `rating`, never a
default; it takes its `bid=` itself and cannot sit inside another player.

`strategy:` takes one strategy file or several separated by commas (a baseline export and a
bootstrap export, as `db load` takes them). Bad names and missing files are one clear error
(`PlayerSpecError`).

The grammar of `bid=`: a spec is `PLAYER[,bid=BIDDER]`, split at the FIRST `,bid=`. PLAYER is
everything before it (its own options, such as pimc's `tables=`, come there); BIDDER is all
the rest of the string, so it may hold commas and colons (`bid=strategy:a.msgpack,b.msgpack`,
`bid=pimc-pi:20:db:y.db`), but not a `,bid=` of its own (a bidder that itself bids like a
third player is that third player: name it directly). No path may contain `,bid=`. Bidding
is the auction's decisions only; the pitch and the rest of the card play are PLAYER's. The
composite's name (shown by tournaments and ratings) is the whole spec as written.

This module is Setback's players' registry (its registry entry's `tournament` plays them;
`play.player_spec.make_player` reaches them by the game's name; its help text is
`command_words.PLAYERS`) and imports none of the kinds that build players with it: `pimc`,
`sds`, `nn` and `ismcts` name their factory as "module:function" in `KINDS`, imported on first
use, since each of them makes its bidder or card player through `make_player` (so neither side
imports the other at load time and no import loop forms).
"""

from __future__ import annotations

import os

from games.registry import load_place
from games.setback.command_words import PLAYERS as SPEC_HELP  # its words, plain text
from play.player_grammar import Grammar
from play.player_spec import PlayerSpecError

BID_OPTION = ",bid="
GAPS_OPTION = ",gaps="
BACKOFF_OPTION = ",backoff="
# The kinds whose modules call back into `make_player`: kind -> "module:factory(text, seed)".
KINDS = {
    "sds": "games.setback.play.sds:make_sds_player",
    "nn": "games.setback.play.nn_bidder:make_nn_player",
    "net": "games.setback.play.net_player:make_net_player",
    "pimc": "games.setback.play.pimc:make_pimc_player",
    "search": "games.setback.play.search_player:make_search_player",
    # sees every hand: tournament and rating only
    "oracle": "games.setback.play.oracle:make_oracle_player",
    "backoff": "games.setback.play.backoff:make_backoff_player",  # db:FINE,backoff=db:COARSE
    # Trickster Cards' bot
    "trickster": "games.setback.play.trickster:make_trickster_pitch_player",
}


# Setback's wrappers of two players: `SPEC,bid=BIDDER` and `db:PATH,gaps=BIDDER`
COMPOSITE = "games.setback.play.composite:CompositePlayer"
GAP_FILLED = "games.setback.play.gap_filled:GapFilledPlayer"
# Setback's database player (`db:PATH`, its key layouts) and the same over strategy files
DATABASE = "games.setback.db.player:DatabasePlayer"
STRATEGY_FILES = "games.setback.play.strategy_player:StrategyFilePlayer"


def make_player(spec: str, seed: int = 0):
    """The player named by `spec` (see the module docstring)."""
    text = str(spec).strip()
    base, sep, bid_spec = text.partition(BID_OPTION)
    if sep:
        if not base.strip():
            raise PlayerSpecError(f"{text!r}: bid= needs a player before it, as in "
                                  "db:strategy.db,bid=heuristic")
        if not bid_spec.strip():
            raise PlayerSpecError(f"{text!r}: bid= needs a player, as in bid=heuristic")
        if BID_OPTION in bid_spec:
            raise PlayerSpecError(f"{text!r}: bid= takes one player without a bid= of its own "
                                  "(name the player that bids)")
        if not (_is_pimc(base) or _is_oracle(base)):  # they take bid= themselves
            return _make_composite(text, base, bid_spec, seed)
    return _make_single(text, seed)


def _is_pimc(text: str) -> bool:
    lower = text.strip().lower()
    return lower.startswith(("pimc:", "pimc,", "pimc-pi:", "pimc-pi,")) or lower in (
        "pimc", "pimc-pi")


def _is_oracle(text: str) -> bool:
    lower = text.strip().lower()
    return lower == "oracle" or lower.startswith("oracle,")


def _make_composite(text: str, base: str, bid_spec: str, seed: int):
    """`base` playing the cards, `bid_spec` bidding, named `text`."""
    CompositePlayer = load_place(COMPOSITE)

    if _is_oracle(bid_spec):
        raise PlayerSpecError(f"{text!r}: the oracle sees every hand and cannot bid for "
                              "another player (name oracle,bid=SPEC on its own)")
    player = _make_single(base.strip(), seed)
    try:
        bidder = _make_single(bid_spec.strip(), seed)
    except PlayerSpecError as exc:
        if hasattr(player, "close"):
            player.close()
        raise PlayerSpecError(f"in bid= of {text!r}: {exc}") from None
    return CompositePlayer(player, bidder, name=text)


def _make_gap_filled(text: str, seed: int):
    """`db:PATH,gaps=BIDDER`: the database player, its auction fallbacks bid by BIDDER (split
    at the first `,gaps=`; BIDDER is the rest, so it may hold commas: `gaps=nn:m.nn,expected`)."""
    GapFilledPlayer = load_place(GAP_FILLED)

    base, _, gaps_spec = text.partition(GAPS_OPTION)
    if not gaps_spec.strip():
        raise PlayerSpecError(f"{text!r}: gaps= needs a bidder, as in gaps=nn:model.nn")
    database = _make_single(base.strip(), seed)
    try:
        gaps = _make_single(gaps_spec.strip(), seed)
    except PlayerSpecError as exc:
        database.close()
        raise PlayerSpecError(f"in gaps= of {text!r}: {exc}") from None
    return GapFilledPlayer(database, gaps, name=text)


def _make_kind(kind: str, text: str, seed: int):
    """The player of a registered kind (`KINDS`), its factory imported on first use."""
    return load_place(KINDS[kind])(text, seed)


def _make_single(text: str, seed: int):
    """A player without a composite `bid=` (pimc's own bid= aside): `GRAMMAR`'s."""
    return GRAMMAR.make(text, seed)


def _kind(kind: str):
    """The factory `(text, seed)` of a registered kind (`KINDS`)."""
    return lambda text, seed: _make_kind(kind, text, seed)


def _ismcts(text: str, seed: int):
    """`ismcts[:SIMS]`: OpenSpiel's ISMCTS bot searching Setback's OpenSpiel game."""
    from play.ismcts_player import make_ismcts_player

    return make_ismcts_player(text, seed, "setback", error=PlayerSpecError)


def _random(seed: int):
    """The uniformly random player (`games.scaffold.match`: every game's)."""
    from games.scaffold.match import RandomPlayer

    return RandomPlayer(seed)


def _heuristic(seed: int):
    """The rule-based player (`games.setback.play.heuristic`, Setback's registry entry's
    `heuristic`)."""
    from games.setback.play.heuristic import HeuristicPlayer

    return HeuristicPlayer()


def _database(text: str, seed: int):
    """`db:PATH` (`games.setback.db.player`), or with `,backoff=` or `,gaps=` the players built
    on it."""
    if BACKOFF_OPTION in text:
        return _make_kind("backoff", text, seed)
    if GAPS_OPTION in text:
        return _make_gap_filled(text, seed)
    from db.errors import DatabaseError

    DatabasePlayer = load_place(DATABASE)
    argument = text.partition(":")[2]
    if not argument:
        raise PlayerSpecError("db: needs a path, as in db:strategy.db")
    if not os.path.isfile(argument):
        raise PlayerSpecError(f"{argument}: no such strategy database")
    try:
        return DatabasePlayer(argument, name=f"db:{os.path.basename(argument)}")
    except DatabaseError as exc:
        raise PlayerSpecError(str(exc)) from None


def _strategy(text: str, seed: int):
    """`strategy:PATH[,PATH...]` (`games.setback.play.strategy_player`), or with `,backoff=`
    the backoff."""
    if BACKOFF_OPTION in text:
        return _make_kind("backoff", text, seed)
    from db.errors import DatabaseError

    StrategyFilePlayer = load_place(STRATEGY_FILES)
    paths = [p for p in text.partition(":")[2].split(",") if p]
    if not paths:
        raise PlayerSpecError("strategy: needs a path, as in strategy:baseline.msgpack")
    try:
        return StrategyFilePlayer(paths)
    except DatabaseError as exc:
        raise PlayerSpecError(str(exc)) from None


GRAMMAR = Grammar("", PlayerSpecError, SPEC_HELP,
                  {"sds": _kind("sds"), "nn": _kind("nn"), "net": _kind("net"),
                   "pimc": _kind("pimc"), "pimc-pi": _kind("pimc"), "ismcts": _ismcts,
                   "search": _kind("search"), "trickster": _kind("trickster"),
                   "db": _database, "strategy": _strategy},
                  {"random": _random, "heuristic": _heuristic},
                  (_is_oracle, _kind("oracle")))
