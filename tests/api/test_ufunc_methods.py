"""NumPy's ufunc methods on kdsl's binary functions (kdsl/frontend/array/ufunc_methods.py) against NumPy."""

import math

import numpy as np
import pytest

import kdsl as kd

OUTER = ["add", "subtract", "multiply", "maximum", "minimum", "power", "equal", "less", "greater_equal",
         "logical_and", "bitwise_xor", "arctan2", "hypot", "floor_divide", "mod"]


@pytest.mark.parametrize("name", OUTER)
@pytest.mark.parametrize("shapes", [((3,), (4,)), ((2, 3), (4,)), ((0,), (2,)), ((1,), (2, 2))])
def test_outer(name, shapes):
    rng = np.random.default_rng(0)
    a = rng.integers(1, 6, shapes[0]).astype(np.int32)
    b = rng.integers(1, 6, shapes[1]).astype(np.int32)
    if name in ("arctan2", "hypot"):
        a, b = a.astype(np.float32), b.astype(np.float32)
    got = getattr(kd, name).outer(kd.asarray(a), kd.asarray(b))
    expected = getattr(np, name).outer(a, b)
    assert got.shape == expected.shape
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)


def test_outer_of_strided_views_and_lists():
    host = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    got = kd.subtract.outer(kd.asarray(host)[:, ::2].T, [1.0, 2.0])
    np.testing.assert_allclose(got.numpy(), np.subtract.outer(host[:, ::2].T, [1.0, 2.0]))


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "logical_and", "logical_or", "fmax"])
@pytest.mark.parametrize("axis", [0, 1, None, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reduce(name, axis, keepdims):
    host = np.random.default_rng(1).uniform(0.5, 1.5, (3, 4)).astype(np.float32)
    if name.startswith("logical"):
        host = host > 1.0
    got = getattr(kd, name).reduce(kd.asarray(host), axis=axis, keepdims=keepdims)
    expected = getattr(np, name).reduce(host, axis=axis, keepdims=keepdims)
    assert got.shape == np.shape(expected)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-5)


def test_reduce_defaults_to_axis_0_and_takes_dtype():
    host = np.arange(6, dtype=np.int8).reshape(2, 3) * 40
    np.testing.assert_array_equal(kd.add.reduce(kd.asarray(host)).numpy(), np.add.reduce(host))
    got = kd.add.reduce(kd.asarray(host), axis=1, dtype=kd.int32)
    np.testing.assert_array_equal(got.numpy(), np.add.reduce(host, axis=1, dtype=np.int32))


@pytest.mark.parametrize("name", ["add", "multiply"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_accumulate(name, axis):
    host = np.arange(1, 13, dtype=np.float32).reshape(3, 4) / 4
    got = getattr(kd, name).accumulate(kd.asarray(host)[:, ::-1], axis=axis)
    np.testing.assert_allclose(got.numpy(), getattr(np, name).accumulate(host[:, ::-1], axis=axis), rtol=1e-5)


@pytest.mark.parametrize("name", ["maximum", "minimum", "fmax", "logical_or", "logical_and", "bitwise_xor"])
@pytest.mark.parametrize("shape,axis", [((3, 13), 1), ((5, 2), 0), ((1,), 0), ((0, 3), 1), ((4, 3), -2)])
def test_accumulate_by_doubling(name, shape, axis):
    host = np.random.default_rng(2).integers(0, 9, shape).astype(np.int32)
    if name == "fmax":
        host = host.astype(np.float32)
        host.flat[::3] = np.nan
    if name.startswith("logical"):
        host = host > 4
    got = getattr(kd, name).accumulate(kd.asarray(host), axis=axis)
    expected = getattr(np, name).accumulate(host, axis=axis)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got.numpy(), expected)


@pytest.mark.parametrize("name", ["bitwise_and", "bitwise_or", "bitwise_xor", "logical_xor", "gcd", "lcm"])
@pytest.mark.parametrize("dtype", ["int32", "uint8", "bool"])
@pytest.mark.parametrize("shape,axis,keepdims", [((5, 7), 1, False), ((3, 4, 5), (0, 2), True), ((6,), None, False),
                                                 ((4, 0), 1, True), ((2, 3, 1), -1, False), ((), None, False)])
def test_reduce_by_halves(name, dtype, shape, axis, keepdims):
    if name in ("gcd", "lcm") and dtype == "bool":  # NumPy has no gcd/lcm of booleans: its TypeError, ours too
        for xp, data in ((np, np.ones(shape, bool)), (kd, kd.ones(shape, dtype=bool))):
            with pytest.raises(TypeError, match=f"ufunc '{name}' did not contain a loop"):
                getattr(xp, name).reduce(data, axis=axis, keepdims=keepdims)
        return
    # lcm's small range: a wrapped (overflowed) lcm depends on the order of the fold
    host = np.random.default_rng(4).integers(*((1, 5) if name == "lcm" else (-20, 40)), shape).astype(dtype)
    expected_fn = lambda: getattr(np, name).reduce(host, axis=axis, keepdims=keepdims)  # noqa: E731
    got_fn = lambda: getattr(kd, name).reduce(kd.asarray(host)[...], axis=axis, keepdims=keepdims)  # noqa: E731
    try:
        expected = expected_fn()
    except ValueError as e:  # lcm: no identity for an empty axis, not reorderable over two axes
        with pytest.raises(ValueError, match=str(e).split(" ")[0]):
            got_fn()
        return
    got = got_fn()
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got.numpy(), expected)


@pytest.mark.parametrize("name", ["gcd", "bitwise_or", "bitwise_and", "lcm", "logaddexp", "logaddexp2"])
@pytest.mark.parametrize("shape,axis,keepdims", [((2, 3), 0, False), ((2, 3), 1, True), ((0, 2), 0, False),
                                                 ((0, 2), 0, True), ((2, 0), None, False)])
def test_folded_reduce_initial(name, shape, axis, keepdims):
    host = np.arange(1, 1 + math.prod(shape), dtype=np.int32).reshape(shape) * 3
    if name == "lcm" and axis is None:  # lcm is not reorderable over several axes: NumPy's ValueError, ours too
        for xp in (np, kd):
            with pytest.raises(ValueError, match="'lcm' is not reorderable"):
                xp.lcm.reduce(xp.asarray(host), axis=axis, keepdims=keepdims, initial=4)
        return
    if name.startswith("logaddexp"):
        host = host.astype(np.float32)
    expected = getattr(np, name).reduce(host, axis=axis, keepdims=keepdims, initial=4)
    got = getattr(kd, name).reduce(kd.asarray(host), axis=axis, keepdims=keepdims, initial=4)
    assert got.shape == expected.shape and got.dtype.kind == expected.dtype.kind
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)


