"""Which of Setback's key layouts a command shows or counts (`--abstraction` of `setback-cfr
replay` and `census`, found by the registry's `declaration(game, "abstraction.key_choice")`):
the layouts' names and the default, and the replay's describer, which gives every decision the
baseline info-set `key` of the chosen layout and its abstract `actions`, and with a `score` in
the input its score-aware `bootstrap_key`. Importing it loads only the layouts' names (plain
data)."""

from __future__ import annotations

from games.setback.abstraction import layouts
from games.setback.errors import SetbackError

MAX_SCORE = 10**9  # far beyond any real game; keeps the scores inside the key builder's int64
DEFAULT_LAYOUT = layouts.DEFAULT  # "reference", the spec's


def layout_names() -> tuple:
    """The key layouts a replay can show (`train --abstraction NAME`'s)."""
    return tuple(layouts.names())


def describer(spec, layout: str = DEFAULT_LAYOUT):
    """The replay hook adding the abstraction's `key`, `actions` and (with a `score` in the
    input) `bootstrap_key` to every decision; a bad score is a `SetbackError`."""
    from games.setback.abstraction.describe import describe_decision

    score = spec.get("score") if isinstance(spec, dict) else None
    if score is not None:
        if (not isinstance(score, dict) or set(score) != {"EW", "NS"}
                or not all(isinstance(v, int) and not isinstance(v, bool)
                           and abs(v) <= MAX_SCORE for v in score.values())):
            raise SetbackError('"score" must look like {"EW": 3, "NS": -2} (integers within '
                               '+-1,000,000,000)')

    def describe(deal, _spec) -> dict:
        """The decision's key, actions and bootstrap key (`describe_decision`)."""
        return describe_decision(deal.state, score, deal.dealer, layout)

    return describe
