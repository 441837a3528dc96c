"""The bots of a web game: a player spec's decisions, each with what the bot saw and chose (the
page's "Why" panel, `/api/decide`'s explanation). `bots_for(look)` is the bots class of the
game declared by `look` (its games/<game>/table_view.py, whose `BOTS` names, as dotted places,
its player factory and either how its abstraction describes a decision (`describe`: players
that explain their own keys, `Bots`) or its abstraction's package (`abstraction`: keys read
here, `KeyedBots`), and the belief's word for the cards no seat holds (`undealt`).

One bots object serves every game of a server. Players hold scratch buffers, generators
and (for `db:`) an SQLite connection that belongs to the thread that opened it, so each
thread gets its own player instance, made on first use. Every decision first reseeds the
player from the game's seed and the decision's place in the game, so a bot's move depends on
the game and nothing else: not on the other games, on hints asked, or on a server restart.
"""

from __future__ import annotations

import importlib
import threading
from functools import lru_cache

from games import registry  # plain data: imports no game


def belief_by_seat(view, belief, format_card, nobody: str) -> list:
    """A search decision's `belief` (`play.search_base.SearchPlayerBase.belief_summary`: each
    card's shares [left, partner, right, nobody] of the acting seat) as the page shows it:
    `[{"card": text, "percent": {"W": .., "N": .., "E": .., nobody: ..}}...]`, the seats by
    their letters (the acting seat's own left out), per cent of the worlds searched; no
    `nobody` column when it is None (a game that deals every card)."""
    out = []
    for entry in belief:
        percent = {"WNES"[(view.dealer + view.seat + k) % 4]: round(100.0 * share, 1)
                   for k, share in zip((1, 2, 3), entry["holders"])}
        if nobody is not None:  # None: every card is dealt
            percent[nobody] = round(100.0 * entry["holders"][3], 1)
        out.append({"card": format_card(entry["card"]), "percent": percent})
    return out


def load(place: str):
    """The object at the dotted place "module:attribute", imported now."""
    return registry.load_place(place)


class Bots:
    """Decisions of the player named by `spec` (the game's player grammar), one instance per
    thread; a game's class (`bots_for`) sets `make` (its player factory), `format_move` (its
    moves' text), `describe` (a state -> its abstraction's key and abstract actions, for the
    players that do not explain themselves) and `undealt`.

    Making the first player here validates the spec at once: a bad spec raises
    `PlayerSpecError` before the server starts.
    """

    format_move = staticmethod(str)
    describe = None
    undealt: str | None = None

    def __init__(self, spec: str):
        self.spec = spec
        self._local = threading.local()
        self.name = self._player().name

    def ready(self) -> None:
        """Make this thread's player now (a server's bot workers, before the first request)."""
        self._player()

    @staticmethod
    def make(spec: str):
        """The player of `spec` (the game's factory, `bots_for`)."""
        raise NotImplementedError

    def _player(self):
        player = getattr(self._local, "player", None)
        if player is None:
            player = self._local.player = self._refuse_oracle(self.make(self.spec))
        return player

    @staticmethod
    def _refuse_oracle(player):
        """`player`, unless it is an all-seeing oracle (`play.trick_oracle.refuses_oracle`):
        refused here, after any game's `make`, with `PlayerSpecError` (one line)."""
        from play.trick_oracle import refuses_oracle
        from play.player_spec import PlayerSpecError

        refusal = refuses_oracle(player, "serve or decide (it would see the person's hand)")
        if refusal is not None:
            if hasattr(player, "close"):
                player.close()
            raise PlayerSpecError(refusal)
        return player

    def decide(self, view, seed: int) -> tuple[int, dict]:
        """(engine move, explanation) for the seat to act in `view` (a `SeatView`).

        The explanation: `{"player", "reason", "kind", "key", "found", "lookups",
        "actions": [{"action", "move", "prob"}], "chosen", "move"}` with moves as text;
        `reason` is `found`, `fallback` or `forced` for a strategy player and `rules` for
        the heuristic and random players (their `key` and `actions` are the abstraction's
        view of the same decision, without probabilities: `describe`).
        """
        format_move = self.format_move
        player = self._player()
        if hasattr(player, "seed"):
            player.seed(seed)
        if hasattr(player, "explain"):
            return self._told(view, player, player.explain(view))
        move = int(player.choose(view))
        explanation = {"reason": "rules", "kind": None, "found": None, "lookups": [],
                       "chosen": None}
        if view.legal_moves().size == 1:
            explanation.update(reason="forced", key=None, actions=[])
        else:
            described = self.describe(view.state)
            explanation["key"] = described["key"]
            explanation["actions"] = [dict(a, prob=None) for a in described["actions"]]
            played = format_move(move)
            explanation["chosen"] = next((i for i, a in enumerate(explanation["actions"])
                                          if a["move"] == played), None)
        explanation["player"] = player.name
        explanation["move"] = format_move(move)
        return move, explanation

    def _told(self, view, player, explanation: dict) -> tuple[int, dict]:
        """(engine move, explanation) from a player's own `explain` of `view` (a fresh trace:
        ours to turn into text): its moves as text, a search player's values and belief by
        seat."""
        format_move = self.format_move
        move = int(explanation["move"])
        for action in explanation["actions"]:
            action["move"] = format_move(action["move"])
        for searched in explanation.get("searched", ()):  # a search player's values
            searched["move"] = format_move(searched["move"])
        if "belief" in explanation:  # where the cards that matter lie
            explanation["belief"] = belief_by_seat(view, explanation["belief"], format_move,
                                                   self.undealt)
        explanation["player"] = player.name
        explanation["move"] = format_move(move)
        return move, explanation