def test_folded_reduce_where():
    """NumPy's where= on the by-halves folds: masked-out elements count as the identity."""
    got = kd.bitwise_or.reduce(kd.arange(4), where=kd.arange(4) > 1)
    assert got.item() == np.bitwise_or.reduce(np.arange(4), where=np.arange(4) > 1)


def test_reduce_by_halves_of_views_and_axis_errors():
    host = np.arange(1, 25, dtype=np.int32).reshape(4, 6)
    np.testing.assert_array_equal(kd.bitwise_or.reduce(kd.asarray(host)[::2, ::-1].T, axis=1).numpy(),
                                  np.bitwise_or.reduce(host[::2, ::-1].T, axis=1))
    np.testing.assert_array_equal(kd.gcd.reduce(kd.asarray([[-12]]), axis=0).numpy(),
                                  np.gcd.reduce(np.array([[-12]]), axis=0))
    with pytest.raises(np.exceptions.AxisError):
        kd.bitwise_xor.reduce(kd.asarray(host), axis=2)


@pytest.mark.parametrize("name", ["logaddexp", "logaddexp2"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
@pytest.mark.parametrize("axis,keepdims", [(0, False), (1, True), (None, False), ((0, 1), True), (-1, False)])
def test_log_reduce_and_accumulate(name, dtype, axis, keepdims):
    host = (np.random.default_rng(3).normal(size=(4, 6)) * 30).astype(dtype)[:, ::-1]
    ufunc = getattr(kd, name)
    got, expected = ufunc.reduce(kd.asarray(host), axis=axis, keepdims=keepdims), getattr(np, name).reduce(
        host, axis=axis, keepdims=keepdims)
    assert got.dtype.kind == expected.dtype.kind and got.shape == expected.shape
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-5)
    if axis in (0, 1, -1):
        got = ufunc.accumulate(kd.asarray(host), axis=axis)
        np.testing.assert_allclose(got.numpy(), getattr(np, name).accumulate(host, axis=axis), rtol=1e-5)


@pytest.mark.parametrize("values", [[-np.inf, -np.inf], [np.inf, 1.0], [np.nan, 2.0], [-np.inf, 3.0], [1e30, 1e30]])
def test_log_reduce_special_values(values):
    host = np.array(values, np.float32)
    for name in ("logaddexp", "logaddexp2"):
        with np.errstate(invalid="ignore", over="ignore"):
            expected = getattr(np, name).reduce(host)
        np.testing.assert_allclose(getattr(kd, name).reduce(kd.asarray(host)).numpy(), expected, rtol=1e-6)


@pytest.mark.parametrize("shape,axis", [((0,), 0), ((0, 3), 0), ((2, 0), 1), ((2, 0), None)])
def test_log_reduce_of_empty_is_the_identity(shape, axis):
    for name in ("logaddexp", "logaddexp2"):
        expected = getattr(np, name).reduce(np.zeros(shape, np.float32), axis=axis)
        got = getattr(kd, name).reduce(kd.zeros(shape), axis=axis)
        assert got.shape == expected.shape and getattr(kd, name).identity == getattr(np, name).identity
        np.testing.assert_array_equal(got.numpy(), expected)


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "logical_or"])
@pytest.mark.parametrize("indices,axis", [([0, 4, 1, 5], 0), ([0], 1), ([2, 2, 0], 1), ([3, 1], -1), ([0, 1, 2], 0)])
def test_reduceat(name, indices, axis):
    host = (np.arange(1, 49, dtype=np.float32).reshape(8, 6) % 7) / 3
    if name == "logical_or":
        host = host > 1
    got = getattr(kd, name).reduceat(kd.asarray(host)[:, ::-1], indices, axis=axis)
    expected = getattr(np, name).reduceat(host[:, ::-1], indices, axis=axis)
    assert got.shape == expected.shape
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-5)


