"""`learn generate|train|evaluate`: Setback's learned auction evaluator (issue 28), the actions
Setback adds to `learn` (its registry entry's `commands`).

generate  label the auction decisions of random deals (both labels: the exact solver's value of
          the true deal per trump, and the deal played out by a card player) -> a data file
train     fit the network (numpy MLP, minibatch Adam, seeded) on one label kind -> a model file
evaluate  a model's error against real outcomes of held-out deals (their played-out labels) and
          against the single-dummy evaluation, and a calibration PNG

The model is used by the bidder `nn:MODEL[,expected][,play=SPEC]`
(games/setback/play/nn_bidder.py) and by a database player's gaps, `db:PATH,gaps=nn:MODEL`.
"""

from __future__ import annotations

from cli.arguments import non_negative_int, positive_int, seed


def register_learn(actions, end_options) -> None:
    """Add Setback's three actions to `learn` (`end_options(parser, action, func)`: what every
    `learn` action ends with)."""
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
    end_options(gen, "generate", run_generate)

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
                         "'sds' (games/setback/play/sds.py's CORRECTION, the default), "
                         "'none', or as 2:0.36,3:0.29,4:0.29")
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
    end_options(tr, "train", run_train)

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
    end_options(ev, "evaluate", run_evaluate)


def _wrap(call):
    """Run `call`, turning the learn modules' file errors into one-line user errors."""
    from cli.errors import UserError
    from play.player_spec import PlayerSpecError
    from games.setback.play.learn_data import DataFileError
    from games.setback.search.learned_evaluator import ModelFileError

    try:
        return call()
    except (DataFileError, ModelFileError, PlayerSpecError) as exc:
        raise UserError(str(exc)) from None


def run_generate(args) -> int:
    """Generate and write a data file."""
    from games.setback.play.learn_data import generate, save_data

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
        from games.setback.play.sds import CORRECTION

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
    from games.setback.play.learn_data import concat, load_data, save_model, train_model

    from cli.arguments import hidden_widths

    hidden = hidden_widths(args.hidden)
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

    from games.setback.play.learn_data import (load_data, real_metrics, sds_comparison,
                                               write_calibration_png)
    from games.setback.search.learned_evaluator import LearnedEvaluator

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
