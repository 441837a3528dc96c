"""SQLite strategy database (a game's database player is in its place, `games/<game>/db/`).

Where each part lives (the data flow: exported strategy files -> database -> play):
- `schema.py`       the tables (metadata, stages, strategy) and the schema version
- `key_kind.py`     which layout a key string is (auction, establish, playout, bootstrap)
- `loader.py`       `db load`: strategy files -> a new database, built atomically and fast
- `database.py`     `StrategyDatabase`: open read-only, check the file, look keys up
- `action_names.py` the names of a key's actions, read back from the key (`db query`)
- `errors.py`       `DatabaseError`, one line per unusable file
- `synthetic.py`    seeded synthetic strategy files for the tests and the benchmark
"""

import numba_cache  # noqa: F401  (first: numba's cache keyed on all sources)