def test_reduceat_errors():
    with pytest.raises(IndexError, match="out-of-bounds"):
        kd.add.reduceat(kd.arange(4), [0, 4])
    with pytest.raises(TypeError, match="ldexp.reduceat"):
        kd.ldexp.reduceat(kd.arange(4), [0])


def test_out_writes_a_kdsl_array():
    out = kd.zeros(3)
    assert kd.add.reduce(kd.ones((2, 3)), out=out) is out
    np.testing.assert_array_equal(out.numpy(), [2.0, 2.0, 2.0])


def test_calls_and_at_unchanged():
    a = kd.zeros(3)
    kd.add.at(a, [0, 0, 2], 1.0)
    np.testing.assert_array_equal(a.numpy(), [2.0, 0.0, 1.0])
    assert kd.multiply(kd.asarray([2, 3]), 4).tolist() == [8, 12]
    assert (kd.add.nin, kd.add.nout, kd.add.identity, kd.multiply.identity, kd.maximum.identity) == \
        (np.add.nin, np.add.nout, np.add.identity, np.multiply.identity, np.maximum.identity)


@pytest.mark.parametrize("call", [lambda: kd.ldexp.reduce(kd.ones(3)), lambda: kd.ldexp.accumulate(kd.ones(3))])
def test_missing_methods_name_the_ones_there(call):
    with pytest.raises(TypeError, match="kdsl has no .*it has"):
        call()


UNARY = ["exp", "sqrt", "negative", "abs", "floor", "isnan", "sin", "logical_not", "square"]


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("view", ["whole", "strided"])
def test_unary_out_in_place(name, view):
    host = np.random.default_rng(3).uniform(0.5, 4, (4, 6)).astype(np.float32)
    a = kd.asarray(host)
    target, expected = (a, host.copy()) if view == "whole" else (a[:, ::2], host.copy())
    ref = expected if view == "whole" else expected[:, ::2]
    got = getattr(kd, name)(target, out=target)
    getattr(np, name)(ref, out=ref)
    assert got is target
    np.testing.assert_allclose(a.numpy(), expected, rtol=1e-6)


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "maximum", "power", "arctan2"])
def test_binary_out_where_dtype(name):
    rng = np.random.default_rng(4)
    x, y = rng.uniform(0.5, 3, (3, 4)).astype(np.float32), rng.uniform(0.5, 3, (4,)).astype(np.float32)
    cond = x > 1.5
    out, ref = kd.asarray(-np.ones((3, 4), np.float32)), -np.ones((3, 4), np.float32)
    got = getattr(kd, name)(kd.asarray(x), kd.asarray(y), out=out, where=kd.asarray(cond))
    getattr(np, name)(x, y, out=ref, where=cond)
    assert got is out
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-6)
    np.testing.assert_allclose(getattr(kd, name)(kd.asarray(x), y, dtype=kd.float64).numpy(),
                               getattr(np, name)(x, y, dtype=np.float64), rtol=1e-6)


