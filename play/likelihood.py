"""The one likelihood of a world (`search/likelihood.py`) as the players call it: the game's
hooks resolved once a process to the function addresses that keep the kernel in numba's cache.

A game declares its hooks in its public module (`games/<game>/public.py`: `start_of_hand`,
`in_auction`, and `unweighed_move` where a move is replayed without weighing) beside its rules'
`apply_move`; the abstract game's `current_player` and `decision` are the addresses its rollout
search already holds (`RolloutSearch.functions`).
"""

from __future__ import annotations

ALL_SEATS = 0b1111  # `belief=bids` weighs every seat's bids (the acting seat's: the same term)

_HOOKS: dict = {}  # the hooks of each game's public module, resolved once a process


def likelihood_hooks(public, apply_move) -> tuple:
    """The hooks `search.likelihood.log_weights` is driven by, as function addresses
    (`cfr.game.FunctionAddress`): the game's `start_of_hand`, `apply_move` (its rules'),
    `in_auction` and `unweighed_move` (its public module's, `search.likelihood.always_weighed`
    where it declares none)."""
    if public.__name__ not in _HOOKS:
        from cfr.game import FunctionAddress
        from search.likelihood import HOOK_TYPES, always_weighed

        functions = (public.start_of_hand, apply_move, public.in_auction,
                     getattr(public, "unweighed_move", always_weighed))
        _HOOKS[public.__name__] = tuple(FunctionAddress(f, t)
                                        for f, t in zip(functions, HOOK_TYPES))
    return _HOOKS[public.__name__]


def world_log_weights(public, apply_move, to_act, functions, kind, worlds, played_by, history,
                      modelled, table, floor, out, first=0, stop=None) -> None:
    """Each world's log-likelihood (`search.likelihood`: `kind` `BIDS` or `POLICY`) of the
    moves `history` (int64) into `out[first:stop]` (every row by default): the game's `public`
    module and `apply_move`, its state field `to_act` of the seat to act, `functions` the
    abstract game's `current_player` and `decision` addresses, `played_by` the cards each seat
    played (`public.replay_public`), `modelled` the seats weighed (bit s: seat s), `table` the
    blueprint's arrays (`keys`, `offsets`, `probs`), a probability below `floor` counting as
    `floor`."""
    from search.likelihood import log_weights

    current_player, decision = functions[:2]
    log_weights(*likelihood_hooks(public, apply_move), current_player, decision, kind, worlds,
                first, worlds.shape[0] if stop is None else stop, played_by, history,
                history.size, modelled, to_act, table.keys, table.offsets, table.probs, floor,
                out)
