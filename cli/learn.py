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


from cli.arguments import add_command, add_game_option
from games import registry


def register(subparsers) -> None:
    """Add the `learn` subcommand: the games' own actions (each game's registry `commands`),
    then `belief`."""
    parser = add_command(subparsers, "learn", "learned models: the card-location model "
                         "(belief) and a game's own", __doc__)
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True

    for module in registry.commands("learn").values():
        module.register_learn(actions, _end_options)
    _register_belief(actions)


def _end_options(parser, action: str, func) -> None:
    """What every `learn` action ends with: --no-progress, its function, and --game (the games
    whose words declare `learn ACTION` theirs)."""
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.set_defaults(func=func)
    add_game_option(parser, f"learn {action}")


# --- learn belief: the card-location model ------------------------------------------------
BELIEF_DESCRIPTION = """\
Train the card-location model (search/card_location.py) of --game: for every card a seat
cannot see, the probability that each other seat holds it, or that nobody does, given the
seat's whole view (its hand, the bids or calls in order, every card played and by whom, the
tricks' winners, the score).
{games}

1. Data: --games games between the players of --players (the game's tournament players;
   every ordered pairing equally often, self-play included); every decision of every seat is
   one position, labelled with the true holder of each hidden card. Written in chunks of
   --chunk games to FILE.run/.
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
    from cli.arguments import (duration, non_negative_float, non_negative_int, positive_float,
                               positive_int, seed, unit_interval)

    import textwrap

    from cli.game_words import declared, either, title

    # the games with a card-location declaration (the registry's), in their own words
    words = declared("BELIEF", registry.names(("card_location",)))
    games = (f"The games: {either(title(g) for g in words)}; nobody is "
             f"{either(w['nobody'] + ' in ' + title(g) for g, w in words.items())}.")
    description = BELIEF_DESCRIPTION.format(games=textwrap.fill(games, 96))
    bel = actions.add_parser("belief", help="train the card-location model (who holds each "
                             "hidden card) on games of a population of players",
                             description=description,
                             formatter_class=__import__("argparse").RawDescriptionHelpFormatter)
    bel.add_argument("--players", required=True, metavar="SPEC[,SPEC...]",
                     help="the population whose games make the data, comma-separated player "
                          "specs of the game's tournament ("
                          + "; ".join(f"{title(g)}: {w['players']}" for g, w in words.items())
                          + "); a piece naming no player kind continues the spec before it, "
                          "so db:a.db,bid=heuristic stays one player")
    bel.add_argument("--out", "-o", required=True, metavar="FILE",
                     help="the model file to write (its run directory FILE.run/ and the "
                          "learning curve go beside it)")
    bel.add_argument("--games", type=positive_int, default=2000, metavar="N",
                     help="games to generate (default 2000; "
                          + ", ".join(f"{registry.words(g, 'GAME')} gives about "
                                      f"{w['positions']} positions" for g, w in words.items())
                          + ")")
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

    from cli.arguments import hidden_widths

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
