"""kd.errstate / seterr / geterr / seterrcall / geterrcall: NumPy's settings API; kdsl behaves as 'ignore'."""

import warnings

import numpy as np
import pytest

import kdsl as kd


@pytest.fixture(autouse=True)
def _restore():
    old, old_call, np_old = kd.geterr(), kd.geterrcall(), np.geterr()
    yield
    kd.seterr(**old)
    kd.seterrcall(old_call)
    np.seterr(**np_old)


def test_defaults_are_numpys():
    with np.errstate():
        np.seterr(all=None)
    assert kd.geterr() == {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}


@pytest.mark.parametrize("kwargs", [{"all": "ignore"}, {"divide": "print", "over": "log"},
                                    {"all": "warn", "under": "ignore"}, {"invalid": "ignore"}])
def test_seterr_matches_numpy(kwargs):
    with np.errstate():
        np_old = np.seterr(**kwargs)
        np_new = np.geterr()
        np.seterr(**np_old)
    kd.seterr(**np_old)
    assert kd.seterr(**kwargs) == np_old
    assert kd.geterr() == np_new


@pytest.mark.parametrize("mode", ["raise", "call"])
@pytest.mark.parametrize("kind", ["all", "divide", "over", "under", "invalid"])
def test_raise_and_call_are_refused(kind, mode):
    before = kd.geterr()
    with pytest.raises(NotImplementedError, match="cannot detect.*kd.isfinite"):
        kd.seterr(**{kind: mode})
    with pytest.raises(NotImplementedError, match="cannot detect"):
        with kd.errstate(**{kind: mode}):
            pass
    assert kd.geterr() == before


def test_bad_mode_is_numpys_value_error():
    with pytest.raises(ValueError):
        np.seterr(divide="bogus")
    with pytest.raises(ValueError, match="invalid error mode"):
        kd.seterr(divide="bogus")


def test_errstate_context_restores_and_nests():
    before = kd.geterr()
    with kd.errstate(all="ignore"):
        assert set(kd.geterr().values()) == {"ignore"}
        with kd.errstate(divide="warn"):
            assert kd.geterr()["divide"] == "warn" and kd.geterr()["over"] == "ignore"
        assert kd.geterr()["divide"] == "ignore"
    assert kd.geterr() == before
    with pytest.raises(KeyError), kd.errstate(over="print"):
        raise KeyError
    assert kd.geterr() == before


def test_errstate_as_decorator_and_results_are_ignore():
    @kd.errstate(divide="ignore", invalid="ignore")
    def ratio(a, b):
        return a / b

    x = np.array([1.0, 0.0, -1.0, np.inf], np.float32)
    got = ratio(kd.asarray(x), kd.asarray(np.zeros(4, np.float32))).numpy()
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(got, x / np.float32(0))
    assert kd.geterr()["divide"] == "warn"


def test_errcall():
    assert kd.geterrcall() is None
    log = []
    assert kd.seterrcall(log.append) is None and kd.geterrcall() == log.append

    class Sink:
        def write(self, s):
            pass
    sink = Sink()
    assert kd.seterrcall(sink) == log.append and kd.geterrcall() is sink
    with pytest.raises(TypeError):
        np.seterrcall(3)
    with pytest.raises(TypeError, match="callable"):
        kd.seterrcall(3)
    with kd.errstate(call=print):
        assert kd.geterrcall() is print
    assert kd.geterrcall() is sink


@pytest.mark.parametrize(("kind", "compute"), [
    ("over", lambda: kd.float32(3e38) * kd.float32(2)),
    ("divide", lambda: kd.float64(1.0) / kd.float64(0.0)),
    ("invalid", lambda: kd.float32(0.0) / kd.float32(0.0)),
])
def test_errstate_silences_numpy_host_scalars(kind, compute):
    # kd.float32(x) is NumPy's scalar, so its host arithmetic warns through NumPy's state: kd.errstate sets it too
    with pytest.warns(RuntimeWarning):
        compute()
    before = np.geterr()
    with kd.errstate(**{kind: "ignore"}):
        assert np.geterr()[kind] == "ignore"
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            compute()
    assert np.geterr() == before


def test_seterr_sets_numpys_state_and_errstate_restores_numpys_own():
    np.seterr(under="warn")  # NumPy's state differs from kdsl's: the block restores NumPy's as it was
    with kd.errstate(all="ignore"):
        assert np.geterr() == dict.fromkeys(("divide", "over", "under", "invalid"), "ignore")
    assert np.geterr()["under"] == "warn"
    kd.seterr(divide="ignore")
    assert np.geterr()["divide"] == "ignore"
