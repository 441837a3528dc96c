"""Strength while training a Euchre baseline (`train baseline --game euchre --eval-every`).

What `train.evaluation.Evaluation` does for Setback, for Euchre: at the due batch boundaries
the run's current average strategy is played straight from the table in memory (no export, no
database): a `TableStore` over the live table, read with the Euchre codec
(`games/euchre/abstraction/codec.py`: key text <-> the one-word key the table holds), gives
`db.plugin_player.PluginDatabasePlayer` exactly the probabilities and best actions `export`
then `db load` would store; a key the table lacks plays the Euchre heuristic's move, as the
database player does. The games are duplicate games to 10 (`games.euchre.play.tournament.play_unit`:
pair k is game k of the Euchre tournament of the evaluation seed, the evaluated player on
East-West first) against `--eval-against` (a Euchre player spec: random, heuristic, db:PATH,
ismcts[:SIMS]; default heuristic). The rows of `eval.csv` are Setback's, column for column
(the win rate of games with its interval by pair, as `tournament --game euchre --duplicate`),
so `train status` reads and plots them unchanged.
"""

from __future__ import annotations

import os

import numpy as np

from train.errors import RunError
from train.evaluation import Evaluation, TableStore


def make_euchre_opponent(spec: str, seed: int = 0):
    """The Euchre opponent player of SPEC, a bad spec refused in one line (`RunError`)."""
    from games.euchre.play.tournament import EuchreSpecError, make_euchre_player

    try:
        return make_euchre_player(spec, seed)
    except EuchreSpecError as exc:
        raise RunError(f"--eval-against: {exc}") from None


class EuchreEvaluation(Evaluation):
    """The evaluations of a Euchre baseline run (module docstring); the grid, the rows and the
    eval log are `Evaluation`'s."""

    def _prepare(self) -> None:
        """Check the run's abstraction against this program's and the opponent's spec before
        training."""
        from games.euchre.abstraction.version import ABSTRACTION_NAME, ABSTRACTION_VERSION

        settings = self.stage.settings
        recorded = (settings.get("abstraction"), settings.get("abstraction_version"))
        if recorded != (ABSTRACTION_NAME, ABSTRACTION_VERSION):
            raise RunError(f"evaluation: the run's abstraction {recorded[0]} version "
                           f"{recorded[1]} is not this program's ({ABSTRACTION_NAME} "
                           f"version {ABSTRACTION_VERSION})")
        self.layout = None
        self._base = None
        self.opponent(0)  # a bad spec fails now, not after an hour of training

    def opponent(self, seed: int):
        """The Euchre opponent (`--eval-against`), seeded."""
        return make_euchre_opponent(self.options.against, seed)

    def player(self, table):
        """The Euchre database player over the live `table`, and the table's store."""
        from games.euchre.abstraction.codec import text_key
        from games.euchre.abstraction.version import ABSTRACTION_NAME, ABSTRACTION_VERSION
        from db.plugin_player import PluginDatabasePlayer

        label = f"live:{os.path.basename(os.path.normpath(self.run_path))}"
        live = TableStore(table, label, text_key=text_key,
                          metadata={"game": "euchre", "abstraction": ABSTRACTION_NAME,
                                    "abstraction_version": ABSTRACTION_VERSION})
        return PluginDatabasePlayer(live, name=label, game="euchre"), live

    def play_pair(self, players, game: int) -> list:
        """Both games to 10 of duplicate pair `game`: their rows (WON, HANDS, POINTS_A,
        POINTS_B)."""
        from games.euchre.play.tournament import play_unit

        return [play_unit(players, self.seed, game, False, False),
                play_unit(players, self.seed, game, True, False)]

    def win_rate(self, rows: list) -> tuple[float, float, float]:
        """The win rate of games to 10 over the pairs and its 95 % interval (by pair)."""
        from play.tournament import WON, pair_interval

        won = np.array(rows, dtype=np.float64)[:, WON]
        return pair_interval(won.reshape(-1, 2).mean(axis=1))
