"""kd.add.at / subtract.at / maximum.at / minimum.at against NumPy's unbuffered ufunc.at: repeated indices
accumulate, negative indices wrap, out-of-bounds indices raise IndexError, a is updated in place."""

import numpy as np
import pytest

import kdsl as kd

UFUNCS = ["add", "subtract", "maximum", "minimum"]


def _check(name, a_host, idx, v, device_idx=False, exact=True):
    want = a_host.copy()
    with np.errstate(invalid="ignore"):  # inf - inf in the NaN/inf test
        getattr(np, name).at(want, idx, v)
    a = kd.asarray(a_host)
    before = a
    getattr(kd, name).at(a, kd.asarray(np.asarray(idx)) if device_idx else idx, v)
    got = a.numpy()
    assert got.dtype == want.dtype
    if exact:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    assert before is a  # updated in place


@pytest.mark.parametrize("name", UFUNCS)
@pytest.mark.parametrize("dtype", ["int32", "uint8", "float32", "int64", "float64"])
def test_duplicates_and_negative_indices(name, dtype):
    rng = np.random.default_rng(1)
    a = rng.integers(0, 50, 37).astype(dtype)
    idx = rng.integers(-37, 37, 200)
    v = rng.integers(0, 9, 200).astype(dtype)
    _check(name, a, idx, v, device_idx=dtype == "int32", exact=dtype not in ("float32",))


@pytest.mark.parametrize("name", UFUNCS)
def test_scalar_value_and_one_index(name):
    _check(name, np.arange(5, dtype=np.int32), [3, 3, -1, 0], 7)
    _check(name, np.arange(5, dtype=np.float32), 2, 1.5)


def test_float_sums_match_numpy_closely():
    rng = np.random.default_rng(2)
    a = rng.standard_normal(1000).astype(np.float32)
    idx = rng.integers(0, 1000, 5000)
    v = rng.standard_normal(5000).astype(np.float32)
    _check("add", a, idx, v, exact=False)
    _check("subtract", a, idx, v, exact=False)


def test_nan_and_inf_stay_in_their_own_slot():
    a = np.zeros(5, np.float32)
    idx = [0, 1, 1, 2, 3, 3, 4]
    v = np.array([np.nan, np.inf, 1.0, -np.inf, np.inf, -np.inf, 2.0], np.float32)
    _check("add", a, idx, v)
    _check("maximum", a, idx, v)
    _check("minimum", a, idx, v)
    _check("minimum", a, [4, 4, 4], np.array([1.0, np.nan, -3.0], np.float32))


def test_empty_indices_and_out_of_bounds():
    _check("add", np.arange(4, dtype=np.int32), [], 1)
    _check("add", np.arange(4, dtype=np.int32), np.zeros(0, np.int64), np.zeros(0, np.int32))
    a = kd.zeros(4, dtype=kd.int32)
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 0 with size 4"):
        kd.add.at(a, [0, 4], 1)
    with pytest.raises(IndexError, match="index -5 is out of bounds for axis 0 with size 4"):
        kd.maximum.at(a, kd.asarray([-5, 1]), 1)
    assert a.tolist() == [0, 0, 0, 0]  # nothing written


def test_bad_arguments():
    a = kd.zeros(3, dtype=kd.int32)
    with pytest.raises(IndexError, match="integer type"):
        kd.add.at(a, [0.0, 1.0], 1)
    with pytest.raises(ValueError, match="could not be broadcast"):
        kd.add.at(a, [0, 1], [1, 2, 3])
    with pytest.raises(IndexError, match="too many indices"):
        kd.add.at(kd.zeros((2, 2)), ([0], [0], [0]), 1.0)
    with pytest.raises(IndexError, match="0-dimensional"):  # NumPy's IndexError (a 0-d array takes () or ...)
        kd.add.at(kd.asarray(1.0), [0], 1.0)
    with pytest.raises(TypeError, match="kdsl Array"):
        kd.add.at(np.zeros(3), [0], 1.0)


def test_functions_still_call():
    x = kd.asarray([1, 5])
    assert kd.add(x, 1).tolist() == [2, 6] and kd.maximum(x, 3).tolist() == [3, 5]
    assert kd.subtract(x, x).tolist() == [0, 0] and kd.minimum(x, 3).tolist() == [1, 3]


def test_lazy_a_and_view_chain():
    a = kd.arange(6, dtype=kd.float32) * 2  # lazy, never realised before the update
    kd.add.at(a, kd.asarray([5, 5, 0]), kd.asarray([1.0, 2.0, 3.0], dtype=kd.float32))
    assert a.tolist() == [3.0, 2.0, 4.0, 6.0, 8.0, 13.0]


def test_a_view_writes_through_to_its_base():
    b = kd.zeros((2, 3), dtype=kd.int32)
    row = b[1]
    kd.add.at(row, [0, 0, 2], 1)
    assert b.tolist() == [[0, 0, 0], [2, 0, 1]]


