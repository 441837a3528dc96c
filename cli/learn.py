"""`setback-cfr learn generate|train|evaluate|belief`: the learned auction evaluator (issue 28)
and the learned card-location model (issue 47).

generate  label the auction decisions of random deals (both labels: the exact solver's value of
          the true deal per trump, and the deal played out by a card player) -> a data file
train     fit the network (numpy MLP, minibatch Adam, seeded) on one label kind -> a model file
evaluate  a model's error against real outcomes of held-out deals (their played-out labels) and
          against the single-dummy evaluation, and a calibration PNG
belief    the card-location model (search/card_location.py) of Setback or Euchre (--game):
          positions of games of a population of players, a network trained on them with a
          held-out set, resumable -> a model file and its learning curve
          (docs/search/beliefs.md)

The model is used by the bidder `nn:MODEL[,expected][,play=SPEC]`
(games/setback/play/nn_bidder.py) and by a database player's gaps, `db:PATH,gaps=nn:MODEL`.

Example (the figures in docs/search/learned-bidder.md come from these):
  setback-cfr learn generate --deals 12000 --seed 1 --auction db:qA.db --out train.npz
  setback-cfr learn generate --deals 600 --seed 2 --auction db:qA.db --play db:qA.db -o h.npz
  setback-cfr learn train --data train.npz --labels solver --out solver.nn
  setback-cfr learn evaluate --model solver.nn --model playout.nn --data heldout.npz --png cal.png
  setback-cfr learn belief --players db:qA.db,heuristic --games 2000 --for 10m --out belief.model
  setback-cfr learn belief --game euchre --players heuristic,db:e.db --for 10m --out e.model
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
    _register_belief(actions)


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


def _end_options(parser, action: str, func) -> None:
    """What every `learn` action ends with: --no-progress, its function, and --game (the games
    whose words declare `learn ACTION` theirs)."""
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.set_defaults(func=func)
    add_game_option(parser, f"learn {action}")


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


def hidden_widths(text: str) -> tuple[int, int]:
    """The two hidden layers' widths of `--hidden H1,H2`; UserError (one line) otherwise."""
    from cli.errors import UserError

    try:
        hidden = tuple(int(h) for h in text.split(","))
        if len(hidden) != 2 or min(hidden) < 1:
            raise ValueError
    except ValueError:
        raise UserError(f"--hidden {text!r}: two positive widths, as 256,256") from None
    return hidden


def run_train(args) -> int:
    """Train and write a model file."""
    from cli.errors import UserError
    from games.setback.play.learn_data import concat, load_data, save_model, train_model

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


# --- learn belief: the card-location model ------------------------------------------------
BELIEF_DESCRIPTION = """\
Train the card-location model (search/card_location.py) of --game (Setback or Euchre): for
every card a seat cannot see, the probability that each other seat holds it, or that nobody
does (Setback: never dealt; Euchre: the kitty), given the seat's whole view (its hand, the bids
or calls in order, every card played and by whom, the tricks' winners, the score).

1. Data: --games games (Setback to 11, Euchre to 10) between the players of --players (the
   game's tournament players; every ordered pairing equally often, self-play included); every
   decision of every seat is one position, labelled with the true holder of each hidden card.
   Written in chunks of --chunk games to FILE.run/.
2. A share --heldout of the deals (chosen by --seed) is held out whole; uniform's log-loss on
   it (the exact marginals of a layout drawn uniformly among those consistent with the hand
   sizes and voids) is the line to beat.
3. Training: minibatch Adam on the log-loss of the true holders, each card's softmax over the
   holders the hard facts allow, until --epochs or the --for budget; after every epoch a
   checkpoint (FILE.run/checkpoint.npz), the model file (the epoch with the lowest held-out
   loss so far) and the learning curve (FILE's name with -curve.png).

Interrupt it (Ctrl-C) and rerun the same command: finished chunks are kept and training
continues from the last epoch's checkpoint, bit for bit as if never stopped. Options that
change the result (players, games, seed, held-out share, network, batch, rate, weight decay,
chunk) must match the run's; --for and --epochs may grow."""