def test_call_keywords_errors_and_tuples():
    a = kd.arange(3)
    with pytest.raises(TypeError, match=r"Cannot cast ufunc 'add' output from dtype\('float32'\) to dtype\('int32'\)"):
        kd.add(a, 1.5, out=a)
    with pytest.raises(ValueError, match="non-broadcastable output"):
        kd.add(kd.ones((2, 3)), 1, out=kd.zeros(3))
    with pytest.raises(TypeError, match="kdsl Array"):
        kd.exp(kd.ones(2), out=np.zeros(2, np.float32))
    q, r = kd.zeros(4, dtype=kd.int32), kd.zeros(4, dtype=kd.int32)
    hq, hr = np.zeros(4, np.int32), np.zeros(4, np.int32)
    kd.divmod(kd.asarray(np.array([-7, -1, 5, 9], np.int32)), 3, out=(q, r))
    np.divmod(np.array([-7, -1, 5, 9], np.int32), 3, out=(hq, hr))
    np.testing.assert_array_equal(q.numpy(), hq)
    np.testing.assert_array_equal(r.numpy(), hr)
    got = kd.add(kd.asarray(np.array([100], np.int8)), kd.asarray(np.array([100], np.int8)), dtype=kd.int32)
    np.testing.assert_array_equal(got.numpy(), np.add(np.int8([100]), np.int8([100]), dtype=np.int32))


def test_clip_out():
    host = np.array([-1.0, 0.5, 3.0], np.float32)
    a = kd.asarray(host)
    assert kd.clip(a, 0, 1, out=a) is a
    np.clip(host, 0, 1, out=host)
    np.testing.assert_array_equal(a.numpy(), host)
    b = kd.asarray(np.array([5.0, -5.0], np.float32))
    b[::-1].clip(-1, 1, b[::-1])
    np.testing.assert_array_equal(b.numpy(), [1.0, -1.0])


def test_every_numpy_ufunc_name_is_a_ufunc():
    for name in dir(kd):
        if isinstance(getattr(np, name, None), np.ufunc) and callable(getattr(kd, name)):
            fn = getattr(kd, name)
            assert (fn.nin, fn.nout) == (getattr(np, name).nin, getattr(np, name).nout), name


def test_divmod_outer_gives_both_outputs_as_numpy():
    # np.divmod.outer(a, b): both outputs of every pair (kdsl refused it as if divmod were a gufunc)
    a, b = np.array([7, -9, 4], np.int32), np.array([[2], [-4]], np.int32)
    for (q, r), (hq, hr) in ((kd.divmod.outer(kd.asarray(a), kd.asarray(b)), np.divmod.outer(a, b)),
                             (kd.divmod.outer(kd.asarray(a * 1.5), 2.5), np.divmod.outer(a * 1.5, 2.5))):
        assert q.shape == hq.shape and r.shape == hr.shape
        np.testing.assert_array_equal(q.numpy(), hq)
        np.testing.assert_allclose(r.numpy(), hr)
    with pytest.raises(TypeError, match="non-trivial signature"):
        kd.matmul.outer([1], [2])


@pytest.mark.parametrize("name, method, x", [("bitwise_xor", "accumulate", np.ones((4, 1))),
                                             ("bitwise_or", "reduce", np.ones(1)),
                                             ("gcd", "reduce", np.ones(1, bool)),
                                             ("logaddexp", "accumulate", np.ones((4, 1), bool)),
                                             ("hypot", "accumulate", np.array([3], np.int8))])
