"""``np.ma.array([G[0], G[1]])`` (rows of a masked array joined into a new one) and ``np.ma.array([1.0,
np.ma.masked, 3.0])`` dropped the items' masks in kdsl: the masked entries printed as their data (NaN) and
counted in means, silently. ``kd.ma.array`` of a list or tuple now takes numpy.ma's mask of the items
(``masked`` itself masked, plain items not; nested or ragged items, and ``keep_mask=False``, give ``nomask`` as
NumPy's; kdsl/ma/masked_array._sequence_mask)."""

import warnings

import numpy as np
import pytest

import kdsl as kd

ROWS = np.array([[1.5, -2.0, 4.0, 0.5], [3.0, 1.0, -1.0, 2.5], [0.0, 7.0, 2.0, -3.5]])


def _rows(xp, masks):
    out = []
    for row, m in zip(ROWS, masks, strict=True):
        data = xp.asarray(row)
        out.append(data if m is None else xp.ma.array(data, mask=m))
    return out


MASK_SETS = {
    "first_masked": [[0, 1, 0, 0], None, None],
    "all_plain": [None, None, None],
    "unmasked_mask": [[0, 0, 0, 0], None, [0, 0, 0, 0]],
    "several": [[1, 0, 0, 1], [0, 0, 0, 0], [1, 1, 1, 1]],
}


def _same(got, want):
    assert isinstance(got, kd.ma.MaskedArray)
    assert (got.mask is kd.ma.nomask) == (want.mask is np.ma.nomask)
    np.testing.assert_array_equal(kd.ma.getmaskarray(got).numpy(), np.ma.getmaskarray(want))
    np.testing.assert_allclose(got.filled(-9).numpy(), want.filled(-9))
    assert str(got) == str(want)


@pytest.mark.parametrize("name", MASK_SETS)
@pytest.mark.parametrize("container", [list, tuple])
def test_rows_keep_their_masks(name, container):
    want = np.ma.array(container(_rows(np, MASK_SETS[name])))
    got = kd.ma.array(container(_rows(kd, MASK_SETS[name])))
    _same(got, want)
    np.testing.assert_allclose(got.mean(axis=0).filled(0).numpy(), want.mean(axis=0).filled(0))


@pytest.mark.parametrize("items", [[1.0, np.ma.masked, 3.0], [np.ma.masked, np.ma.masked], [2.5],
                                   [1.0, 2.0], [[1.0, np.ma.masked], [2.0, 3.0]]], ids=str)
def test_masked_constant_among_numbers(items):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "converting a masked element to nan", both libraries
        want, got = np.ma.array(items), kd.ma.array(items)
    _same(got, want)


def test_numpy_masked_rows_and_keep_mask_false():
    rows = [np.ma.array(ROWS[0], mask=[0, 0, 1, 0]), ROWS[1]]
    _same(kd.ma.array(rows), np.ma.array(rows))
    rows_kd = _rows(kd, MASK_SETS["first_masked"])
    rows_np = _rows(np, MASK_SETS["first_masked"])
    _same(kd.ma.array(rows_kd, keep_mask=False), np.ma.array(rows_np, keep_mask=False))


def test_explicit_mask_wins():
    rows_kd, rows_np = _rows(kd, MASK_SETS["first_masked"]), _rows(np, MASK_SETS["first_masked"])
    m = np.zeros(ROWS.shape, bool)
    m[2, 3] = True
    _same(kd.ma.array(rows_kd, mask=m), np.ma.array(rows_np, mask=m))


def test_ragged_rows_refused_as_numpy():
    with pytest.raises(ValueError):
        np.ma.array([np.ma.array([1.0, 2.0], mask=[0, 1]), np.array([1.0])])
    with pytest.raises(ValueError):
        kd.ma.array([kd.ma.array(kd.asarray([1.0, 2.0]), mask=[0, 1]), kd.asarray([1.0])])
