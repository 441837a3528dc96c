"""The host of Trickster Cards' bots: our own C# host classes (`play/trickster_host/*.cs`,
written from Trickster's public "Trickster Bot Classes" page and from how the bots use them)
compiled with Mono's `mcs` together with the user's checkout of `TricksterCards/TricksterBots`
(the directory named by the environment variable `TRICKSTER_BOTS`), cached per checkout
commit, and run as one long-lived process per player and worker speaking JSON lines.

This module knows no game: `games/setback/play/trickster.py` (Setback) and
`games/spades/play/trickster.py` declare their bot (`TricksterBot`: what it compiles, its class)
and fill the bots' inputs from a seat's view and check their answers.
What it guarantees:

- A missing `mcs` or `mono`, a missing or wrong checkout, a bot that does not compile: one
  `TricksterSetupError` line saying what to do (a `PlayerSpecError`: exit status 2).
- A bot process that dies, stays silent past the time limit or answers something that is not
  the protocol: the process is killed and `TricksterBotError` says so in one line naming the
  position (the caller's text); never a hang.

mcs 6.8 (Debian's `mono-mcs`) has no C# 7 deconstruction of more than seven elements (it stops
with "Internal compiler error: tuples > 7"), which `PitchBot.cs` and `SpadesBot.cs` use once
each: the build compiles a copy in which each such `var (a, b, ...) = (x, y, ...);` is written
as one declaration a name (`var a = x; var b = y; ...`), the same program since the right-hand
sides are plain reads. The user's checkout is never written.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from games.registry import PROGRAM
from games.scaffold.table_words import SUIT_NAMES
from play.player_spec import PlayerSpecError

HOST_DIR = Path(__file__).resolve().parent / "trickster_host"
HOST_SOURCES = ("Cloud.cs", "Host.cs")
ENV_CHECKOUT = "TRICKSTER_BOTS"
ENV_TIMEOUT = "TRICKSTER_TIMEOUT"
DEFAULT_TIMEOUT = 10.0  # seconds a decision may take before the bot counts as hung
START_TIMEOUT = 60.0  # the first answer also pays for mono's start-up and JIT
INSTALL_HINT = "install Mono (Debian/Ubuntu: apt-get install mono-mcs mono-runtime)"
CHECKOUT_HINT = ("clone https://github.com/TricksterCards/TricksterBots and set "
                 f"{ENV_CHECKOUT} to its directory")


@dataclass(frozen=True)
class TricksterBot:
    """A game's Trickster bot, declared in its place (its `play/trickster.py`): `name`, the
    bot's game as Trickster names it (the built host's file name), `files`, what it compiles
    from the checkout (paths under its TricksterBots/ folder), and `bot_class`, the class the
    host instantiates."""

    name: str
    files: tuple
    bot_class: str


class TricksterSetupError(PlayerSpecError):
    """The Trickster host cannot be built or started (no Mono, no checkout, a compile error)."""


class TricksterBotError(ValueError):
    """A Trickster bot crashed, hung, answered garbage or suggested an illegal move: the match
    stops (each game raises it mixed with its own error type, so the command line reports it
    in one line with exit status 2)."""


def tools() -> tuple[str, str]:
    """The paths of `mcs` and `mono`; `TricksterSetupError` naming the missing one."""
    mcs, mono = shutil.which("mcs"), shutil.which("mono")
    if not mcs:
        raise TricksterSetupError(f"trickster: Mono's C# compiler mcs is not installed: "
                                  f"{INSTALL_HINT}")
    if not mono:
        raise TricksterSetupError(f"trickster: the Mono runtime (mono) is not installed: "
                                  f"{INSTALL_HINT}")
    return mcs, mono


def checkout_dir() -> Path:
    """The `TricksterBots/` folder of the checkout named by `TRICKSTER_BOTS` (the repository
    root or that folder itself); `TricksterSetupError` when unset or wrong."""
    value = os.environ.get(ENV_CHECKOUT, "").strip()
    if not value:
        raise TricksterSetupError(f"trickster: {ENV_CHECKOUT} is not set: {CHECKOUT_HINT}")
    root = Path(value).expanduser()
    for candidate in (root / "TricksterBots", root):
        if (candidate / "Bots" / "BaseBot.cs").is_file():
            return candidate
    raise TricksterSetupError(f"trickster: {ENV_CHECKOUT}={value} holds no "
                              f"TricksterBots/Bots/BaseBot.cs: {CHECKOUT_HINT}")


def checkout_id(folder: Path, files: list[Path]) -> str:
    """The checkout's commit (`git rev-parse HEAD`), with `-dirty` and a hash of the files
    when they differ from it; the files' hash alone when the folder is not a git checkout."""
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    content = digest.hexdigest()[:16]
    try:
        commit = subprocess.run(["git", "-C", str(folder), "rev-parse", "HEAD"],
                                capture_output=True, text=True, timeout=10)
        status = subprocess.run(["git", "-C", str(folder), "status", "--porcelain", "--",
                                 *[str(p) for p in files]],
                                capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return f"files-{content}"
    if commit.returncode != 0:
        return f"files-{content}"
    head = commit.stdout.strip()[:12]
    return head if not status.stdout.strip() else f"{head}-dirty-{content}"


def cache_root() -> Path:
    """Where built hosts are kept: `$XDG_CACHE_HOME/<the program's name>/trickster` (default
    `~/.cache/...`)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / PROGRAM / "trickster"


def host_hash() -> str:
    """A hash of the host's own sources (a changed host is built again)."""
    digest = hashlib.sha256()
    for name in HOST_SOURCES:
        digest.update((HOST_DIR / name).read_bytes())
    return digest.hexdigest()[:12]


_DECONSTRUCT = re.compile(r"var\s*\(([^()]*)\)\s*=\s*\(")


def _split_top_level(text: str) -> list[str]:
    """`text` split at the commas outside parentheses, brackets, braces and strings."""
    parts, depth, start, quote = [], 0, 0, None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote and text[i - 1] != "\\":
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch in "([{<":
            depth += 1 if ch != "<" else 0
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts]


