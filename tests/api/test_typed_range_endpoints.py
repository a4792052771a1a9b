"""``linspace``/``logspace``/``geomspace`` of typed host endpoints (NumPy scalars, NumPy arrays) take NumPy's
dtype, as ``kd.asarray`` keeps a typed array's; Python number endpoints keep kdsl's default float32
(docs/numpy-api.md, "Deliberate differences")."""

import numpy as np
import pytest

import kdsl as kd

TYPED = [np.float64(-1.5), np.float32(0.25), np.float16(2.0), np.int64(3), np.uint8(7), np.array(0.5),
         np.array([0.0, -0.0, 4.0]), np.array([[1.0], [2.0]], np.float32), np.complex128(1 + 1j),
         np.array([np.inf, 1.0])]


@pytest.mark.parametrize("start", TYPED, ids=repr)
@pytest.mark.parametrize("num", [0, 1, 5])
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace_and_logspace_of_typed_endpoints_take_numpy_dtype(start, num, endpoint):
    for fn in ("linspace", "logspace"):
        with np.errstate(all="ignore"):
            ref = getattr(np, fn)(start, 6, num, endpoint=endpoint)
        got = getattr(kd, fn)(start, 6, num, endpoint=endpoint)
        assert got.dtype == ref.dtype, fn
        assert got.shape == ref.shape
        np.testing.assert_allclose(got.numpy(), ref, rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize("start, stop", [(np.float64(1.0), 1000), (np.float32(2.0), np.float32(0.5)),
                                         (np.array([1.0, -8.0]), np.array([16.0, -1.0]))])
def test_geomspace_of_typed_endpoints_takes_numpy_dtype(start, stop):
    ref = np.geomspace(start, stop, 4)
    got = kd.geomspace(start, stop, 4)
    assert got.dtype == ref.dtype
    np.testing.assert_allclose(got.numpy(), ref, rtol=1e-6)


def test_python_numbers_keep_kdsl_defaults():
    assert kd.linspace(0, 1.5, 4).dtype == kd.float32
    assert kd.logspace(0, 2, 3).dtype == kd.float32
    assert kd.geomspace(1, 8, 4).dtype == kd.float32
    assert kd.linspace(0, 1j, 3).dtype == kd.complex64
    assert kd.linspace(np.float64(0), 1, 3, dtype=kd.float32).dtype == kd.float32  # dtype= wins
    assert kd.linspace(np.float64(0), 9, 4, dtype=int).numpy().tolist() == [0, 3, 6, 9]


def test_retstep_of_typed_endpoints():
    got, step = kd.linspace(np.float64(0), 1, 5, retstep=True)
    ref, ref_step = np.linspace(np.float64(0), 1, 5, retstep=True)
    assert got.dtype == ref.dtype and step == ref_step
    np.testing.assert_array_equal(got.numpy(), ref)


def test_without_float64_typed_endpoints_give_the_default(monkeypatch):
    d = kd.device()
    monkeypatch.setattr(d, "features", d.features - {"float64"})
    got = kd.linspace(np.float64(0), 1, 3)
    assert got.dtype == kd.float32
    np.testing.assert_array_equal(got.numpy(), np.linspace(0, 1, 3, dtype=np.float32))
