"""Fork, run, wait: the one "fork a child, run it, wait for it with a deadline, read its exit status" loop of
the fork tests' scripts (tests/engine/test_engine_fork.py, tests/runtime/test_fork.py, the reliab16/17 fork
tests). The scripts run in a fresh interpreter and put this folder on ``sys.path`` with :data:`IMPORT`.

A child that does not finish in time is killed and reported as ``"hung"``, so a hang fails the test that
caused it instead of stopping the suite.

Example:
    >>> fork_and_wait(lambda: None)
    0
"""

from __future__ import annotations

import os
import signal
import sys
import time
import traceback
from collections.abc import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
IMPORT = f"import sys; sys.path.insert(0, {HERE!r}); from fork_child import fork, wait, fork_and_wait"
"""The line a test script starts with to use these functions."""

FAILED = 7
"""The status of a child whose body raised (its traceback is printed first)."""


def fork(child: Callable[[], object]) -> int:
    """Fork; the child runs ``child()`` and never returns here. Returns the child's pid (in the parent).

    The child leaves through ``sys.exit`` (the interpreter's exit hooks run: what a real program does) or
    ``os._exit`` as ``child`` chooses; if ``child`` returns, it exits 0 with ``os._exit``; if it raises, the
    traceback is printed and it exits :data:`FAILED`.
    """
    pid = os.fork()
    if pid:
        return pid
    try:
        child()
    except SystemExit:
        raise  # a real exit, through the interpreter's exit hooks
    except BaseException:
        traceback.print_exc()
        _flush()
        os._exit(FAILED)
    _flush()
    os._exit(0)


def wait(pid: int, timeout: float = 120.0) -> int | str:
    """The exit status of child ``pid`` (``-N``: killed by signal N), or ``"hung"`` after ``timeout`` seconds
    (the child is then killed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.02)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return "hung"


def fork_and_wait(child: Callable[[], object], timeout: float = 120.0) -> int | str:
    """:func:`fork` then :func:`wait`: the child's exit status, or ``"hung"``."""
    return wait(fork(child), timeout)


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # a closed stream: nothing to flush
            pass
