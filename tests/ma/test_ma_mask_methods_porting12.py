"""``x = np.ma.masked_invalid(data).shrink_mask()`` (a masked array of clean data dropped to ``nomask``, as data
cleaning scripts do before testing ``x.mask is np.ma.nomask``), ``x.unshare_mask()``, ``x.get_real()``,
``x.get_imag()``, ``x.ids()`` and ``x.iscontiguous()`` raised AttributeError on kd.ma arrays
(kdsl/ma/mask_methods.py)."""

import numpy as np
import pytest

import kdsl as kd

SHAPES = [(0,), (1,), (6,), (3, 4), (2, 3, 2)]
KINDS = ["none", "some", "all", "nomask"]


def _pair(shape, kind, dtype=np.float64):
    rng = np.random.default_rng(len(shape) + sum(shape))
    data = (rng.normal(size=shape) * 4).astype(dtype)
    mask = {"none": np.zeros(shape, bool), "some": rng.random(shape) < 0.4, "all": np.ones(shape, bool),
            "nomask": np.ma.nomask}[kind]
    return np.ma.array(data, mask=mask), kd.ma.array(kd.asarray(data), mask=mask)


def _same(got, want):
    assert isinstance(got, kd.ma.MaskedArray)
    np.testing.assert_array_equal(kd.ma.getmaskarray(got).numpy(), np.ma.getmaskarray(want))
    np.testing.assert_array_equal(got.filled(0).numpy(), want.filled(0))
    assert (got.mask is kd.ma.nomask) == (want.mask is np.ma.nomask)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("kind", KINDS)
def test_shrink_mask(shape, kind):
    want, got = _pair(shape, kind)
    assert got.shrink_mask() is got
    _same(got, want.shrink_mask())


@pytest.mark.parametrize("shape", SHAPES[1:], ids=str)
@pytest.mark.parametrize("kind", KINDS)
def test_unshare_mask_detaches_a_view(shape, kind):
    want, got = _pair(shape, kind)
    want_view, got_view = want[:1], got[:1]
    assert got_view.unshare_mask() is got_view
    want_view.unshare_mask()
    got_view[0] = kd.ma.masked
    want_view[0] = np.ma.masked
    _same(got, want)  # the owner's mask did not change
    _same(got_view, want_view)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128, np.float32])
@pytest.mark.parametrize("kind", KINDS)
def test_get_real_get_imag(dtype, kind):
    rng = np.random.default_rng(3)
    data = (rng.normal(size=(3, 4)) + (1j * rng.normal(size=(3, 4)) if np.dtype(dtype).kind == "c" else 0))
    data = data.astype(dtype)
    mask = {"none": np.zeros((3, 4), bool), "some": rng.random((3, 4)) < 0.4, "all": np.ones((3, 4), bool),
            "nomask": np.ma.nomask}[kind]
    want, got = np.ma.array(data, mask=mask), kd.ma.array(kd.asarray(data), mask=mask)
    _same(got.get_real(), want.get_real())
    _same(got.get_imag(), want.get_imag())


def test_ids_and_iscontiguous():
    want, got = _pair((3, 4), "some")
    assert got.ids() == kd.ma.ids(got) and len(got.ids()) == 2
    assert got.iscontiguous() == want.iscontiguous()
    assert got.T.iscontiguous() == want.T.iscontiguous()
    assert got[:, ::2].iscontiguous() == want[:, ::2].iscontiguous()


def test_cleaning_idiom():
    clean = np.array([1.0, 2.0, 3.0])
    want = np.ma.masked_invalid(clean).shrink_mask()
    got = kd.ma.masked_invalid(kd.asarray(clean)).shrink_mask()
    assert (got.mask is kd.ma.nomask) == (want.mask is np.ma.nomask)
    assert not kd.ma.is_masked(got)