def desugar_wide_tuples(source: str) -> str:
    """`source` with every deconstructing declaration of more than seven names from a tuple
    literal, `var (a, ..., h) = (x, ..., y);`, written as one `var` a name (module
    docstring: mcs 6.8 cannot compile them)."""
    out, pos = [], 0
    for match in _DECONSTRUCT.finditer(source):
        if match.start() < pos:
            continue
        names = [n.strip() for n in match.group(1).split(",")]
        if len(names) <= 7:
            continue
        depth, i = 1, match.end()
        while depth and i < len(source):
            depth += {"(": 1, ")": -1}.get(source[i], 0)
            i += 1
        end = source.index(";", i) + 1
        values = _split_top_level(source[match.end():i - 1])
        if len(values) != len(names) or source[i:end - 1].strip():
            continue
        out.append(source[pos:match.start()])
        out.append(" ".join(f"var {n} = {v};" for n, v in zip(names, values)))
        pos = end
    out.append(source[pos:])
    return "".join(out)


def compile_host(extra_sources: list[Path], exe: Path) -> Path:
    """Compile the host with `extra_sources` (copied, desugared) into `exe`, atomically;
    `TricksterSetupError` with mcs's first error line when it fails."""
    mcs, _ = tools()
    exe.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="trickster-build-", dir=exe.parent) as build:
        sources = [str(HOST_DIR / name) for name in HOST_SOURCES]
        originals = {}
        for k, path in enumerate(extra_sources):
            copy = Path(build) / f"{k:02d}_{path.name}"
            originals[str(copy)] = path
            copy.write_text(desugar_wide_tuples(path.read_text(encoding="utf-8-sig")),
                            encoding="utf-8")
            sources.append(str(copy))
        target = Path(build) / exe.name
        result = subprocess.run([mcs, "-nologo", "-langversion:experimental", "-optimize+",
                                 "-warn:0", "-target:exe", f"-out:{target}", *sources],
                                capture_output=True, text=True)
        if result.returncode != 0 or not target.is_file():
            text = result.stdout + result.stderr
            for copy, path in originals.items():  # name the user's files, not the copies
                text = text.replace(copy, str(path))
            errors = ([line for line in text.splitlines() if "error CS" in line]
                      or [line for line in text.splitlines() if "error" in line])
            log = exe.with_suffix(".log")
            log.write_text(text)
            first = errors[0] if errors else f"mcs exited with status {result.returncode}"
            raise TricksterSetupError(f"trickster: the bot does not compile with mcs "
                                      f"({first.strip()}): use a TricksterBots checkout "
                                      f"whose bot compiles (the whole log: {log})")
        os.replace(target, exe)
    return exe


def built_host(bot: TricksterBot) -> Path:
    """The host executable of a game's `bot` for the checkout in `TRICKSTER_BOTS`, built on
    first use and cached per checkout commit."""
    tools()
    folder = checkout_dir()
    files = [folder / name for name in bot.files]
    missing = [str(p) for p in files if not p.is_file()]
    if missing:
        raise TricksterSetupError(f"trickster: the checkout lacks {missing[0]}: "
                                  f"{CHECKOUT_HINT}")
    exe = cache_root() / checkout_id(folder, files) / host_hash() / f"{bot.name}.exe"
    if exe.is_file():
        return exe
    return compile_host(files, exe)


