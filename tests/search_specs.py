"""What the search players' spec tests share: the malformed `search[OPTIONS]:POLICY` specs
that every game's grammar (`play/search_options.py`) refuses alike, and the check that a
refusal is one line."""

import pytest

BAD_OPTIONS = [
    ("search", "search needs a policy"),
    ("search:", "search needs a policy"),
    ("search[worlds=0]:db:x.db", "worlds= must be > 0"),
    ("search[worlds=many]:db:x.db", "takes a number"),
    ("search[speed=3]:db:x.db", "unknown search option"),
    ("search[rollout=best]:db:x.db", "rollout= takes sample or greedy"),
    ("search[worlds=3:db:x.db", "has no ']'"),
    ("search[belief=exact]:db:x.db", "belief= takes uniform, bids, policy, model:FILE or"),
    ("search[belief=model]:db:x.db", "belief=model names its model file"),
    ("search[belief=policy:x]:db:x.db", "belief= takes uniform, bids, policy"),
    ("search[temper=2]:db:x.db", "temper= must be at most 1"),
    ("search[floor=1]:db:x.db", "floor= must be below 1"),
    ("search[floor=0]:db:x.db", "floor= must be > 0"),
    ("search[evidence=all]:db:x.db", "evidence= takes others or opponents"),
]


def one_line_refusal(error, make, spec: str) -> str:
    """The message of the `error` that `make(spec)` raises, checked to be one line."""
    with pytest.raises(error) as info:
        make(spec)
    assert "\n" not in str(info.value)
    return str(info.value)
