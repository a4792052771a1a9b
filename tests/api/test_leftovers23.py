"""Small correctness gaps, each against NumPy 2 (the oracle): numpy.ma's shrunk masks (``nomask`` where nothing
is masked) and carried fill values, ..."""

import re

import numpy as np
import pytest

import kdsl as kd

_A, _B = np.array([1.0, -2.0, 3.0]), np.array([0.0, 5.0, -1.0])
_OPERANDS = {  # how each operand is made, from NumPy's or kd's namespace
    "all_false": lambda lib, x: lib.ma.array(x, mask=[False] * 3),
    "nomask": lambda lib, x: lib.ma.array(x),
    "masked": lambda lib, x: lib.ma.array(x, mask=[True, False, False]),
    "filled7": lambda lib, x: lib.ma.array(x, mask=[False, True, False], fill_value=7.0),
    "plain": lambda lib, x: x if lib is np else kd.asarray(x),
}
_MASKED_OPS = {
    "concatenate": lambda lib, x, y: lib.ma.concatenate([x, y]),
    "where": lambda lib, x, y: lib.ma.where(lib.asarray([True, False, True]), x, y),
    "clip": lambda lib, x, y: lib.ma.clip(x, -1.0, y),
    "maximum": lambda lib, x, y: lib.ma.maximum(x, y),
    "minimum": lambda lib, x, y: lib.ma.minimum(x, y),
    "eq": lambda lib, x, y: x == y,
    "ne": lambda lib, x, y: x != y,
    "outer": lambda lib, x, y: lib.ma.outer(x, y),
    "add": lambda lib, x, y: lib.ma.add(x, y),
}


def _masked_summary(r, lib):
    """What a masked result shows: nomask or not, the full mask, the data where unmasked, the fill value."""
    mask = np.asarray(lib.ma.getmaskarray(r))
    data = np.where(mask, 0, np.asarray(lib.ma.getdata(r)))
    return lib.ma.getmask(r) is lib.ma.nomask, mask.tolist(), data.tolist(), np.asarray(r.fill_value).item()


@pytest.mark.parametrize("op", sorted(_MASKED_OPS))
def test_masked_results_shrink_masks_and_carry_fill_values_as_numpy(op):
    fn = _MASKED_OPS[op]
    for first, make_a in _OPERANDS.items():
        for second, make_b in _OPERANDS.items():
            if first == second == "plain":
                continue
            want = _masked_summary(fn(np, make_a(np, _A), make_b(np, _B)), np)
            got = _masked_summary(fn(kd, make_a(kd, _A), make_b(kd, _B)), kd)
            assert got == want, (first, second)


def _put(lib, x):
    lib.ma.put(x, [0], 9.0)
    return x


_MASKED_FUNCTIONS = {  # one operand: numpy.ma's shrunk mask (diff, put, a 0-d dot) or kept one (unique, ediff1d),
    # the fill value kept (astype, var) or not (take)
    "diff": lambda lib, x: lib.ma.diff(x),
    "ediff1d": lambda lib, x: lib.ma.ediff1d(x, to_begin=5.0),
    "unique": lambda lib, x: lib.ma.unique(x),
    "dot": lambda lib, x: lib.ma.dot(x, x),
    "put": _put,
    "choose": lambda lib, x: lib.ma.choose([0, 1, 0], [x, x[::-1]]),
    "mod": lambda lib, x: x % 2.0,
    "pow": lambda lib, x: x ** 2.0,
    "astype": lambda lib, x: x.astype(lib.float32),
    "var": lambda lib, x: lib.ma.var(lib.ma.stack([x, x + 1.0]), axis=0),
    "take": lambda lib, x: lib.ma.take(x, [2, 0]),
}


@pytest.mark.parametrize("fn", sorted(_MASKED_FUNCTIONS))
def test_masked_functions_keep_or_shrink_masks_as_numpy(fn):
    for name in ("all_false", "nomask", "masked", "filled7"):
        want = _masked_summary(_MASKED_FUNCTIONS[fn](np, _OPERANDS[name](np, _A)), np)
        got = _masked_summary(_MASKED_FUNCTIONS[fn](kd, _OPERANDS[name](kd, _A)), kd)
        assert got == want, name