@pytest.mark.parametrize("name", ["add", "subtract", "maximum", "minimum"])
def test_n_dimensional_targets(name):
    """np.add.at(a, (i, j), v) and friends: index arrays (and ints) on the leading axes, broadcast together,
    the remaining axes whole; repeated index tuples all apply."""
    rng = np.random.default_rng(21)
    a = rng.integers(-9, 9, (3, 4, 2)).astype(np.float32)
    i, j = np.array([0, 2, 2, -1, 0]), np.array([1, 3, 3, 3, -4])
    v = rng.integers(-5, 5, (5, 2)).astype(np.float32)
    for indices, values in [((i, j), v), ((i,), 1.0), (i, rng.integers(-5, 5, (5, 4, 2)).astype(np.float32)),
                            ((i[:, None], j[None, :2]), 2.0), ((1, j), v[:, :1]), ((i, kd.asarray(j), 0), 3.0)]:
        x = kd.asarray(a)
        getattr(kd, name).at(x, indices, values)
        host = [np.asarray(k.numpy() if isinstance(k, kd.Array) else k) for k in
                (indices if isinstance(indices, tuple) else (indices,))]
        want = a.copy()
        getattr(np, name).at(want, tuple(host) if isinstance(indices, tuple) else host[0], values)
        np.testing.assert_array_equal(x.numpy(), want)  # integer values: exact whatever the order


def test_n_dimensional_out_of_bounds_names_the_axis():
    x = kd.zeros((2, 3), dtype=kd.int32)
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 1 with size 3"):
        kd.add.at(x, ([0, 1], [1, 3]), 1)
    assert x.tolist() == [[0, 0, 0], [0, 0, 0]]


# ----- the other associative ufuncs (kdsl/frontend/array/scatter_segmented.py)

SEGMENTED = {"multiply": ["float32", "int32", "float64", "uint8"], "divide": ["float32", "float64"],
             "bitwise_and": ["int32", "uint8", "bool"], "bitwise_or": ["int32", "int64", "bool"],
             "bitwise_xor": ["int32", "uint16", "bool"], "logical_and": ["int32", "bool", "float32"],
             "logical_or": ["int32", "bool"], "logical_xor": ["int8", "bool"], "fmax": ["float32", "float64"],
             "fmin": ["float32"], "gcd": ["int32", "int64"], "lcm": ["int32", "int16"]}


def _segmented_case(name, dtype, shape, n_idx, seed):
    rng = np.random.default_rng(seed)
    hi = 3 if name in ("multiply", "lcm") else 7  # (products of a run stay inside every dtype)
    a = rng.integers(1, hi, shape).astype(dtype)
    v = rng.integers(1, hi, n_idx).astype(dtype)
    if np.dtype(dtype).kind == "f":
        v = v * rng.choice([-1.0, 1.0, 0.5], n_idx).astype(dtype)
        if name in ("fmax", "fmin", "multiply"):
            v[::7] = np.nan
            a.reshape(-1)[::5] = np.nan
    return a, v


@pytest.mark.parametrize("name,dtype", [(n, d) for n, ds in SEGMENTED.items() for d in ds])
@pytest.mark.parametrize("shape,n_idx", [((20,), 37), ((5,), 1), ((1,), 9), ((300,), 1000)])
def test_other_associative_ufuncs_at_match_numpy(name, dtype, shape, n_idx):
    """Repeated, negative and absent indices; NaN in the values and the target; one-element targets."""
    a, v = _segmented_case(name, dtype, shape, n_idx, seed=n_idx)
    idx = np.random.default_rng(shape[0]).integers(-shape[0], shape[0], n_idx)
    expect = a.copy()
    getattr(np, name).at(expect, idx, v)
    x = kd.asarray(a)
    getattr(kd, name).at(x, kd.asarray(idx), kd.asarray(v))
    assert x.dtype.np == expect.dtype
    np.testing.assert_allclose(x.numpy(), expect, rtol=1e-6 if dtype != "float64" else 1e-12, equal_nan=True)


@pytest.mark.parametrize("name", ["multiply", "bitwise_or", "fmax"])
def test_other_associative_ufuncs_at_on_rows_views_and_scalars(name):
    dtype = np.float32 if name != "bitwise_or" else np.int32
    rng = np.random.default_rng(3)
    a = rng.integers(1, 4, (4, 6, 3)).astype(dtype)
    rows, cols = np.array([0, 3, 3, -1]), np.array([5, 1, 1, 2])
    v = rng.integers(1, 4, (4, 3)).astype(dtype)
    expect = a.copy()
    getattr(np, name).at(expect, (rows, cols), v)  # sub-arrays on the leading axes, values broadcast
    x = kd.asarray(a)
    getattr(kd, name).at(x, (kd.asarray(rows), cols), v)
    np.testing.assert_array_equal(x.numpy(), expect)
    base = a.copy()  # a non-contiguous view: writes reach its base
    getattr(np, name).at(base[:, ::2, 1], [0, 0, 2], 2)
    y = kd.asarray(a)
    getattr(kd, name).at(y[:, ::2, 1], [0, 0, 2], 2)
    np.testing.assert_array_equal(y.numpy(), base)
    z = kd.asarray(a)
    getattr(kd, name).at(z, [], 5)  # no indices: unchanged
    np.testing.assert_array_equal(z.numpy(), a)


def test_other_associative_ufuncs_at_refuse_as_numpy():
    with pytest.raises(ValueError, match="second operand needed"):  # NumPy: ValueError (was TypeError here)
        kd.multiply.at(kd.ones(3), [0])
    with pytest.raises(IndexError, match="out of bounds"):
        kd.gcd.at(kd.asarray([4, 8]), [2], 2)
    x = kd.full(3, 3.0)  # NumPy has power.at (applied in rounds here)
    kd.power.at(x, [0, 0], 2.0)
    assert x.tolist() == [81.0, 3.0, 3.0]