def _register_belief(actions) -> None:
    """The `learn belief` action."""
    from cli.arguments import duration, positive_float, unit_interval

    bel = actions.add_parser("belief", help="train the card-location model (who holds each "
                             "hidden card) on games of a population of players",
                             description=BELIEF_DESCRIPTION,
                             formatter_class=__import__("argparse").RawDescriptionHelpFormatter)
    bel.add_argument("--players", required=True, metavar="SPEC[,SPEC...]",
                     help="the population whose games make the data, comma-separated player "
                          "specs of the game's tournament (Setback: db:PATH, search:db:PATH, "
                          "heuristic, random, ...; Euchre: heuristic, db:PATH, "
                          "search[OPTIONS]:db:PATH, ismcts, random); a piece naming no player "
                          "kind continues the spec before it, so db:a.db,bid=heuristic stays "
                          "one player")
    bel.add_argument("--out", "-o", required=True, metavar="FILE",
                     help="the model file to write (its run directory FILE.run/ and the "
                          "learning curve go beside it)")
    bel.add_argument("--games", type=positive_int, default=2000, metavar="N",
                     help="games to generate (default 2000; a Setback game to 11 gives about "
                          "140 positions, a Euchre game to 10 about 300)")
    bel.add_argument("--for", dest="budget", type=duration, metavar="DURATION",
                     help="training budget in CPU time of this process, over all reruns "
                          "(20s, 10m, 2h; data generation not counted); without it, "
                          "--epochs alone ends training")
    bel.add_argument("--epochs", type=positive_int, default=10, metavar="E",
                     help="passes over the training positions, at most (default 10; the "
                          "model file keeps the epoch with the lowest held-out loss)")
    bel.add_argument("--seed", type=seed, default=0, metavar="S",
                     help="seed of the games, the held-out split, the initial weights and the "
                          "batch order (default 0): the same command gives the same model")
    bel.add_argument("--heldout", type=unit_interval, default=0.1, metavar="F",
                     help="share of the deals held out to measure the model (default 0.1)")
    bel.add_argument("--hidden", default="256,256", metavar="H1,H2",
                     help="the two hidden layers' widths (default 256,256)")
    bel.add_argument("--batch", type=positive_int, default=256, metavar="B",
                     help="positions a minibatch (default 256)")
    bel.add_argument("--lr", type=positive_float, default=1e-3, metavar="LR",
                     help="Adam's learning rate (default 0.001)")
    bel.add_argument("--weight-decay", type=non_negative_float, default=0.0, metavar="W",
                     help="L2 weight decay on the weight matrices (default 0)")
    bel.add_argument("--fit", type=non_negative_int, default=None, metavar="K",
                     help="iterations fitting each seat's expected hidden cards to the number "
                          "it holds, after the facts (search/card_location.py "
                          "fit_marginals); default: 20 if that lowers the held-out loss, "
                          "else 0 (measured at the end)")
    bel.add_argument("--chunk", type=positive_int, default=100, metavar="G",
                     help="games a data chunk (default 100): the unit an interrupted "
                          "generation keeps")
    _end_options(bel, "belief", run_belief)


def non_negative_float(text: str) -> float:
    """A float >= 0 (argparse type)."""
    import argparse
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more: {text}")
    return value


# Tests set this to a function(epochs done) -> bool to interrupt a run after an epoch.
_STOP_AFTER_EPOCH = None
FIT_DEFAULT = 20
RESULT_OPTIONS = ("game", "players", "games", "seed", "heldout", "hidden", "batch", "lr",
                  "weight_decay", "chunk")


def belief_paths(out: str) -> dict:
    """The files of a `learn belief` run writing model `out`."""
    import os

    stem = os.path.splitext(out)[0]
    run = out + ".run"
    return {"run": run, "options": os.path.join(run, "run.json"),
            "checkpoint": os.path.join(run, "checkpoint.npz"),
            "best": os.path.join(run, "best.model"), "png": stem + "-curve.png"}


