"""Training data for the card-location model (`search.card_location`): positions from games of
a population of players, each labelled with the true holder of every hidden card.

`generate_games(players, seed, first, count, game=...)`: game k (k = first..first+count-1) is
a game (to the game's target; deal d dealt by the registry's `random_deal` from the game's
stream seed, as Setback's `games.setback.play.tournament.play_game` and Euchre's
`games.euchre.match.deal_hand` deal, so deal d of game k is the same whoever plays) between
two players of the population: the pairing k mod P^2 (P players) puts player (k mod P) on
East-West and player (k div P mod P) on North-South, so every ordered pairing (self-play
included) comes up equally often.
At every decision (a bid, call or card) the acting seat's view is one row: the view's state,
the seat, who played which card and who won each trick (the game's `public_record` of the
deal's moves), the game score from the seat's side, and the four true hands (the labels).
The game and deal index of each row are kept for the held-out split, which is by deal
(`split_by_deal`): positions of one deal never fall on both sides.

Players are named by specs (the game's tournament grammar: `games.setback.play.grammar` for
Setback, `games.euchre.play.tournament` for Euchre); `parse_population` splits a comma-separated
list where a piece that names no player kind continues the spec before it
(`db:a.db,bid=heuristic,search:db:a.db` is two players).

Data chunks (`save_chunk`/`load_chunk`): .npz written atomically with `DATA_VERSION`, so a
run interrupted while generating keeps every finished chunk; models are written here too
(`save_model`), atomically (search/ stays below cfr/).
"""

from __future__ import annotations

import io
import os
import zipfile

import numpy as np

from games import registry
from games.rng import new_rng, stream_seed
from games.scaffold.view import ask
from play.tournament import DEFAULT_MAX_DEALS, PLAYER_SEED_BASE, IllegalMove
from search.card_location import RECORD, game_features, view_record
from search.card_location_training import ROW_FIELDS

DATA_VERSION = 3
CHUNK_FIELDS = ROW_FIELDS + ("game", "deal", "moves", "dealer")
# "moves" rows are the hand's moves as the seat saw them, padded with PAD (Euchre's hidden
# discard is -1 there; chunks written before Euchre joined pad Setback's moves with -1)
PAD = -2
# the names a spec starts with (the games' grammars): a comma-separated piece starting with
# none of them belongs to the spec before it
SPEC_HEADS = ("random", "heuristic", "db", "strategy", "pimc", "pimc-pi", "sds", "nn", "search",
              "ismcts", "oracle")


class DataFileError(ValueError):
    """A belief data chunk that cannot be used; one line."""


def parse_population(text: str) -> list[str]:
    """The player specs of `--players` (module docstring); ValueError on an empty list."""
    import re

    specs: list[str] = []
    depth = 0
    piece = ""
    pieces = []
    for ch in text:  # commas inside search[...] options never split
        depth += ch == "["
        depth -= ch == "]"
        if ch == "," and depth == 0:
            pieces.append(piece)
            piece = ""
        else:
            piece += ch
    pieces.append(piece)
    for piece in pieces:
        head = re.split(r"[:\[]", piece.strip(), maxsplit=1)[0].lower()
        if head in SPEC_HEADS or not specs:
            specs.append(piece.strip())
        else:
            specs[-1] += "," + piece
    specs = [s for s in specs if s]
    if not specs:
        raise ValueError("--players names no player")
    return specs


