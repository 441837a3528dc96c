"""`setback-cfr learn generate|train|evaluate`: the learned auction evaluator (issue 28).

generate  label the auction decisions of random deals (both labels: the exact solver's value of
          the true deal per trump, and the deal played out by a card player) -> a data file
train     fit the network (numpy MLP, minibatch Adam, seeded) on one label kind -> a model file
evaluate  a model's error against real outcomes of held-out deals (their played-out labels) and
          against the single-dummy evaluation, and a calibration PNG

The model is used by the bidder `nn:MODEL[,expected][,play=SPEC]` (play/nn_bidder.py) and by a
database player's gaps, `db:PATH,gaps=nn:MODEL`.

Example (the figures in docs/search/learned-bidder.md come from these):
  setback-cfr learn generate --deals 12000 --seed 1 --auction db:qA.db --out train.npz
  setback-cfr learn generate --deals 600 --seed 2 --auction db:qA.db --play db:qA.db -o h.npz
  setback-cfr learn train --data train.npz --labels solver --out solver.nn
  setback-cfr learn evaluate --model solver.nn --model playout.nn --data heldout.npz --png cal.png
"""

from __future__ import annotations

from cli.arguments import add_command, add_game_option, non_negative_int, positive_int, seed


def register(subparsers) -> None:
    """Add the `learn` subcommand and its three actions."""
    parser = add_command(subparsers, "learn",
                         "the learned auction evaluator: generate data, train, evaluate", __doc__)
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True

    gen = actions.add_parser("generate", help="label auction decisions of random deals",
                             description="Deal i of --seed is bid seat by seat by --auction; "
                             "every decision with two or more legal bids is labelled for each "
                             "legal bid and held trump: the exact solver's value of the true "
                             "deal (the auction finished by --auction) and the deal played out "
                             "by --play at every seat.")
    gen.add_argument("--deals", type=positive_int, required=True, metavar="N",
                     help="random deals to label (about 3 decisions each)")
    gen.add_argument("--seed", type=seed, default=0, metavar="S",
                     help="seed of the deals (default 0); the same seed gives the same file")
    gen.add_argument("--first", type=non_negative_int, default=0, metavar="I",
                     help="index of the first deal of the seed's stream (default 0): several "
                          "runs with disjoint ranges make disjoint data")
    gen.add_argument("--auction", default="heuristic", metavar="PLAYER",
                     help="who bids the other seats and pitches their contracts (default "
                          "heuristic; db:PATH bids like a strategy database)")
    gen.add_argument("--play", default="heuristic", metavar="PLAYER",
                     help="the card player of the played-out labels (default heuristic)")
    gen.add_argument("--no-solver", action="store_true",
                     help="played-out labels only (about twice as fast; such data trains "
                          "only with `learn train --labels playout`)")
    gen.add_argument("--out", "-o", required=True, metavar="FILE", help="the data file (.npz)")
    _end_options(gen, "generate", run_generate)

    tr = actions.add_parser("train", help="train the network on a data file",
                            description="Minibatch Adam on the masked cross-entropy of the "
                            "outcome distributions (search/mlp.py); the last --validation "
                            "share of the deals is held out for the loss shown.")
    tr.add_argument("--data", required=True, action="append", metavar="FILE",
                    help="a data file of `learn generate` (repeat to use several)")
    tr.add_argument("--labels", choices=("solver", "playout"), default="solver",
                    help="solver: exact values of the true deal with the perfect-information "
                         "correction; playout: the deals as played by the data's card player "
                         "(default solver)")
    tr.add_argument("--correction", default="sds", metavar="Q",
                    help="with --labels solver: the point-loss correction per bid level, "
                         "'sds' (play/sds.py's CORRECTION, the default), 'none', or as "
                         "2:0.36,3:0.29,4:0.29")
    tr.add_argument("--hidden", default="256,256", metavar="H1,H2",
                    help="the two hidden layers' widths (default 256,256)")
    tr.add_argument("--epochs", type=positive_int, default=20, metavar="E",
                    help="passes over the data (default 20)")
    tr.add_argument("--batch", type=positive_int, default=256, metavar="B",
                    help="minibatch rows (default 256)")
    tr.add_argument("--lr", type=float, default=1e-3, metavar="LR",
                    help="Adam's learning rate (default 0.001)")
    tr.add_argument("--validation", type=float, default=0.1, metavar="F",
                    help="share of the deals held out for the validation loss (default 0.1)")
    tr.add_argument("--seed", type=seed, default=0, metavar="S",
                    help="seed of the initial weights and the batch order (default 0)")
    tr.add_argument("--out", required=True, metavar="FILE", help="the model file to write")
    _end_options(tr, "train", run_train)

    ev = actions.add_parser("evaluate", help="a model's error on held-out deals",
                            description="Error against the real outcomes of a held-out data "
                            "file (its played-out labels; generate it with another --seed) "
                            "and, on its first --sds-samples decisions, against the "
                            "single-dummy evaluation sds:W.")
    ev.add_argument("--model", required=True, action="append", metavar="FILE",
                    help="a model file (repeat to compare several)")
    ev.add_argument("--data", required=True, metavar="FILE", help="the held-out data file")
    ev.add_argument("--sds-samples", type=non_negative_int, default=0, metavar="N",
                    help="decisions also judged by single dummy (about 1 s each; default 0)")
    ev.add_argument("--sds-worlds", type=positive_int, default=20, metavar="W",
                    help="single-dummy worlds per decision (default 20)")
    ev.add_argument("--seed", type=seed, default=0, metavar="S",
                    help="seed of the single-dummy sampler (default 0)")
    ev.add_argument("--png", metavar="FILE", help="write the calibration picture here")
    ev.add_argument("--json", action="store_true", help="print the figures as JSON")
    _end_options(ev, "evaluate", run_evaluate)


