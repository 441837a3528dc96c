"""How the command line reports bad input (one line on stderr, exit status 2) and a file it
could not write, a full disk say (one line, exit status 1)."""

from __future__ import annotations

import contextlib
import sys

from games.registry import PROGRAM


class UserError(Exception):
    """Bad input from the user (a file, an argument, a move): reported in one line, status 2."""


def user_error_types() -> tuple[type[BaseException], ...]:
    """The exception types that mean "bad input", gathered from the packages that define them
    (every registered game's, through the registry)."""
    from games import registry

    types: list[type[BaseException]] = [UserError]
    types += [entry.load("error") for entry in registry.GAMES.values()]
    from cfr.errors import CfrFileError, TableFullError
    from train.errors import RunError

    types += [CfrFileError, TableFullError, RunError]
    return tuple(types)


@contextlib.contextmanager
def report_user_errors():
    """Turn user errors into `setback-cfr: error: ...` on stderr and exit status 2 (status 1
    for `WriteFailedError`: the input was fine, the disk was not)."""
    try:
        yield
    except BrokenPipeError:
        # The reader went away (`setback-cfr replay f | head`): stop quietly, as Unix tools do.
        sys.stderr.close()
        raise SystemExit(0)
    except KeyboardInterrupt:
        print(f"{PROGRAM}: interrupted", file=sys.stderr)
        raise SystemExit(130)
    except Exception as exc:
        from cfr.errors import WriteFailedError

        if isinstance(exc, user_error_types()):
            print(f"{PROGRAM}: error: {one_line(exc)}", file=sys.stderr)
            raise SystemExit(2)
        if isinstance(exc, WriteFailedError):
            print(f"{PROGRAM}: error: {one_line(exc)}", file=sys.stderr)
            raise SystemExit(1)
        raise


def one_line(exc: BaseException) -> str:
    """The error's text on one line: line breaks in it (a file name given with a newline, say)
    are shown escaped."""
    return str(exc).replace("\r", "\\r").replace("\n", "\\n")