@pytest.mark.parametrize("ufunc", ["add", "maximum", "sqrt", "negative"])
def test_numpy_and_kd_ufuncs_of_masked_arrays_give_numpys_ufunc_masks(ufunc):
    # NumPy's ufunc (not np.ma's function): a binary one shrinks the masks' union, a unary one keeps a full mask
    for first in ("all_false", "nomask", "masked", "filled7"):
        for second in (("all_false", "plain", "filled7") if ufunc in ("add", "maximum") else (None,)):
            def run(lib, call, first=first, second=second):
                operands = [_OPERANDS[first](lib, _A)] + ([_OPERANDS[second](lib, _B)] if second else [])
                return _masked_summary(getattr(call, ufunc)(*operands), lib)
            with np.errstate(invalid="ignore"):  # NumPy's sqrt of -2.0 warns
                want = run(np, np)
            assert run(kd, np) == want and run(kd, kd) == want, (first, second)


@pytest.mark.parametrize("fn", ["intersect1d", "setxor1d", "setdiff1d", "union1d"])
def test_masked_set_functions_keep_numpys_mask_arrays(fn):
    for first in ("all_false", "nomask", "masked"):
        for second in ("all_false", "masked", "plain"):
            want = _masked_summary(getattr(np.ma, fn)(_OPERANDS[first](np, _A), _OPERANDS[second](np, _B)), np)
            got = _masked_summary(getattr(kd.ma, fn)(_OPERANDS[first](kd, _A), _OPERANDS[second](kd, _B)), kd)
            assert got == want, (first, second)


def test_clip_of_a_plain_array_by_masked_bounds_is_masked():
    hi = kd.ma.array([0.0, 5.0, -1.0], mask=[True, False, False], fill_value=9.0)
    r = kd.clip(kd.asarray(_A), -1.0, hi)  # NumPy's clip of an ndarray by a masked bound: a masked array
    assert r.mask.tolist() == [True, False, False] and r.fill_value == 9.0
    assert r.compressed().tolist() == [-1.0, -1.0]
    assert kd.clip(kd.asarray(_A), min=-1.0, max=hi).mask.tolist() == [True, False, False]  # by keyword too


_ZEROS = np.array([-0.0, 0.0, -0.0, np.nan, 2.0, -3.0])


@pytest.mark.parametrize("lo,hi", [(0.0, 1.0), (-1.0, -0.0), (-0.0, 0.0), (0.0, -0.0), (0.0, None), (None, -0.0),
                                   ("array", 1.0), (np.nan, 1.0)])
def test_clip_gives_numpys_signed_zeros(lo, hi):
    # NumPy's loop for two scalar bounds keeps x at a tie; array bounds and one-sided clips give the bound
    want = np.clip(_ZEROS, np.zeros(6) if lo == "array" else lo, hi)
    got = np.asarray(kd.clip(kd.asarray(_ZEROS), kd.zeros(6, dtype=kd.float64) if lo == "array" else lo, hi))
    np.testing.assert_array_equal(got, want)
    assert np.signbit(got).tolist() == np.signbit(want).tolist()


def test_stable_sort_and_unique_keep_the_first_signed_zero():
    y = np.array([0.0, -0.0, 1.0, -0.0, 0.0, -1.0], np.float32)
    assert np.signbit(np.asarray(kd.sort(kd.asarray(y)))).tolist() == np.signbit(np.sort(y, kind="stable")).tolist()
    assert kd.argsort(kd.asarray(y)).tolist() == np.argsort(y, kind="stable").tolist()
    assert np.signbit(np.asarray(kd.unique(kd.asarray(y[1:])))).tolist() == [True, True, False]  # -0.0 came first


_NONE = np.zeros(0, np.int64)
_EMPTY_KEYS = {  # an out-of-bounds index beside one that broadcasts to nothing, or a slice selecting nothing
    "array_and_empty_array": lambda lib: (lib.asarray([9]), lib.asarray(_NONE)),
    "list_and_empty_list": lambda lib: ([9], []),
    "empty_column_and_array": lambda lib: (lib.asarray(np.zeros((0, 1), np.int64)), lib.asarray([9])),
    "empty_mask_and_array": lambda lib: (lib.asarray(np.zeros(3, bool)), lib.asarray([9])),
    "array_and_empty_slice": lambda lib: (lib.asarray([9]), slice(0, 0)),
    "array_alone": lambda lib: (lib.asarray([9]),),
}


def _outcome(fn):
    try:
        result = fn()
    except IndexError as e:
        return str(e)
    return None if result is None else np.shape(result)


