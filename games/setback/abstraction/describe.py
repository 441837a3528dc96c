"""The Python face of the abstraction for `replay`: one decision's key and actions as text.

abstraction.md: the baseline key (None when the move is forced), the abstract actions in
canonical order with the concrete move each plays, and, during the auction when the game
score is given, the bootstrap key.
"""

from __future__ import annotations

import numpy as np

from games.setback.abstraction.auction_key import BID_TOKENS
from games.setback.abstraction.bootstrap_key import bootstrap_actions, bootstrap_key
from games.setback.abstraction.codec import action_tokens, key_text
from games.setback.abstraction.decision import SIT_BID, SIT_ESTABLISH, SIT_FOLLOW, abstract_decision
from games.setback.abstraction.establish import ESTABLISH_TOKENS
from games.setback.cards import TEAM_NAMES, format_card
from games.setback.rules import BID_MOVE
from games.setback.state import PHASE, PHASE_AUCTION, PHASE_PLAY, TO_ACT

_MOVES = 8


def move_text(move: int) -> str:
    """A move as text: a card (`7S`) or a bid (`P`, `2`, `3`, `4`)."""
    move = int(move)
    return BID_TOKENS[move - BID_MOVE] if move >= BID_MOVE else format_card(move)


def decision_tokens(situation: int, tokens: int) -> list[str]:
    """The action names of a token mask in canonical order (`P`/`2`, `E0`, `Tx`, `l0`, ...)."""
    if situation == SIT_BID:
        return [BID_TOKENS[b] for b in range(5) if tokens >> b & 1]
    if situation == SIT_ESTABLISH:
        return [ESTABLISH_TOKENS[i] for i in range(2) if tokens >> i & 1]
    return action_tokens(situation == SIT_FOLLOW, tokens)


def team_scores(score: dict, dealer: int, seat: int) -> tuple[int, int]:
    """(us, them): the game scores of `seat`'s team and the other, from {"EW": a, "NS": b}."""
    ours = TEAM_NAMES[(dealer + seat) % 2]
    theirs = TEAM_NAMES[(dealer + seat + 1) % 2]
    return int(score[ours]), int(score[theirs])


def describe_decision(state: np.ndarray, score: dict | None = None, dealer: int = 0,
                      layout: str = "reference") -> dict:
    """`{"key", "actions", ["bootstrap_key"]}` for the seat to act in `state` (abstraction.md).

    `key`: the baseline key string, None when the move is forced (one abstract action).
    `actions`: `[{"action": "Tx", "move": "7S"}, ...]` in canonical order (bids: action and
    move both `P`, `2`, `3`, `4`). `bootstrap_key`: only in the auction and only when `score`
    (absolute game scores {"EW": a, "NS": b}) is given; `dealer` (0..3 = W N E S) maps the
    teams; None when the bidder has a single legal bid (no key exists then). `layout`: the
    key layout of the baseline key (a name of `layouts.py`; the actions and the bootstrap key
    are the same in every layout).
    """
    from games.setback.abstraction import layouts

    module = layouts.load(layout)
    state = np.ascontiguousarray(state, dtype=np.int64)
    phase = int(state[PHASE])
    if phase not in (PHASE_AUCTION, PHASE_PLAY):
        raise ValueError("the deal is over: there is no decision to describe")
    moves = np.zeros(_MOVES, dtype=np.int64)
    n, situation, tokens, key = module.abstract_decision(state, moves)
    names = decision_tokens(int(situation), int(tokens))
    out = {
        "key": module.key_text(int(key)) if n >= 2 else None,
        "actions": [{"action": names[i], "move": move_text(moves[i])} for i in range(int(n))],
    }
    if phase == PHASE_AUCTION and score is not None:
        us, them = team_scores(score, int(dealer), int(state[TO_ACT]))
        n_bids, _ = bootstrap_actions(state, moves)
        out["bootstrap_key"] = key_text(int(bootstrap_key(state, us, them))) if n_bids >= 2 else None
    return out
