"""The one reader of a strategy database as policy arrays for every registered game whose
abstraction's codec reads its keys (`db/codec_policy_arrays.py`): a database of random vectors
on the abstract game's keys of random hands reads back key for key (sorted integer keys, each
vector and its best action), and another game, another abstraction, a key the codec cannot read
and a missing file are refused in one line."""

from __future__ import annotations

import importlib
import importlib.util
import shutil
import sqlite3
from types import SimpleNamespace

import numpy as np
import pytest

from db.codec_policy_arrays import codec_arrays_of_store, load_codec_policy_arrays
from db.database import StrategyDatabase
from db.errors import DatabaseError
from db.loader import load_strategies
from db.synthetic import write_table
from games import registry
from games.rng import new_rng


def _abstraction(name):
    """The game's abstraction package whose codec reads key strings (`text_key`), or None."""
    package = registry.get(name).package + ".abstraction"  # games/<game>/abstraction
    if importlib.util.find_spec(package) is None:
        return None
    if importlib.util.find_spec(package + ".codec") is not None:
        module = importlib.import_module(package + ".codec")
        if hasattr(module, "text_key") and hasattr(module, "check_header"):
            return package
    return None


GAMES = [name for name in registry.GAMES if _abstraction(name) is not None]


def _database(name, tmp_path):
    """(path, {key text: vector}) of a database of random vectors on the abstract game's keys
    met along 20 hands of random legal moves."""
    package = _abstraction(name)
    codec = importlib.import_module(package + ".codec")
    game = importlib.import_module(package + ".abstract_game")
    version = importlib.import_module(package + ".version")
    rules = registry.get(name).rules()
    rng = np.random.default_rng(4)
    table = {}
    actions, key, moves = (np.zeros(64, np.int64), np.zeros(2, np.uint64),
                           np.zeros(rules["MAX_MOVES"], np.int64))
    for seed in range(20):
        state = rules["new_state"]()
        rules["random_deal"](new_rng(seed), state)
        while state[rules["PHASE"]] != rules["PHASE_OVER"]:
            n = game.decision(state, actions, key)
            if n >= 2:
                table[codec.key_text(int(key[0]))] = rng.dirichlet(np.ones(n)).astype(np.float32)
            count = rules["legal_moves"](state, moves)
            rules["apply_move"](state, int(moves[rng.integers(count)]))
    path = str(tmp_path / "s.strategy")
    write_table(path, "baseline", table, game=name, abstraction=version.ABSTRACTION_NAME,
                abstraction_version=version.ABSTRACTION_VERSION)
    db = str(tmp_path / "s.db")
    load_strategies([path], db, progress=False)
    return db, table, codec


@pytest.mark.parametrize("name", GAMES)
def test_the_arrays_hold_the_databases_vectors_and_bad_stores_are_refused(name, tmp_path):
    db, table, codec = _database(name, tmp_path)
    arrays = load_codec_policy_arrays("db:" + db, name, codec)
    assert arrays.game == name and arrays.n_keys == len(table) > 50
    assert np.all(arrays.keys[1:] > arrays.keys[:-1])  # ascending, each once
    by_key = {codec.text_key(text): vector for text, vector in table.items()}
    for i, key in enumerate(arrays.keys):
        vector = arrays.probs[arrays.offsets[i]:arrays.offsets[i + 1]]
        assert np.array_equal(vector, by_key[int(key)])
        assert arrays.best[i] == int(np.argmax(vector))
    with StrategyDatabase(db) as store:
        metadata = dict(store.metadata)
    refusals = {"game": {**metadata, "game": "another"},
                "abstraction": {**metadata, "abstraction_version": 999}}
    for what, changed in refusals.items():
        store = SimpleNamespace(path=db, metadata=changed, n_keys=0)
        with pytest.raises(DatabaseError) as caught:
            codec_arrays_of_store(store, name, codec, progress=False)
        assert "\n" not in str(caught.value) and db in str(caught.value), what
    bad = str(tmp_path / "bad.db")
    shutil.copy(db, bad)
    with sqlite3.connect(bad) as conn:
        conn.execute("INSERT INTO strategy SELECT 'zz-not-a-key', best, probs FROM strategy "
                     "LIMIT 1")
    with pytest.raises(DatabaseError, match="a key is not"):
        load_codec_policy_arrays(bad, name, codec)
    with pytest.raises(DatabaseError, match="no such strategy database"):
        load_codec_policy_arrays("db:" + str(tmp_path / "missing.db"), name, codec)
