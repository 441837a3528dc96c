"""The Setback abstraction of `../shared/spec/abstraction.md`: info-set keys and abstract actions.

Where each part lives (the data flow of one decision):
- `card_masks.py`    rank and game-point masks over the 52-bit card masks
- `suits.py`         suit strength and the top suits (auction and first lead)
- `hand_code.py`     the 12-character hand code (two 11-bit field codes)
- `auction_key.py`   baseline auction key and actions (the Four filter)
- `bootstrap_key.py` score-aware auction key
- `establish.py`     the high bidder's first lead: E0/E1 and the card chosen in the suit
- `trumps.py`        my lowest dealt trump, the lowest trump played (lowT)
- `lead_actions.py`, `follow_actions.py`  playout abstract actions, canonical order, cards
- `playout_key.py`   the 24-character playout key (positions 0-11)
- `key_layout.py`    the bit layout of the uint64 keys (documented once)
- `decision.py`      one kernel for any state: abstract actions, their tokens and the key
- `abstract_game.py` abstract Setback as the six numba functions of the CFR game interface
- `codec.py`         uint64 key <-> the spec's string, lossless (edges only: db, tests, debug)
- `describe.py`      the Python face for `replay`: key, actions and bootstrap key as text

Nothing here builds strings inside numba code: kernels produce bit-packed keys and the codec
turns them into text at the edges.
"""