def pairing(game: int, count: int) -> tuple[int, int]:
    """(East-West player, North-South player) of game `game` among `count` players."""
    return game % count, (game // count) % count


def generate_games(players: list, seed: int, first: int, count: int,
                   max_deals: int = DEFAULT_MAX_DEALS, progress=None,
                   game: str = registry.DEFAULT_GAME) -> dict:
    """The labelled positions of games first..first+count-1 of `game` (module docstring);
    `players`: one (East-West, North-South) pair of player objects per population member (two
    objects so a self-play game reseeds each side on its own). `progress(1)` after each game.
    Returns the row arrays (`CHUNK_FIELDS`)."""
    k = game_features(game)
    entry, table = registry.get(game), registry.declaration(game, "game")
    view_of = registry.declaration(game, "view").SeatView.of
    new_state, random_deal, apply_move, is_legal = (
        entry.load(name) for name in ("new_state", "random_deal", "apply_move", "is_legal"))
    rows = {name: [] for name in CHUNK_FIELDS}
    for g in range(first, first + count):
        ew, ns = pairing(g, len(players))
        teams = (players[ew][0], players[ns][1])
        game_seed = np.uint64(stream_seed(np.uint64(seed), np.uint64(g)))
        for index, player in enumerate(teams):
            if hasattr(player, "seed"):
                player.seed(int(stream_seed(game_seed, PLAYER_SEED_BASE + index)))
        score = [0, 0]
        dealer = table.FIRST_DEALER
        for deal in range(max_deals):
            state = new_state()
            random_deal(new_rng(int(stream_seed(game_seed, np.uint64(deal)))), state)
            history: list[int] = []
            while not k.is_over(state):
                view = view_of(state, dealer, (score[0], score[1]), history)
                seat = view.seat
                player = teams[(dealer + seat) % 2]
                record, tricks = view_record(k, view.state, view.history)
                us, them = view.score_us_them
                rows["states"].append(view.state)
                rows["seats"].append(seat)
                rows["records"].append(record)
                rows["tricks_won"].append(tricks)
                rows["scores"].append((us, them))
                rows["hands"].append(state[0:4].copy())  # HAND + seat: field 0 in every game
                rows["game"].append(g)
                rows["deal"].append(deal)
                rows["moves"].append(list(view.history) + [PAD] * (k.max_moves -
                                                                   len(history)))
                rows["dealer"].append(dealer)
                move = ask(player, state, view)
                if not is_legal(state, move):
                    raise IllegalMove(f"{player.name} chose the illegal move {move}")
                apply_move(state, move)
                history.append(move)
            relative = k.points(state)
            for rel_team in (0, 1):
                score[(rel_team + dealer) % 2] += int(relative[rel_team])
            if table.game_winner(score[0], score[1]) >= 0:
                break
            dealer = table.next_dealer(dealer)
        if progress is not None:
            progress(1)
    return _arrays(rows, k)


def _arrays(rows: dict, k) -> dict:
    """The row lists as compact arrays (`k`: the game's `game_features`)."""
    n = len(rows["seats"])
    return {"states": np.array(rows["states"], np.int64).reshape(n, k.state_size),
            "seats": np.array(rows["seats"], np.int8),
            "records": np.array(rows["records"], np.int64).reshape(n, RECORD, 4),
            "tricks_won": np.array(rows["tricks_won"], np.int8).reshape(n, 4),
            "scores": np.array(rows["scores"], np.int16).reshape(n, 2),
            "hands": np.array(rows["hands"], np.int64).reshape(n, 4),
            "game": np.array(rows["game"], np.int32),
            "deal": np.array(rows["deal"], np.int16),
            "moves": np.array(rows["moves"], np.int8).reshape(n, k.max_moves),
            "dealer": np.array(rows["dealer"], np.int8)}


def row_moves(moves: np.ndarray, game: str = registry.DEFAULT_GAME) -> np.ndarray:
    """The moves of a data row's "moves" field without the padding (int64): a game whose
    histories may hold a hidden move (`hidden_moves`: Euchre's discard, -1) drops only `PAD`,
    the others keep the moves >= 0 (Setback's chunks from before Euchre joined pad with -1)."""
    moves = np.asarray(moves, np.int64)
    return moves[moves != PAD] if game_features(game).hidden_moves else moves[moves >= 0]


def make_population(specs: list[str], seed: int, game: str = registry.DEFAULT_GAME) -> list:
    """One (East-West, North-South) pair of `game`'s players for each spec (its tournament's
    grammar; PlayerSpecError, one line, on a bad spec)."""
    from play.tournament import tournament_game

    make_player = tournament_game(game).make_player
    return [(make_player(spec, seed), make_player(spec, seed + 1)) for spec in specs]


def close_population(players: list) -> None:
    """Close the players that hold resources (search threads, databases)."""
    for pair in players:
        for player in pair:
            if hasattr(player, "close"):
                player.close()


def split_by_deal(data: dict, heldout: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(training rows, held-out rows): a share `heldout` of the deals (game, deal pairs),
    chosen by a generator seeded by `seed`, is held out whole."""
    keys = data["game"].astype(np.int64) * 1024 + data["deal"].astype(np.int64)
    unique, inverse = np.unique(keys, return_inverse=True)
    rng = np.random.default_rng([seed, 0x6E1D])
    out = rng.random(unique.size) < heldout
    mask = out[inverse]
    return np.nonzero(~mask)[0], np.nonzero(mask)[0]


def phase_of(states: np.ndarray, game: str = registry.DEFAULT_GAME) -> np.ndarray:
    """The phase bucket of each row of `game`'s states (`phase_names(game)`: the bids or calls,
    then the tricks in pairs)."""
    return game_features(game).phase_of(states)


def phase_names(game: str = registry.DEFAULT_GAME) -> tuple:
    """The names of `phase_of`'s buckets."""
    return game_features(game).phase_names



def concat(chunks: list) -> dict:
    """Several chunks' rows as one data set."""
    return {k: np.concatenate([c[k] for c in chunks]) for k in CHUNK_FIELDS}


def save_chunk(data: dict, path: str, meta: str) -> str:
    """Write one chunk (.npz) atomically with `DATA_VERSION` and the run's `meta` (JSON text)."""
    from cfr.atomic_file import atomic_writer

    buffer = io.BytesIO()
    np.savez_compressed(buffer, format_version=np.array(DATA_VERSION), meta=np.array(meta),
                        **data)
    with atomic_writer(path) as handle:
        handle.write(buffer.getvalue())
    return path


def load_chunk(path: str) -> tuple[dict, str]:
    """(the rows, the meta text) of a chunk; `DataFileError` in one line if it is missing,
    foreign or of another version."""
    if not os.path.isfile(path):
        raise DataFileError(f"{path}: no such belief data file")
    try:
        with np.load(path, allow_pickle=False) as f:
            data = {k: f[k] for k in f.files}
    except (ValueError, OSError, EOFError, zipfile.BadZipFile):
        raise DataFileError(f"{path}: not a belief data file") from None
    version = int(data.pop("format_version", -1))
    if version != DATA_VERSION or any(k not in data for k in CHUNK_FIELDS):
        raise DataFileError(f"{path}: belief data version {version}, expected {DATA_VERSION}")
    return {k: data[k] for k in CHUNK_FIELDS}, str(data.get("meta", ""))


def save_model(model, path: str) -> str:
    """Write the card-location model file of `model` to `path` atomically."""
    from cfr.atomic_file import atomic_writer
    from search.card_location import model_bytes

    data = model_bytes(model)
    with atomic_writer(path) as handle:
        handle.write(data)
    return path


def save_bytes(data: bytes, path: str) -> str:
    """Write `data` to `path` atomically (the training checkpoint)."""
    from cfr.atomic_file import atomic_writer

    with atomic_writer(path) as handle:
        handle.write(data)
    return path