def _wrap(call):
    """Run `call`, turning the learn modules' file errors into one-line user errors."""
    from cli.errors import UserError
    from play.player_spec import PlayerSpecError
    from play.learn_data import DataFileError
    from search.learned_evaluator import ModelFileError

    try:
        return call()
    except (DataFileError, ModelFileError, PlayerSpecError) as exc:
        raise UserError(str(exc)) from None


def _end_options(parser, action: str, func) -> None:
    """What every `learn` action ends with: --no-progress, its function, and --game (Setback
    only)."""
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.set_defaults(func=func)
    add_game_option(parser, f"learn {action}", reason="the learned evaluator of Setback's auction")


def run_generate(args) -> int:
    """Generate and write a data file."""
    from play.learn_data import generate, save_data

    def go():
        data = generate(args.deals, args.seed, args.auction, args.play,
                        progress=not args.no_progress, first=args.first,
                        solver=not args.no_solver)
        save_data(data, args.out)
        print(f"{data['hand'].shape[0]:,} decisions of {args.deals:,} deals -> {args.out}")
        return 0

    return _wrap(go)


def parse_correction(text: str) -> dict:
    """The --correction option as {level: q}."""
    from cli.errors import UserError

    text = text.strip().lower()
    if text == "sds":
        from play.sds import CORRECTION

        return dict(CORRECTION)
    if text == "none":
        return {}
    out = {}
    for part in text.split(","):
        level, _, q = part.partition(":")
        try:
            lv, p = int(level), float(q)
        except ValueError:
            raise UserError(f"--correction {text!r}: expected sds, none or 2:0.36,3:0.29,"
                            "4:0.29") from None
        if lv not in (2, 3, 4) or not 0.0 <= p <= 1.0:
            raise UserError(f"--correction {text!r}: levels 2..4, probabilities in [0, 1]")
        out[lv] = p
    return out