def test_length_one_folds_take_the_loop_type(name, method, x):
    """A fold or scan along a length-1 axis never applies the ufunc, but NumPy's result still has its loop's type
    (logaddexp of bools: float16) and a type without a loop is NumPy's TypeError."""
    try:
        expected = getattr(getattr(np, name), method)(x, axis=-1)
    except TypeError:
        with pytest.raises(TypeError):
            getattr(getattr(kd, name), method)(kd.asarray(x), axis=-1)
        return
    got = getattr(getattr(kd, name), method)(kd.asarray(x), axis=-1)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got.numpy(), expected)


FOLD_CALLS = {
    "max_dtype": lambda m, a: m.maximum.reduce(a, dtype=np.int64),  # TypeError: max() got dtype
    "min_dtype_wraps": lambda m, a: m.minimum.reduce((a * 100).astype(np.int16), dtype=np.int8),
    "max_bool_dtype_initial": lambda m, a: m.maximum.reduce(a > 0, dtype=np.int64, initial=0),
    "and_initial": lambda m, a: m.logical_and.reduce(a, axis=1, initial=0),  # TypeError: all() got initial
    "or_initial_where": lambda m, a: m.logical_or.reduce(a > 9, initial=1, where=a > 0),
    "bitwise_and_bool_initial": lambda m, a: m.bitwise_and.reduce(a > 0, axis=-1, keepdims=True, initial=1),
    "or_bool_dtype": lambda m, a: m.logical_or.reduce(a, axis=0, dtype=bool),  # TypeError: any() got dtype
    "and_bool_dtype_keepdims": lambda m, a: m.logical_and.reduce(a > 0, axis=1, dtype=np.bool_, keepdims=True),
    "or_bool_dtype_all_axes": lambda m, a: m.logical_or.reduce(a[:, :0], axis=None, dtype=bool),
}


@pytest.mark.parametrize("call", FOLD_CALLS)
def test_fold_dtype_and_initial(call):
    """dtype= of maximum/minimum.reduce, initial= of logical_and/or.reduce (TypeErrors), and initial stored in
    the result's dtype (bitwise_and.reduce of bools with initial=1 gave int32)."""
    host = np.array([[1.7, -2.5, 3.2], [0.0, 4.5, -1.0]])
    expected = FOLD_CALLS[call](np, host)
    got = FOLD_CALLS[call](kd, kd.asarray(host))
    assert got.dtype.name == np.asarray(expected).dtype.name
    np.testing.assert_array_equal(got.numpy(), expected)


@pytest.mark.parametrize("call", [lambda m, a: m.hypot.accumulate(a, dtype=np.int64),
                                  lambda m, a: m.logical_or.accumulate(a, dtype=np.float64),
                                  lambda m, a: m.bitwise_or.reduce(a.astype(np.uint8), dtype=np.float64),
                                  lambda m, a: m.logical_or.reduce(a, dtype=np.float64),
                                  lambda m, a: m.logical_and.reduce(a, dtype=int)])
def test_fold_dtype_without_a_loop(call):
    """A dtype NumPy has no loop for is its TypeError (kdsl computed hypot.accumulate in int64: garbage)."""
    host = np.array([1.5, 2.0, 3.0])
    with pytest.raises(TypeError, match="No loop matching"):
        call(np, host)
    with pytest.raises(TypeError, match="No loop matching"):
        call(kd, kd.asarray(host))


def test_at_of_a_type_without_the_ufunc():
    """np.subtract.at of a bool target is NumPy's TypeError (kdsl computed it); left_shift.at of floats too."""
    for target, ufunc, value in ((np.array([True, False, True]), "subtract", True), (np.array([1.0, 2.0]),
                                                                                    "left_shift", 1)):
        with pytest.raises(TypeError):
            getattr(np, ufunc).at(target.copy(), [0, 1], value)
        with pytest.raises(TypeError):
            getattr(kd, ufunc).at(kd.asarray(target), [0, 1], value)


def test_ufunc_names_are_numpys():
    """``np.abs.__name__`` is 'absolute' and ``np.conj.__name__`` 'conjugate' (kd's were 'abs' and 'conj': a
    program dispatching on ``ufunc.__name__`` in its ``__array_ufunc__`` missed them)."""
    names = [n for n in dir(np) if isinstance(getattr(np, n), np.ufunc) and hasattr(kd, n)]
    assert len(names) > 80
    for n in names:
        assert getattr(kd, n).__name__ == getattr(np, n).__name__, n
        assert getattr(kd, n).__qualname__ == getattr(np, n).__name__, n