class KeyedBots(Bots):
    """The bots of a game whose decisions are keyed here, by its abstraction's package
    (`abstraction`: its `keys` module gives `abstract_decision(state, moves) -> (n, kind, key)`
    and `MOVES_BUFFER`, its `codec` `key_text`, `action_names` and `KIND_NAMES`), for players
    that do not name their keys themselves; `undealt` is the belief's word for the cards no
    seat holds (None: every card is dealt)."""

    abstraction = ""  # the package, "games.<game>.abstraction"

    def __init__(self, spec: str):
        import importlib

        self._keys = importlib.import_module(f"{self.abstraction}.keys")
        self._codec = importlib.import_module(f"{self.abstraction}.codec")
        super().__init__(spec)

    def decide(self, view, seed: int) -> tuple[int, dict]:
        """(engine move, explanation) for the seat to act in `view` (the game's `SeatView`).

        The explanation: `{"player", "reason", "kind", "key", "found", "lookups",
        "actions": [{"action", "move", "prob"}], "chosen", "move"}` with moves as text, as
        `Bots.decide` gives: `reason` is `forced` (one legal move, or one abstract
        action), `found` or `fallback` (a database bot: the key stored or not, the heuristic
        playing then), `rules` for the heuristic and random players (probabilities None), and
        a search player's own (`search`, `blueprint`, `settled`) with `worlds`, `searched`
        (every legal move's searched value, best first) and `belief`, under its blueprint's
        key and probabilities (the page's Why panel shows both); a policy network's
        (`network`) its probabilities of the legal moves."""
        import numpy as np

        fmt = self.format_move
        player = self._player()
        if hasattr(player, "seed"):
            player.seed(seed)
        searched = player.explain(view) if hasattr(player, "explain") else None
        move = int(player.choose(view)) if searched is None else int(searched["move"])
        if searched is not None and "worlds" not in searched:
            # a player that explains itself without searching (the policy network): its own
            # probabilities of the legal moves are the Why panel's, as `Bots.decide` shows them
            return self._told(view, player, searched)
        explanation = {"player": player.name, "reason": "rules", "kind": None, "key": None,
                       "found": None, "lookups": [], "actions": [], "chosen": None,
                       "move": fmt(move)}
        if searched is not None:  # a search player: its values, and its blueprint's key below
            explanation.update(reason=searched["reason"], worlds=searched["worlds"],
                               searched=[{"move": fmt(s["move"]), "value": s["value"]}
                                         for s in searched["moves"]],
                               belief=belief_by_seat(view, searched.get("belief", []), fmt,
                                                     self.undealt))
        keys, codec = self._keys, self._codec
        moves = np.zeros(keys.MOVES_BUFFER, dtype=np.int64)
        n, kind, key = keys.abstract_decision(view.state, moves)
        if view.legal_moves().size == 1 or n < 2:
            if not explanation.get("searched"):  # a search player searches these too
                explanation["reason"] = "forced"
            return move, explanation
        text = codec.key_text(int(key))
        probs = None
        db = getattr(player, "db", None) or getattr(getattr(player, "blueprint", None), "db",
                                                     None)
        if db is not None:  # the database's own lookup, repeated to show its numbers
            hit = db.lookup(text)
            explanation["found"] = hit is not None
            if searched is None:
                explanation["reason"] = "found" if hit is not None else "fallback"
            explanation["lookups"] = [{"kind": codec.KIND_NAMES[int(kind)], "key": text,
                                       "found": hit is not None}]
            if hit is not None and hit[0].size == n:
                probs = [float(p) for p in hit[0]]
        names = codec.action_names(text, n)
        explanation["kind"] = codec.KIND_NAMES[int(kind)]
        explanation["key"] = text
        explanation["actions"] = [{"action": names[i], "move": fmt(int(moves[i])),
                                   "prob": None if probs is None else probs[i]}
                                  for i in range(n)]
        explanation["chosen"] = next((i for i in range(n) if int(moves[i]) == move), None)
        return move, explanation


@lru_cache(maxsize=None)
def bots_for(look) -> type:
    """The bots class of the game declared by the module `look` (its `BOTS`, `Face` and
    `PAGE`): `KeyedBots` on its abstraction when it names one, else `Bots` with its
    `describe`."""
    declared = look.BOTS
    attributes = {"make": staticmethod(load(declared["make"])),
                  "format_move": staticmethod(look.Face.format_move),
                  "undealt": declared.get("undealt"),
                  "__doc__": f"The bots of {look.PAGE['title']} (`web.bots.bots_for`)."}
    if "abstraction" in declared:
        base, attributes["abstraction"] = KeyedBots, declared["abstraction"]
    else:
        base, attributes["describe"] = Bots, staticmethod(load(declared["describe"]))
    return type(look.PAGE["name"].capitalize() + "Bots", (base,), attributes)