def run_train(args) -> int:
    """Train and write a model file."""
    from cli.errors import UserError
    from play.learn_data import concat, load_data, save_model, train_model

    try:
        hidden = tuple(int(h) for h in args.hidden.split(","))
        if len(hidden) != 2 or min(hidden) < 1:
            raise ValueError
    except ValueError:
        raise UserError(f"--hidden {args.hidden!r}: two positive widths, as 256,256") from None
    if not 0.0 <= args.validation < 1.0:
        raise UserError("--validation must be in [0, 1)")
    if not args.lr > 0:
        raise UserError("--lr must be positive")
    correction = parse_correction(args.correction)

    def go():
        data = concat([load_data(p) for p in args.data])
        model, meta, history = train_model(data, args.labels, correction, hidden, args.epochs,
                                           args.batch, args.lr, args.seed, args.validation,
                                           progress=not args.no_progress)
        save_model(model, args.out, meta)
        val = history[-1][1]
        print(f"{meta['rows']:,} rows, {args.epochs} epochs: loss {history[-1][0]:.4f}"
              + ("" if val is None else f", validation {val:.4f}") + f" -> {args.out}")
        return 0

    return _wrap(go)


def run_evaluate(args) -> int:
    """Print the held-out figures (and write the PNG)."""
    import json
    import os

    from play.learn_data import (load_data, real_metrics, sds_comparison,
                                   write_calibration_png)
    from search.learned_evaluator import LearnedEvaluator

    def go():
        data = load_data(args.data)
        evaluators = {os.path.basename(p): LearnedEvaluator.load(p) for p in args.model}
        metrics = {name: real_metrics(e.model, data) for name, e in evaluators.items()}
        report = {"data": args.data, "decisions": int(data["hand"].shape[0]), "models": {}}
        for name, m in metrics.items():
            report["models"][name] = {
                "labels": evaluators[name].meta.get("labels"),
                **{kind: {k: v for k, v in m[kind].items()
                          if not hasattr(v, "shape")} for kind in m}}
        if args.sds_samples:
            auction = json.loads(str(data["meta"])).get("auction", "heuristic")
            report["single_dummy"] = sds_comparison(evaluators, data, args.sds_samples,
                                                    args.sds_worlds, args.seed, auction,
                                                    progress=not args.no_progress)
        if args.png:
            write_calibration_png(metrics, args.png)
            report["png"] = args.png
        if args.json:
            print(json.dumps(report, indent=1))
            return 0
        print(f"{args.data}: {report['decisions']:,} held-out decisions (real outcome: the "
              "data's played-out labels)")
        for name, r in report["models"].items():
            o, w = r["options"], r["own"]
            print(f"  {name} ({r['labels']} labels): bid options: log-loss {o['log_loss']:.3f}, "
                  f"deal score bias {o['bias']:+.3f}, MSE {o['mse']:.3f} ({o['n']:,} cells); "
                  f"own contract: MSE {w['mse']:.3f}, bias {w['bias']:+.3f}, made predicted "
                  f"{w['pred_made']:.3f} real {w['real_made']:.3f}, Brier {w['brier']:.4f}")
        sd = report.get("single_dummy")
        if sd:
            print(f"  single dummy sds:{sd['worlds']} on {sd['decisions']} decisions "
                  f"({sd['cells']} bid x trump cells, p50 {1000 * sd['sds_seconds_p50']:.0f} "
                  f"ms a decision): MSE vs real {sd['sds_mse_real']:.3f}, bias "
                  f"{sd['sds_bias_real']:+.3f}")
            for name, r in sd["models"].items():
                print(f"    {name}: mean |nn - sds| {r['mae_vs_sds']:.3f}, correlation "
                      f"{r['corr_vs_sds']:.3f}; MSE vs real {r['mse_real']:.3f}, bias "
                      f"{r['bias_real']:+.3f}")
        if args.png:
            print(f"  calibration picture: {args.png}")
        return 0

    return _wrap(go)
