"""NumPy's ufunc methods on kd.ma arrays (``np.add.reduce(x)``, ``np.maximum.accumulate``, ``np.add.reduceat``,
``np.multiply.outer``, ``np.add.at``) and kdsl's (``kd.add.reduce(x)``...) against NumPy's methods on numpy.ma
arrays: the folds run on the data (masked entries included) and give a masked array with nothing masked, ``outer``
masks a pair where either entry is masked, ``at`` writes the data in place and keeps the mask. NumPy's methods
raised an unhelpful TypeError on kd.ma arrays; kdsl's dropped the mask (``kd.add.outer(x, y)``: masked pairs
unmasked, silently) (kdsl/ma/ufunc_methods.py)."""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd

SHAPES = [(5,), (3, 4), (1,), (0,), (2, 3, 2)]
MASKS = ["nomask", "some", "all"]
DTYPES = [np.float64, np.int32, np.float32]


def _pair(shape, dtype, kind, seed=0, strided=False):
    rng = np.random.default_rng(seed)
    data = (rng.standard_normal(shape) * 5).astype(dtype)
    mask = {"nomask": np.ma.nomask, "some": rng.random(shape) < 0.4, "all": np.ones(shape, bool)}[kind]
    host = np.ma.array(data, mask=mask, fill_value=7)
    x = kd.ma.array(kd.asarray(data), mask=mask, fill_value=7)
    if strided and len(shape) >= 1:
        return host[::-1], x[::-1]
    return host, x


def _kind(r):
    """What a user can see of a result: its kind, dtype, shape, mask, data and fill value."""
    if isinstance(r, tuple):
        return tuple(_kind(x) for x in r)
    if isinstance(r, kd.ma.MaskedArray):
        return "masked", r.dtype.name, r.shape, kd.ma.getmaskarray(r).numpy().tolist(), \
            r.data.numpy().tolist(), r.fill_value.item()
    if isinstance(r, np.ma.MaskedArray):
        return "masked", r.dtype.name, r.shape, np.ma.getmaskarray(r).tolist(), np.asarray(r.data).tolist(), \
            r.fill_value.item()
    host = np.asarray(r.numpy() if isinstance(r, kd.Array) else r)
    return "plain", host.dtype.name, host.shape, host.tolist()


def _same(got, want):
    got, want = _kind(got), _kind(want)
    if want[0] == "masked" and want[1] == "bool":  # NumPy keeps a float fill value on a comparison's bool result
        got, want = got[:5] + (None,), want[:5] + (None,)  # (np.less.outer(x, y).fill_value is 7.0); kd.ma's: True
    if want[0] == "masked" and isinstance(want[4], list):  # float sums: the order of additions may differ
        assert got[:4] == want[:4] and got[5] == want[5]
        np.testing.assert_allclose(np.asarray(got[4], float), np.asarray(want[4], float), rtol=1e-6)
    else:
        assert got == want or np.allclose(got[4], want[4], rtol=1e-6) and got[:4] == want[:4]


@pytest.mark.parametrize("method", ["reduce", "accumulate"])
@pytest.mark.parametrize("name", ["add", "maximum", "multiply"])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("kind", MASKS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_folds_run_on_the_data(method, name, shape, kind, dtype):
    host, x = _pair(shape, dtype, kind, strided=True)
    if name == "maximum" and host.size == 0 and method == "reduce":
        return  # NumPy's ValueError (no identity): tested below
    want = getattr(getattr(np, name), method)(host)
    _same(getattr(getattr(np, name), method)(x), want)
    _same(getattr(getattr(kd, name), method)(x), want)


def test_fold_arguments_and_errors():
    host, x = _pair((3, 4), np.float64, "some", seed=2)
    for kwargs in ({"axis": None}, {"axis": 1, "keepdims": True}, {"axis": (0, 1)}, {"axis": 0, "initial": 10.0},
                   {"axis": 1, "where": np.array([True, False, True, True])}, {"axis": 1, "dtype": np.float32}):
        _same(np.add.reduce(x, **kwargs), np.add.reduce(host, **kwargs))
        _same(kd.add.reduce(x, **kwargs), np.add.reduce(host, **kwargs))
    _same(np.add.reduceat(x, [0, 2, 1], axis=1), np.add.reduceat(host, [0, 2, 1], axis=1))
    _same(kd.minimum.reduceat(x, [0, 2], axis=0), np.minimum.reduceat(host, [0, 2], axis=0))
    out = kd.zeros(4, dtype=kd.float64)
    assert np.add.reduce(x, axis=0, out=out) is out  # NumPy's out= is the result itself
    np.testing.assert_allclose(out.numpy(), np.add.reduce(host.data, axis=0))
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum which has no identity"):
        np.maximum.reduce(np.ma.array(np.zeros(0)))
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum which has no identity"):
        kd.maximum.reduce(kd.ma.array(kd.zeros(0)))


@pytest.mark.parametrize("name", ["add", "multiply", "less", "divmod"])
@pytest.mark.parametrize(("shape_a", "shape_b"), [((3,), (4,)), ((2, 2), (3,)), ((0,), (2,)), ((1,), (1,))])
@pytest.mark.parametrize(("kind_a", "kind_b"), [("some", "nomask"), ("nomask", "some"), ("all", "some"),
                                                ("nomask", "nomask")])
def test_outer_masks_each_pair(name, shape_a, shape_b, kind_a, kind_b):
    (ha, a), (hb, b) = _pair(shape_a, np.float64, kind_a, 3), _pair(shape_b, np.float64, kind_b, 4)
    want = getattr(np, name).outer(ha, hb)
    _same(getattr(np, name).outer(a, b), want)
    _same(getattr(kd, name).outer(a, b), want)


def test_outer_with_a_plain_operand():
    ha, a = _pair((3,), np.float32, "some", 5)
    plain = np.array([1.0, -2.0], np.float32)
    _same(kd.add.outer(a, kd.asarray(plain)), np.add.outer(ha, plain))
    _same(kd.add.outer(kd.asarray(plain), a), np.add.outer(plain, ha))
    _same(np.subtract.outer(plain, a), np.subtract.outer(plain, ha))
    _same(kd.multiply.outer(kd.ma.masked, a), np.multiply.outer(np.ma.masked, ha))


@pytest.mark.parametrize("kind", MASKS)
@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_at_updates_the_data_and_keeps_the_mask(kind, dtype):
    for fn in (np, kd):
        host, x = _pair((3, 4), dtype, kind, 6)
        np.add.at(host, ([0, 0, 2], [1, 1, 3]), 3)
        fn.add.at(x, ([0, 0, 2], [1, 1, 3]), 3)
        _same(x, host)
        np.maximum.at(host, [1, 1], np.ma.array(np.full(4, 2, dtype), mask=[0, 1, 0, 0]))
        fn.maximum.at(x, [1, 1], kd.ma.array(kd.full(4, 2, dtype=dtype), mask=[0, 1, 0, 0]))
        _same(x, host)
        np.negative.at(host, [2])
        fn.negative.at(x, [2])
        _same(x, host)


def test_at_of_a_plain_target_with_masked_values():
    target = np.ones(3)
    values = np.ma.array([3.0, 4.0], mask=[1, 0])
    np.add.at(target, [1, 1], values)
    for fn in (np, kd):
        x = kd.ones(3, dtype=kd.float64)
        fn.add.at(x, [1, 1], kd.ma.array(kd.asarray(values.data), mask=values.mask))
        np.testing.assert_array_equal(x.numpy(), target)
