"""`train distill`: the expert-iteration stage of any game that declares it (the registry's
`distill`, a `train.distill.DistillGame`); the stage itself is `train/distill.py`'s.
"""

from __future__ import annotations

import os

from cli.arguments import duration, non_negative_float, non_negative_int, positive_int
from cli.arguments import seed as seed_type
from cli.errors import UserError
from cli.game_words import title
from games import registry  # plain data: imports no game


def register_distill(stages) -> None:
    """Add `train distill`."""
    parser = stages.add_parser(
        "distill", help="search teaches a policy network, round after round",
        description="Expert iteration on a trained baseline run of a game that declares the "
        f"stage ({', '.join(title(g) for g in registry.names(('distill',)))}): rounds of "
        "search self-play (whole games, all four seats searching; round 0's rollouts follow "
        "the base run's table, later rounds' the newest network that beat its teacher, "
        "--gate-pairs, where the game's search can roll out with a network), "
        "the policy network fitted "
        "to search's moves and values on a replay window of the last rounds, each round's "
        "network kept in DIR/nets/. The network sees the seat's whole view (its cards, the "
        "calls, every card played and by whom, the trick, the score), not the table's keys. "
        "Creates the run, or resumes it: the same command after Ctrl-C, kill or a crash goes on "
        "where the last saved chunk of games left off and reaches the same networks bit for "
        f"bit, for any --workers. `{registry.PROGRAM} export --run DIR --out FILE.net` writes the "
        "best network (the newest that passed its gate); play it as net:FILE.net or "
        "search:net:FILE.net. Documentation: "
        "docs/training-distill.md")
    parser.add_argument("--run", required=True, metavar="DIR",
                        help="the distill run directory (created if new, resumed if not)")
    parser.add_argument("--from", dest="base", metavar="BASE_RUN", default=None,
                        help="the baseline run whose table round 0 searches on (required "
                        "for a new run; exported once into DIR); its game is the run's")
    parser.add_argument("--game", choices=registry.names(("distill",)), default=None,
                        help="the game (default: the base run's, or the run's when resuming); "
                        "another is refused")
    parser.add_argument("--for", dest="for_seconds", type=duration, default=None,
                        metavar="DURATION", help="train until the stage's own CPU time (the "
                        "self-play workers' and the fits', not the evaluations') reaches "
                        "DURATION (20s, 90m, 2h); checked after every chunk of games")
    parser.add_argument("--rounds", type=positive_int, default=None, metavar="N",
                        help="train until the run has N rounds (default: one more round, "
                        "unless --for is given)")
    parser.add_argument("--searcher", default=None, metavar="SPEC",
                        help="the self-play searcher's options, search[OPTIONS] without a "
                        "policy (the stage supplies it): worlds=, rollout=, bids=, margin=, "
                        "voids= of search:POLICY (not think=: the data would depend on timing; "
                        "threads=1 unless given). Default search[worlds=50]. A new run only")
    parser.add_argument("--games", type=positive_int, default=None, metavar="N",
                        help="self-play games a round (default 160; a new run only)")
    parser.add_argument("--imitate", type=non_negative_int, default=None, metavar="N",
                        help="before round 0, N games of the base table's self-play recorded "
                        "with the table's probabilities, and the network fitted to them first, "
                        "so that search teaches a network that already plays like the table "
                        "(default 2000, a few CPU-seconds of games; 0: round 0 starts from "
                        "random weights; a new run only)")
    parser.add_argument("--chunk", type=positive_int, default=None, metavar="N",
                        help="games a saved chunk (default 4): what a crash can lose per "
                        "worker, and the --for check's grain (a new run only)")
    parser.add_argument("--window", type=positive_int, default=None, metavar="ROUNDS",
                        help="rounds of data the network is fitted on (default 16: four "
                        "times the data of 4 gave a network +2.6 points stronger against the "
                        "heuristic); older rounds' data are deleted, so the disk used stays "
                        "bounded")
    parser.add_argument("--epochs", type=positive_int, default=None, metavar="N",
                        help="passes over the window a round (default 2)")
    parser.add_argument("--soft", type=non_negative_float, default=None, metavar="T",
                        help="fit each searched decision to a softmax of search's values of "
                        "the legal moves at temperature T deal points, instead of to the one "
                        "move search played (0): moves search finds worth the same are both "
                        "taught, not whichever the sampled worlds favoured (default 0.3; "
                        "bench/distill_fit.py measured +3.8 points against the heuristic over "
                        "0 on the same data; a new run only)")
    parser.add_argument("--refine", default=None, metavar="MARGIN:EXTRA",
                        help="where search's two best moves lie within MARGIN deal points, search "
                        "EXTRA more times on fresh worlds and teach the averaged values (e.g. "
                        "0.25:2: 150 worlds on close decisions at worlds=50, 50 elsewhere): more "
                        "of the teacher's CPU where its choice is a coin toss (default off; a "
                        "new run only)")
    parser.add_argument("--gate-pairs", type=non_negative_int, default=None, metavar="N",
                        help="after each fit, the new network alone plays its teacher alone (the "
                        "policy the round's search rolled out with: the base table, or an earlier "
                        "network) on N duplicate pairs, the same every round; the next round's "
                        "search rolls out with the new network only if it won more than half, "
                        "so the teacher never gets weaker (default 200; 0: always the newest "
                        "network; a new run only)")
    parser.add_argument("--hidden", default=None, metavar="H1xH2",
                        help="the network's two hidden layers (default 128x128; a new run only)")
    parser.add_argument("--seed", type=seed_type, default=None, metavar="S",
                        help="the run's seed (default 0): games, initial weights, shuffles")
    parser.add_argument("--workers", type=positive_int, default=1, metavar="K",
                        help="self-play processes (default 1); the networks do not depend on it")
    parser.add_argument("--eval-every", type=positive_int, default=None, metavar="ROUNDS",
                        help="every ROUNDS rounds, play the round's network alone against "
                        "--eval-against in duplicate games and append a row to DIR/eval.csv")
    parser.add_argument("--eval-games", type=positive_int, default=200, metavar="N",
                        help="duplicate pairs an evaluation (default 200), the same deals "
                        "every time")
    parser.add_argument("--eval-against", default="heuristic", metavar="SPEC",
                        help="the evaluation's opponent (default heuristic)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    parser.set_defaults(func=run_distill)


def _game_of(args) -> str:
    """The run's game: its own when it exists, else --from's, else --game (or the default)."""
    from train.errors import RunError
    from train.run_directory import RunDirectory

    for path in (args.run, args.base):
        if path is not None and os.path.exists(RunDirectory(path).settings_path):
            try:
                return RunDirectory(path).read_settings()["settings"].get(
                    "game", registry.DEFAULT_GAME)
            except (RunError, OSError, ValueError, KeyError):
                break  # `prepare_run` says what is wrong in one line
    return args.game or registry.DEFAULT_GAME


def run_distill(args) -> int:
    """Run `train distill` (train/distill.py, on the game's declaration)."""
    from tqdm import tqdm

    from play.player_spec import make_player
    from play.tournament import tournament_game
    from train.distill import Distill, ensure_base, prepare_run
    from train.run_directory import RunDirectory

    options = {"searcher": args.searcher, "games": args.games, "imitate": args.imitate,
               "chunk": args.chunk, "gate_pairs": args.gate_pairs,
               "window": args.window, "epochs": args.epochs, "hidden": args.hidden,
               "soft": args.soft, "refine": args.refine, "seed": args.seed}
    run_dir = RunDirectory(args.run)
    if args.eval_every is not None:
        game = _game_of(args)
        try:
            make_player(args.eval_against, game=game)
        except tournament_game(game).spec_error as exc:
            raise UserError(f"--eval-against: {exc}") from None
    with run_dir.writer_lock():
        settings = prepare_run(args.run, args.base, options, args.game)
        ensure_base(args.run, settings)
        stage = Distill(args.run, settings, args.workers, not args.no_progress, tqdm.write)
        rounds = args.rounds
        if rounds is None and args.for_seconds is None:
            from train.distill import rounds_done

            rounds = rounds_done(args.run) + 1
        summary = stage.train(rounds, args.for_seconds, args.eval_every, args.eval_games,
                              args.eval_against)
    print(f"distill run {args.run}: {summary['rounds']} rounds, "
          f"{summary['cpu_seconds'] / 60:.2f} CPU-min in the stage (the base run: "
          f"{settings['base_cpu_seconds'] / 60:.2f}); newest network {summary['net']}")
    if summary["stopped"] == "interrupt":
        print("stopped (Ctrl-C or SIGTERM); the chunks of games saved are kept. Run the same "
              "command again to resume.")
        return 130
    return 0
