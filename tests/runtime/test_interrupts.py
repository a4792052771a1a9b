"""``interrupts.deferred``: Ctrl-C (SIGINT) arriving inside the block is raised when the block ends, as the
default handler would have raised it; elsewhere (another thread, a user's own handler kept) nothing changes."""

from __future__ import annotations

import _thread
import signal
import threading

import pytest

from kdsl.runtime import interrupts


@pytest.fixture
def default_handler():
    """Ctrl-C as Python sees it, whatever ran before in this process: the default handler."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_an_interrupt_inside_the_block_is_raised_at_its_end(default_handler):
    reached = []
    with pytest.raises(KeyboardInterrupt):
        with interrupts.deferred():
            _thread.interrupt_main()
            for i in range(1000):  # bytecodes (and calls) where Python checks for pending signals
                reached.append(abs(-i))
    assert len(reached) == 1000
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored


def test_nested_blocks_raise_once_at_the_outer_end(default_handler):
    with pytest.raises(KeyboardInterrupt):
        with interrupts.deferred():
            with interrupts.deferred():
                _thread.interrupt_main()
                abs(-1)
            inner_done = True
    assert inner_done


def test_a_block_without_interrupt_and_other_threads_are_unchanged(default_handler):
    with interrupts.deferred():
        assert signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    seen = []

    def other():
        with interrupts.deferred():  # signals only reach the main thread: nothing to swap (nor allowed) here
            seen.append(signal.getsignal(signal.SIGINT))

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert seen == [signal.default_int_handler]
