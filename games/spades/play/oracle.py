"""Spades' pieces of the one `oracle` (`play/trick_oracle.py`: it SEES EVERY HAND, a ceiling for
tournaments and ratings), beyond its card play's declaration (`games.spades.trick_play`).

When the score follows from the tricks the team takes (no Nil bid standing, no bag penalty
within reach: most hands), the solver counts tricks; otherwise it searches the score itself,
its transposition table keyed on what can still change the score and every trick's start
bounded by the tricks each side can take (`search.capture_values`). Both are exact from the
first trick. A score search that would pass `NODE_LIMIT` nodes (a count, so the same on any
machine) is a safety net's case: the oracle is then exact once `EXACT_TRICKS` (7) tricks or
fewer remain, and before, each candidate card is followed by the heuristic at every seat (its
numba twin, `games.spades.search.policy`) until 7 tricks remain, and the rest is solved
exactly. The spec is `oracle[,bid=SPEC]` or `oracle:SPEC` (SPEC any Spades player but an
oracle; by default the heuristic).
"""

from __future__ import annotations

import numpy as np

EXACT_TRICKS = 7  # always exact from this many tricks left (docstring)
NODE_LIMIT = 40_000_000  # nodes a score search may take (some seconds) before the safety net


def play_on(state: np.ndarray, horizon: int) -> tuple[np.ndarray, list]:
    """(the legal cards of `state` ascending, the state after each with the heuristic playing
    every seat on until `horizon` tricks remain)."""
    from games.spades.rules import apply_card, legal_cards
    from games.spades.search.policy import play_heuristic

    legal = int(legal_cards(state))
    cards = np.array([c for c in range(52) if legal >> c & 1], dtype=np.int64)
    children = []
    for card in cards:
        child = np.array(state, dtype=np.int64)
        apply_card(child, int(card))
        play_heuristic(child, int(horizon))
        children.append(child)
    return cards, children


# the options of Spades' oracle (`play.trick_oracle.make_trick_oracle_player`): `oracle:SPEC`
# too, exact from the first trick within NODE_LIMIT nodes, else from EXACT_TRICKS left
OPTIONS = {"colon": True, "exact_tricks": EXACT_TRICKS, "node_limit": NODE_LIMIT,
           "play_on": play_on}
