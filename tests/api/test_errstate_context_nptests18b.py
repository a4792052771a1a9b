"""kd.errstate / seterr / seterrcall settings per context, as NumPy 2's (numpy/_core/tests/test_errstate.py).

kdsl kept the settings in one module-level dict: an asyncio task's ``with kd.errstate(...)`` changed what
another task (or thread) saw, and one errstate object could be entered twice. NumPy keeps them in a context
variable and raises ``TypeError: Cannot enter `np.errstate` twice.``; the decorator enters afresh per call.
"""

import asyncio
import threading

import numpy as np
import pytest

import kdsl as kd


def test_an_errstate_object_is_entered_once():
    state = kd.errstate(invalid="ignore")
    with state:
        assert kd.geterr()["invalid"] == "ignore"
        with pytest.raises(TypeError, match="Cannot enter `np.errstate` twice"):
            with state:
                pass
    assert kd.geterr()["invalid"] == "warn"
    with pytest.raises(TypeError, match="Cannot enter `np.errstate` twice"):  # also after leaving, as NumPy's
        with state:
            pass
    np_state = np.errstate(invalid="ignore")
    with np_state:
        pass
    with pytest.raises(TypeError, match="Cannot enter `np.errstate` twice"):
        with np_state:
            pass


def test_the_decorator_enters_per_call_and_recursion():
    @kd.errstate(divide="ignore", over="log")
    def depth(n):
        assert kd.geterr()["divide"] == "ignore" and kd.geterr()["over"] == "log"
        return 0 if n == 0 else 1 + depth(n - 1)

    assert depth(3) == 3 and depth(2) == 2
    assert kd.geterr()["divide"] == "warn" and kd.geterr()["over"] == "warn"


def test_asyncio_tasks_keep_their_own_settings():
    @kd.errstate(invalid="ignore")
    def decorated():
        assert kd.geterr()["invalid"] == "ignore"

    async def first():
        decorated()
        await asyncio.sleep(0.02)
        decorated()

    async def holding(mode, delay):
        with kd.errstate(invalid=mode):
            assert kd.geterr()["invalid"] == mode
            await asyncio.sleep(delay)
            assert kd.geterr()["invalid"] == mode
            assert np.geterr()["invalid"] == mode  # NumPy's own state (the host scalars') too

    async def main():
        await asyncio.gather(*[f for _ in range(3)
                               for f in (first(), holding("log", 0.025), holding("print", 0.022))])

    with kd.errstate(invalid="warn"):
        asyncio.run(main())
        assert kd.geterr()["invalid"] == "warn"
    assert kd.geterr() == {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}


def test_a_threads_seterr_stays_in_that_thread():
    seen = {}

    def worker():
        kd.seterr(all="ignore")
        kd.seterrcall(print)
        seen["worker"] = (kd.geterr()["over"], kd.geterrcall())

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert seen["worker"] == ("ignore", print)
    assert kd.geterr()["over"] == "warn" and kd.geterrcall() is None


def test_seterr_inside_a_block_is_undone_on_exit():
    with kd.errstate(under="warn", call=print):
        kd.seterr(divide="ignore")
        kd.seterrcall(None)
        assert kd.geterr()["divide"] == "ignore" and np.geterr()["divide"] == "ignore"
        assert kd.geterrcall() is None
    assert kd.geterr()["divide"] == "warn" and np.geterr()["divide"] == "warn"
    assert kd.geterr()["under"] == "ignore" and kd.geterrcall() is None


def test_a_refused_mode_changes_nothing():
    before, np_before = kd.geterr(), np.geterr()
    for bad in (dict(invalid="raise"), dict(all="call"), dict(divide="sometimes")):
        with pytest.raises((NotImplementedError, ValueError)):
            with kd.errstate(**bad):
                pass
    with pytest.raises(TypeError):
        with kd.errstate(call=3):
            pass
    assert kd.geterr() == before and np.geterr() == np_before


def test_arithmetic_under_the_settings_gives_numpys_values():
    a = np.array([[1.0, -1.0, 0.0], [np.inf, 2.0, -0.0]], np.float32)
    with kd.errstate(all="ignore"), np.errstate(all="ignore"):
        got = (kd.asarray(a)[:, ::-1] / kd.zeros((2, 3), kd.float32)).numpy()
        want = a[:, ::-1] / np.zeros((2, 3), np.float32)
    np.testing.assert_array_equal(got, want)
    assert kd.asarray(np.zeros((0, 2))).sum(axis=0).shape == (2,)