@pytest.mark.parametrize("key", sorted(_EMPTY_KEYS))
def test_out_of_bounds_index_that_selects_nothing_is_numpys_outcome(key):
    def run(lib, how):
        a = lib.zeros((3, 4))
        k = _EMPTY_KEYS[key](lib)
        if how == "get":
            return lambda: a[k]
        if how == "set":
            return lambda: a.__setitem__(k, 1.0)
        return lambda: lib.add.at(a, k, 1.0)
    for how in ("get", "set", "at"):
        assert _outcome(run(kd, how)) == _outcome(run(np, how)), how


@pytest.mark.parametrize("shape,spacing,kwargs", [
    ((1,), ([1.0],), {}), ((1, 3), ([1.0], [0.0, 1.0, 2.0]), {}), ((1, 3), ([1.0],), {"axis": 0}),
    ((1,), ([1.0],), {"edge_order": 2}), ((2,), ([0.0, 1.0],), {"edge_order": 2}), ((1,), (2.0,), {}),
])
def test_gradient_on_too_short_axes_raises_numpys_error(shape, spacing, kwargs):
    with pytest.raises((IndexError, ValueError)) as want:
        np.gradient(np.ones(shape), *[np.asarray(s) for s in spacing], **kwargs)
    for given in (np.asarray, kd.asarray):  # host coordinates and device ones alike
        with pytest.raises(want.type, match=re.escape(want.value.args[0])):
            kd.gradient(kd.ones(shape), *[given(s) for s in spacing], **kwargs)


def test_unread_out_keeps_only_the_warning_of_its_current_values():
    import warnings
    out = kd.zeros(2, dtype=kd.float32)
    for i in range(30):  # each call writes over out: the conditions of the values gone can never warn
        kd.nanmax(kd.asarray(np.array([[np.nan, i], [np.nan, 1.0]], np.float32)), axis=0, out=out)
    assert len(out._read_warnings) == 1  # held: one lazy condition (and its inputs), not one per call
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert np.isnan(out.tolist()[0])
    assert [str(w.message) for w in caught] == ["All-NaN slice encountered"]


@pytest.mark.parametrize("shape", [(3, 4), (1, 3), (3, 1)])
def test_einsum_diagonal_of_unequal_axes_raises_numpys_error(shape):
    with pytest.raises(ValueError) as want:
        np.einsum("ii->i", np.ones(shape))
    with pytest.raises(ValueError, match=re.escape(str(want.value))):  # (1, 3) broadcast silently before
        kd.einsum("ii->i", kd.ones(shape))


@pytest.mark.parametrize("dtype,values", [
    (np.int64, np.nan), (np.int64, np.inf), (np.int8, (1, 200)), (np.uint8, 300), (np.int64, 2.7),
    (np.float64, None), (np.int64, None), (np.bool_, [None, 1.0]),
])
def test_pad_constant_values_are_stored_as_numpy_stores_them(dtype, values):
    a = np.array([1, 2], dtype)
    outcome = []
    for lib in (np, kd):
        try:
            outcome.append(np.asarray(lib.pad(lib.asarray(a), 1, constant_values=values)).tolist())
        except (ValueError, OverflowError, TypeError) as e:  # NaN into ints was a silent INT_MIN before
            outcome.append(type(e))
    assert repr(outcome[1]) == repr(outcome[0])  # (repr: NaN equals NaN)


@pytest.mark.parametrize("weights", [[0.0, 1.0, 0.0], [1.0, 1.0, -1.0], [1.0, 1.0, 1.0]])
def test_masked_average_with_zero_weight_sum_is_numpys_scalar_division(weights):
    with np.errstate(all="ignore"):
        want = np.ma.average(np.ma.array([1.0, 2.0, 3.0], mask=[0, 1, 0]), weights=weights)
    got = kd.ma.average(kd.ma.array([1.0, 2.0, 3.0], mask=[0, 1, 0]), weights=weights)  # was masked
    np.testing.assert_array_equal(np.asarray(got), want)
    assert kd.ma.average(kd.ma.array([1.0, 2.0], mask=[1, 1]), weights=[1.0, 1.0]) is kd.ma.masked


def test_masked_array_compared_with_none_is_elementwise():
    x = kd.ma.array([1.0, 2.0], mask=[True, False])
    want = np.ma.array([1.0, 2.0], mask=[True, False]) != None  # noqa: E711 - NumPy's elementwise comparison
    got = x != None  # noqa: E711
    assert got.mask.tolist() == want.mask.tolist() and got.filled(False).tolist() == want.filled(False).tolist()
