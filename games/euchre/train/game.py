"""The abstract Euchre game bound for the CFR core (`cfr.game.Game`), and its baseline stage,
as every plug-in game's (`train.game_plugin.plugin_baseline`): two CFR players (the teams), one
seeded random hand per iteration (chance sampled), the hand's points as the payoff (team 0's
minus team 1's, team 0 the dealer's), float32 tables, es-mccfr by default; the settings record
`game: euchre` and the abstraction's name and version, so a run is never resumed under another.
"""

from train.game_plugin import plugin_baseline

GAME, euchre_baseline_stage = plugin_baseline("euchre")