def decision_timeout() -> float:
    """Seconds a decision may take (`TRICKSTER_TIMEOUT`, default `DEFAULT_TIMEOUT`)."""
    value = os.environ.get(ENV_TIMEOUT, "")
    try:
        return float(value) if value else DEFAULT_TIMEOUT
    except ValueError:
        raise TricksterSetupError(f"trickster: {ENV_TIMEOUT}={value!r} is not a number of "
                                  "seconds") from None


class BotProcess:
    """One host process for one bot: started on first use in the process that uses it (a
    forked tournament worker starts its own), asked one JSON line at a time with a time
    limit. `error` is the exception type raised when the bot fails (a game's mix of
    `TricksterBotError` and its own error)."""

    def __init__(self, exe: Path, bot_class: str, options: dict, name: str,
                 timeout: float | None = None, error=TricksterBotError):
        self.exe, self.bot_class, self.options, self.name = Path(exe), bot_class, options, name
        self.timeout = decision_timeout() if timeout is None else float(timeout)
        self.error = error
        self._proc = None
        self._owner = None
        self._buffer = b""
        self.seen_options = None  # the options as the running bot read them (init's answer)
        self.decisions = 0
        self.seconds = 0.0

    def _start(self) -> None:
        _, mono = tools()
        self._stderr = tempfile.TemporaryFile()
        self._proc = subprocess.Popen([mono, str(self.exe)], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=self._stderr,
                                      start_new_session=True)
        self._owner = os.getpid()
        self._buffer = b""
        answer = self._exchange({"op": "init", "bot": self.bot_class,
                                 "options": self.options}, "start-up",
                                max(START_TIMEOUT, self.timeout))
        self.seen_options = answer.get("options")

    def ask(self, request: dict, position: str) -> dict:
        """The bot's answer to `request` (a dict with `ok` true); `self.error` in one line
        naming `position` when the bot fails."""
        if self._proc is None or self._owner != os.getpid():
            self._proc = None  # a forked child must not share its parent's pipes
            self._start()
        started = time.perf_counter()
        answer = self._exchange(request, position, self.timeout)
        self.seconds += time.perf_counter() - started
        self.decisions += 1
        return answer

    def _fail(self, what: str, position: str):
        tail = ""
        if self._proc is not None:
            self.close()
            try:
                self._stderr.seek(0)
                lines = self._stderr.read().decode("utf-8", "replace").strip().splitlines()
                tail = f" (its last words: {lines[-1][:200]})" if lines else ""
            except (OSError, ValueError):
                pass
        return self.error(f"{self.name}: the bot {what} at {position}{tail}")

    def _exchange(self, request: dict, position: str, timeout: float) -> dict:
        line = (json.dumps(request, separators=(",", ":")) + "\n").encode()
        try:
            self._proc.stdin.write(line)
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._fail("process is gone (it crashed or exited)", position) from None
        deadline = time.monotonic() + timeout
        fd = self._proc.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._fail(f"did not answer within {timeout:g} s", position)
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                try:  # give a dying process a moment, for its exit status
                    code = self._proc.wait(timeout=1)
                except subprocess.TimeoutExpired:
                    code = None
                raise self._fail("process ended without an answer"
                                 + (f" (exit status {code})" if code is not None else ""),
                                 position)
            self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\n")
        try:
            answer = json.loads(raw)
        except ValueError:
            answer = None
        if not isinstance(answer, dict) or "ok" not in answer:
            shown = raw.decode("utf-8", "replace")[:120]
            raise self._fail(f"answered garbage {shown!r}", position)
        if answer["ok"] is not True:
            raise self._fail(f"failed ({str(answer.get('error'))[:300]})", position)
        return answer

    def close(self) -> None:
        """End the process (if this process started it)."""
        proc, self._proc = self._proc, None
        if proc is None or self._owner != os.getpid():
            return
        try:
            proc.kill()
        except OSError:
            pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for stream in (proc.stdin, proc.stdout):
            try:
                stream.close()
            except OSError:
                pass

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: nothing left to clean
            pass


def suit_name(suit: int) -> str:
    """Trickster's name of our suit 0..3 (C D H S)."""
    return SUIT_NAMES["CDHS"[suit]]  # the table's names, Trickster's Suit enum's too


