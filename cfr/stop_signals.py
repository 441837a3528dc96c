"""A long job's stop signals: Ctrl-C (SIGINT) and `kill` (SIGTERM) handled by the job while it
runs, the previous handlers restored after. Setting a handler also overrides a SIGINT the shell
ignored when it started the job in the background (`nohup ... &`), so both signals always reach
the job. Training (`train.runner`, `train.distill`) and the tournaments (`cli.tournament`) stop
this way."""

from __future__ import annotations

import contextlib
import signal
import threading

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def stop_signals(handler):
    """Within the block, SIGINT and SIGTERM call `handler(signum, frame)`; it yields whether
    they were set (signals reach the main thread only: elsewhere nothing is set, and the block
    runs without them)."""
    previous = {}
    if threading.current_thread() is threading.main_thread():
        previous = {sig: signal.signal(sig, handler) for sig in STOP_SIGNALS}
    try:
        yield bool(previous)
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
