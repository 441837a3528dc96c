"""Game-agnostic numba CFR: info-set table, regret matching, traversal, checkpoints.

Where things live:
- `game.py`          the game interface (six numba functions over an int64 state) and `Game`
- `binding.py`       an abstract game module bound into its `Game` (the caller hands the module
                     in; no game imported), for the trainer and the search players alike
- `table.py`         the open-addressing info-set table (regret and strategy sums)
- `regret_matching.py`  current strategy from regrets; average strategy
- `walk.py`          the frame stack's steps every pass below builds on (numba, inlined)
- `traversal.py`     one CFR pass through the game interface, frozen table -> increment log
- `episode_pass.py`  the trainer's pass: one sampled episode, its repeated info sets summed
                     into one log entry per key (episode map), stoppable from outside
- `increment_log.py` the log of a pass and the merge that applies logs to the table in order
- `tree.py`, `tree_pass.py`  a small game's tree precomputed once, and the same pass over it
- `variants.py`      CFR, CFR+, linear and discounted CFR as flags and two small kernels
- `external_sampling.py`  external-sampling MCCFR (linear weighting, negative-regret pruning):
                     one pass per word against a frozen table -> increment log
- `threaded_pass.py` the reference's in-walk ("threaded table") CFR pass, updating in place
- `solver.py`        iterations: passes, merges, variant steps; checkpoint save / resume
- `best_response.py`, `exploitability.py`  exact best response, NashConv / 2, game value
- `checkpoint.py`    the msgpack checkpoint format;  `rng.py` counter-based random words
- `errors.py`        `CfrFileError` (bad checkpoint file), `TableFullError` (memory cap)
"""

import numba_cache  # noqa: F401  (first: numba's cache keyed on all sources)