def card_text(card: int) -> str:
    """The two-character text of our card 0..51 (suit * 13 + rank - 2): rank then suit."""
    return "23456789TJQKA"[card % 13] + "CDHS"[card // 13]


def card_of_text(text: str) -> int:
    """Our card 0..51 of a two-character text; -1 for anything else."""
    if not isinstance(text, str) or len(text) != 2:
        return -1
    rank, suit = "23456789TJQKA".find(text[0].upper()), "CDHS".find(text[1].upper())
    return -1 if rank < 0 or suit < 0 else suit * 13 + rank


def cards_text(mask: int) -> list[str]:
    """The texts of a 52-bit card mask's cards, by suit (C D H S) then rank ascending (the
    order the host gives every list of cards in)."""
    mask = int(mask)
    return [card_text(c) for c in range(52) if mask >> c & 1]


SEATS = "WNES"


def absolute_seat(view, rel: int) -> int:
    """The absolute seat (0..3 = W N E S) of the seat `rel` relative to the view's dealer."""
    return (view.dealer + rel) % 4


def add_trick_inputs(out: dict, view, S, legal: list, order, leader: int, me: int) -> dict:
    """Fill a bot's card-play inputs into `out` from the view (`S` its game's state fields):
    the trick so far, the cards played before it (in `order` when known), the legal cards,
    and who is taking the trick with what (Pitch's and Spades' bots read the same fields)."""
    state = view.state
    trick = [int(state[S.TRICK + i]) for i in range(int(state[S.N_IN_TRICK]))]
    current = set(trick)
    done = ([c for c in order if c not in current] if order is not None else
            [c for c in range(52) if int(state[S.PLAYED]) >> c & 1 and c not in current])
    out.update({"trick": [card_text(c) for c in trick], "cardsPlayed": [card_text(c) for c in done],
                "legalCards": [card_text(c) for c in sorted(legal)],
                "cardTakingTrick": None, "trickTaker": None, "isPartnerTakingTrick": False})
    if trick:
        winning = int(state[S.WINNING])
        taker = absolute_seat(view, (leader + winning) % 4)
        out.update({"cardTakingTrick": card_text(trick[winning]), "trickTaker": taker,
                    "isPartnerTakingTrick": (taker - me) % 4 == 2})
    return out


def position_text(view, S, bidding: bool) -> str:
    """A one-line description of the position for error messages (`S` the game's state
    fields; `bidding` whether the view is in the auction)."""
    state = view.state
    me = SEATS[absolute_seat(view, view.seat)]
    hand = " ".join(cards_text(state[S.HAND + view.seat]))
    if bidding:
        where = "bidding"
    else:
        trick = " ".join(card_text(int(state[S.TRICK + i]))
                         for i in range(int(state[S.N_IN_TRICK])))
        where = f"trick {int(state[S.TRICK_NUMBER]) + 1} [{trick}]"
    return (f"{me} {where} (dealer {SEATS[view.dealer]}, score EW {view.score[0]} NS "
            f"{view.score[1]}, hand {hand})")


class TricksterPlayer:
    """What every game's Trickster player shares: the bot's process (`BotProcess` on the
    game's `options`, its failures the game's `error`), the options as it read them, closing
    it, the one line refusing an illegal answer and asking for a card. A game's subclass sets
    `name`, `options`, `error`, `fields` (its state module), `bid_phase` (the auction's phase)
    and `move_text(move)`, and writes `choose`."""

    name = ""
    options: dict = {}
    error: type = TricksterBotError
    fields = None
    bid_phase = 0

    def __init__(self, exe, bot_class: str, timeout: float | None = None,
                 name: str | None = None):
        self.name = name or self.name
        self.process = BotProcess(exe, bot_class, self.options, self.name, timeout,
                                  error=self.error)

    def where(self, view) -> str:
        """The position of `view` in one line (`position_text`)."""
        return position_text(view, self.fields, int(view.state[self.fields.PHASE])
                             == self.bid_phase)

    def illegal(self, view, what: str, inputs: dict):
        """The error stopping the match: the bot suggested `what`, illegal at `view`."""
        legal = ", ".join(self.move_text(int(m)) for m in view.legal_moves())
        return self.error(f"{self.name}: the bot suggested {what}, illegal at "
                          f"{self.where(view)}; legal: {legal}; its inputs: "
                          f"{json.dumps(inputs, separators=(',', ':'))}")

    def ask_card(self, view, inputs: dict) -> int:
        """The bot's card for the inputs `inputs` of `view`, checked legal in our engine."""
        text = self.process.ask({"op": "card", "state": inputs}, self.where(view)).get("card")
        card = card_of_text(text)
        if card not in {int(m) for m in view.legal_moves()} or text not in inputs["legalCards"]:
            raise self.illegal(view, f"the card {text!r}", inputs)
        return card

    @property
    def seen_options(self):
        """The options as the running bot read them (None before its first decision)."""
        return self.process.seen_options

    def close(self) -> None:
        """End the bot's process."""
        self.process.close()