def run_belief(args) -> int:
    """Generate, train and write the card-location model (BELIEF_DESCRIPTION)."""
    from cli.errors import UserError

    hidden = hidden_widths(args.hidden)
    if not 0.0 < args.heldout < 1.0:
        raise UserError("--heldout must be above 0 and below 1")
    from play.belief_data import DataFileError, parse_population
    from play.player_spec import PlayerSpecError

    try:
        specs = parse_population(args.players)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    try:
        return _belief(args, specs, hidden)
    except (DataFileError, PlayerSpecError) as exc:
        raise UserError(str(exc)) from None


def _belief(args, specs, hidden) -> int:
    """The run itself (`run_belief` after the checks)."""
    import json
    import os
    import sys

    from tqdm import tqdm

    from cli.errors import UserError
    from play.belief_data import (close_population, concat, generate_games, load_chunk,
                                  make_population, save_bytes, save_chunk, save_model,
                                  split_by_deal)
    from search.card_location import CardLocationModel
    from search.card_location_training import (Clock, TrainingState, log_loss, state_bytes,
                                               state_from_bytes, train_epoch,
                                               uniform_log_loss)

    paths = belief_paths(args.out)
    game = args.game
    options = {"players": specs, "games": args.games, "seed": args.seed,
               "heldout": args.heldout, "hidden": list(hidden), "batch": args.batch,
               "lr": args.lr, "weight_decay": args.weight_decay, "chunk": args.chunk,
               "game": args.game}
    os.makedirs(paths["run"], exist_ok=True)
    if os.path.isfile(paths["options"]):
        with open(paths["options"]) as handle:
            before = json.load(handle)
        changed = [k for k in RESULT_OPTIONS if before.get(k) != options.get(k)]
        if changed:
            raise UserError(f"{paths['run']} was started with other options ({', '.join(changed)}"
                            f"): rerun it with the same ones, or write another --out")
    else:
        save_bytes(json.dumps(options, indent=1).encode(), paths["options"])
    meta = json.dumps(options, sort_keys=True)

    # 1. data, chunk by chunk
    chunks = []
    starts = range(0, args.games, args.chunk)
    missing = [g for g in starts
               if not os.path.isfile(os.path.join(paths["run"], f"chunk-{g:07d}.npz"))]
    if missing:
        players = make_population(specs, args.seed, game)
        bar = tqdm(total=args.games, initial=args.games - sum(min(args.chunk, args.games - g)
                                                              for g in missing),
                   unit="game", desc="games", disable=args.no_progress, file=sys.stderr)
        try:
            for g in missing:
                data = generate_games(players, args.seed, g, min(args.chunk, args.games - g),
                                      progress=bar.update, game=game)
                save_chunk(data, os.path.join(paths["run"], f"chunk-{g:07d}.npz"), meta)
        finally:
            bar.close()
            close_population(players)
    for g in starts:
        data, chunk_meta = load_chunk(os.path.join(paths["run"], f"chunk-{g:07d}.npz"))
        if chunk_meta != meta:
            raise UserError(f"{paths['run']}: chunk {g} was generated with other options; "
                            "remove the run directory to start again")
        chunks.append(data)
    data = concat(chunks)
    train_rows, held_rows = split_by_deal(data, args.heldout, args.seed)

    # 2. the training state and the uniform line
    if os.path.isfile(paths["checkpoint"]):
        with open(paths["checkpoint"], "rb") as handle:
            try:
                state = state_from_bytes(handle.read())
            except ValueError as exc:
                raise UserError(f"{paths['checkpoint']}: {exc}") from None
    else:
        losses, cards = uniform_log_loss(data, held_rows, game)
        state = TrainingState.create(hidden, args.seed, game=game, info={
            "uniform": float(losses.sum() / max(1, cards.sum())),
            "positions": int(data["seats"].size), "train_positions": int(train_rows.size),
            "heldout_positions": int(held_rows.size), "best": None, "best_epoch": None})
    info = state.info
    print(f"{info['positions']:,} positions of {args.games:,} games ({info['heldout_positions']:,}"
          f" held out); uniform log-loss {info['uniform']:.4f} nats a hidden card",
          file=sys.stderr)

    # 3. epochs
    clock = Clock()
    spent_before = state.seconds
    interrupted = {"flag": False}

    def out_of_time():
        return args.budget is not None and spent_before + clock() >= args.budget

    def should_stop():
        return interrupted["flag"] or out_of_time()

    import signal

    previous = signal.signal(signal.SIGINT, lambda *_: interrupted.__setitem__("flag", True))
    bar = tqdm(total=args.epochs * train_rows.size, initial=state.epoch * train_rows.size,
               unit="pos", unit_scale=True, desc="train", disable=args.no_progress,
               file=sys.stderr)
    try:
        while state.epoch < args.epochs and not should_stop():
            start = state.epoch * train_rows.size
            loss = train_epoch(state, data, train_rows, args.seed, args.batch, args.lr,
                               args.weight_decay, should_stop,
                               lambda done: bar.update(start + done - bar.n))
            if loss is None:
                break
            held, _ = log_loss(state.mlp, state.pair, data, held_rows, game=game)
            state.seconds = spent_before + clock()
            state.curve.append({"epoch": state.epoch, "train": loss, "heldout": held,
                                "seconds": state.seconds})
            bar.set_postfix(heldout=f"{held:.4f}", uniform=f"{info['uniform']:.4f}")
            if info["best"] is None or held < info["best"]:
                info["best"], info["best_epoch"] = held, state.epoch
                best = CardLocationModel(state.mlp, state.pair, game, {}, 0)
                save_model(_with_meta(best, options, info, fit=0), paths["best"])
            save_bytes(state_bytes(state), paths["checkpoint"])
            _write_curve(state, paths["png"])
            if _STOP_AFTER_EPOCH is not None and _STOP_AFTER_EPOCH(state.epoch):
                interrupted["flag"] = True
    finally:
        bar.close()
        signal.signal(signal.SIGINT, previous)
    if interrupted["flag"]:
        print(f"interrupted after epoch {state.epoch}: rerun the same command to continue",
              file=sys.stderr)
        return 130

    # 4. the model: the best epoch, with the fitting chosen on the held-out positions
    from search.card_location import load_model

    best = load_model(paths["best"], game)
    raw, _ = log_loss(best.mlp, best.pair_weights, data, held_rows, game=game)
    fitted, _ = log_loss(best.mlp, best.pair_weights, data, held_rows, FIT_DEFAULT, game)
    fit = args.fit if args.fit is not None else (FIT_DEFAULT if fitted < raw else 0)
    final = fitted if fit == FIT_DEFAULT else \
        log_loss(best.mlp, best.pair_weights, data, held_rows, fit, game)[0]
    info.update({"heldout_raw": raw, "heldout_fitted": final})
    save_model(_with_meta(best, options, info, fit), args.out)
    cut = 100.0 * (1.0 - final / info["uniform"])
    print(f"{args.out}: epoch {info['best_epoch']} of {state.epoch}, held-out log-loss "
          f"{final:.4f} nats a hidden card (fit {fit}; {raw:.4f} without), uniform "
          f"{info['uniform']:.4f}: {cut:+.1f} % cut; curve {paths['png']}")
    return 0


def _with_meta(model, options: dict, info: dict, fit: int):
    """`model` with the run's options and figures as its file metadata and `fit` set."""
    from search.card_location import CardLocationModel

    meta = {"options": options, **{k: v for k, v in info.items()}}
    return CardLocationModel(model.mlp, model.pair_weights, model.game, meta, fit)


def _write_curve(state, path: str) -> None:
    """The learning curve: training and held-out log-loss per epoch, uniform's line."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # the picture is a bonus: training goes on without matplotlib
        return
    from play.figure_file import save_png

    epochs = [c["epoch"] for c in state.curve]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(epochs, [c["train"] for c in state.curve], "o-", label="training positions")
    ax.plot(epochs, [c["heldout"] for c in state.curve], "o-",
            label="held-out deals (facts applied, no fitting)")
    ax.axhline(state.info["uniform"], color="grey", linestyle="--",
               label=f"uniform consistent layouts ({state.info['uniform']:.3f})")
    ax.set_xlabel("epoch")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_ylabel("log-loss (nats per hidden card)")
    ax.set_title("card-location model: who holds each hidden card")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)
