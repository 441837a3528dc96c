"""The `reference` layout: the spec's keys (`../shared/spec/abstraction.md`), character for
character, as the layout interface of `layouts.py`.

Nothing is defined here: the kernels and the codec are the modules that have always built the
reference keys (`decision.py`, `abstract_game.py`, `codec.py`), named under the interface every
layout supplies, so choosing `reference` runs exactly the code it always ran.

| kind | key | spec section |
|--|--|--|
| auction | `0AJx2` | Baseline auction key |
| establish | `E3AJx2` | First lead: establishing trump |
| playout | `Hx.+0.......TxT2TJS.W` | Playout key (positions 0-11, then the actions) |
"""

from __future__ import annotations

from games.setback.abstraction.abstract_game import decision
from games.setback.abstraction.codec import key_text, text_key, text_keys
from games.setback.abstraction.decision import abstract_decision
from games.setback.abstraction.layouts import LAYOUTS

LAYOUT = LAYOUTS["reference"]
__all__ = ["LAYOUT", "abstract_decision", "decision", "key_text", "text_key", "text_keys"]
