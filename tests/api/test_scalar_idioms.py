"""NumPy programs use the 0-d results of reductions and indexing (NumPy scalars there, kdsl 0-d arrays here) as
Python numbers: each idiom runs on NumPy and on kdsl and must give the same Python-level answer."""

import math

import numpy as np
import pytest

import kdsl as kd

DATA = {"float32": np.array([[0.5, 2.25, -1.0], [3.5, 0.0, 1.75]], np.float32),
        "float64": np.array([[0.5, 2.25, -1.0], [3.5, 0.0, 1.75]]),
        "int32": np.array([[4, 1, 2], [0, 5, 3]], np.int32),
        "int64": np.array([[4, 1, 2], [0, 5, 3]], np.int64),
        "uint8": np.array([[4, 1, 2], [0, 5, 3]], np.uint8)}


def plain(v):
    """A Python-level value to compare: numbers as Python numbers, containers element by element."""
    if isinstance(v, (list, tuple)):
        return type(v)(plain(x) for x in v)
    if isinstance(v, dict):
        return {plain(k): plain(x) for k, x in v.items()}
    if isinstance(v, range):
        return v
    if isinstance(v, (kd.Array, np.ndarray, np.generic)):
        return np.asarray(v).tolist()
    return v


def add_in_place(xp, a):
    x = a.max()
    x += 1
    return x


def divide_in_place(xp, a):
    total = a.sum()
    total /= a.size  # an integer sum becomes a float, as a NumPy scalar does
    return total


def add_float_in_place(xp, a):
    x = a.argmax()
    x += 0.5
    return x


def add_array_in_place(xp, a):
    s = a.min()
    s += a[0]  # a scalar plus a row is a row
    return s


def branch(xp, a):
    if a.any():
        return "some"
    return "none"


def loop_count(xp, a):
    n = 0
    for _ in range(a.argmax()):
        n += 1
    return n


def while_loop(xp, a):
    k, steps = a.max(), 0
    while k > a.min():
        k = k - 1
        steps += 1
    return steps


IDIOMS = {
    "float": lambda xp, a: float(a.sum()),
    "int": lambda xp, a: int(a.argmax()),
    "item": lambda xp, a: a.sum().item(),
    "round": lambda xp, a: round(float(a.mean()), 2) == round(a.mean(), 2),
    "round0": lambda xp, a: int(round(a.max())),
    "format": lambda xp, a: f"{a.mean():.3f}",
    "format_int": lambda xp, a: f"{a.argmax():d}|{a.argmax():>4}",
    "format_g": lambda xp, a: f"{a.sum():g} {a.sum():e} {a.sum():10.2f}",
    "percent": lambda xp, a: format(a.mean(), ".1%"),
    "range": lambda xp, a: range(a.argmax()),
    "list_index": lambda xp, a: [1, 2, 3, 4, 5, 6][a.argmax()],
    "tuple_index": lambda xp, a: (10, 20, 30, 40, 50, 60)[a.argmin()],
    "str_index": lambda xp, a: "abcdef"[a.argmax()],
    "slice_bounds": lambda xp, a: list(range(10))[a.argmin():a.argmax()],
    "repeat_seq": lambda xp, a: ("x" * a.argmax(), [0] * a.argmax(), a.argmin() * (1, 2), [1] * a.max().astype(int)),
    "sqrt": lambda xp, a: math.sqrt(abs(a.sum())),
    "math_funcs": lambda xp, a: (math.floor(a.mean()), math.ceil(a.mean()), math.isfinite(a.sum()),
                                 math.isclose(a.sum(), float(a.sum()))),
    "if": branch,
    "bool_ops": lambda xp, a: (bool(a.any() and a.all()), not a.all()),
    "iadd": add_in_place,
    "idiv_int": divide_in_place,
    "iadd_float": add_float_in_place,
    "iadd_array": add_array_in_place,
    "np_scalar": lambda xp, a: (float(np.float32(a.sum())), float(np.float64(a.mean())), int(np.int64(a.argmax()))),
    "max_builtin": lambda xp, a: max(a.sum(), 3),
    "min_builtin": lambda xp, a: min(3, a.min()),
    "sorted": lambda xp, a: sorted([a.max(), a.min(), a.mean()]),
    "dict_key": lambda xp, a: {a.argmax(): "x"}[int(a.argmax())],
    "dict_lookup": lambda xp, a: {0: "a", 1: "b", 2: "c", 3: "d", 4: "e", 5: "f"}[a.argmax()],
    "set": lambda xp, a: len({a.argmax(), int(a.argmax())}),
    "sum_builtin": lambda xp, a: sum([a.min(), a.max()]),
    "compare": lambda xp, a: (a.sum() > 3, a.max() == a.max(), a.min() <= 0),
    "arith": lambda xp, a: (a.sum() * 2 + 1, 2 ** a.argmax(), -a.max(), abs(a.min()), a.max() // 2, a.max() % 3),
    "divmod": lambda xp, a: divmod(a.max(), 2),
    "complex": lambda xp, a: complex(a.sum()),
    "loop": loop_count,
    "while": while_loop,
    "str_int": lambda xp, a: str(a.argmax()),
    "index_array": lambda xp, a: a[0][a.argmax() % a.shape[1]],
    "np_functions": lambda xp, a: (np.sqrt(abs(a.sum())), np.isclose(a.sum(), float(a.sum())), np.round(a.mean(), 2)),
    "shape_from": lambda xp, a: xp.zeros(a.argmax() + 1).shape,
    "arange_from": lambda xp, a: xp.arange(a.argmax()).tolist(),
    "mean_of_list": lambda xp, a: float(np.mean([a.min(), a.max()])),
    "scalar_math": lambda xp, a: float(a.std() / a.mean()) if float(a.mean()) else 0.0,
}


@pytest.mark.parametrize("dtype", list(DATA))
@pytest.mark.parametrize("name", list(IDIOMS))
def test_idiom_matches_numpy(name, dtype):
    host = DATA[dtype]
    idiom = IDIOMS[name]
    with np.errstate(all="ignore"):
        ref = plain(idiom(np, host))
    got = plain(idiom(kd, kd.asarray(host)))
    assert type(got) is type(ref)
    assert got == approx(ref)


def approx(ref):
    """``ref`` with its floats compared to float32 rounding (kdsl's float32 mean sums in another order)."""
    if isinstance(ref, float):
        return pytest.approx(ref, rel=1e-6)
    if isinstance(ref, (list, tuple)):
        return type(ref)(approx(x) for x in ref)
    return ref


@pytest.mark.parametrize("dtype", list(DATA))
def test_noncontiguous_and_axis_results(dtype):
    host = DATA[dtype]
    a = kd.asarray(host)
    assert int(a.T[::2].argmax()) == int(host.T[::2].argmax())
    assert float(a[:, ::2].sum(axis=None)) == pytest.approx(float(host[:, ::2].sum(axis=None)))
    assert [int(i) for i in a.argmax(axis=1)] == [int(i) for i in host.argmax(axis=1)]
    assert a[1, 2].item() == host[1, 2].item()
    assert float(a[1][2]) == float(host[1][2])


def test_results_are_not_python_scalars():
    """The deliberate difference (docs/numpy-api.md): 0-d arrays, not NumPy scalars; np.isscalar says so."""
    a = kd.asarray(DATA["float32"])
    assert not np.isscalar(a.sum()) and np.isscalar(np.asarray(DATA["float32"]).sum())
    assert a.sum().shape == () and a.sum().ndim == 0


def test_in_place_on_an_element_does_not_write_back():
    host = DATA["float32"].copy()
    a = kd.asarray(host)
    x, ref = a[0, 1], host[0, 1]
    x += 1
    ref += 1
    np.testing.assert_array_equal(a.numpy(), host)
    assert float(x) == float(ref)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint8"])
@pytest.mark.parametrize("value", [2.5, 3.5, -2.5, 1234.49, 0.0, 7])
def test_round_of_zero_d_is_python_int(dtype, value):
    # round(x) of a NumPy scalar is a Python int (half to even); kdsl's 0-d results stand for those scalars
    if dtype == "uint8" and value < 0:
        return
    x = np.array(value).astype(dtype)[()]
    got = round(kd.asarray(np.array([value]).astype(dtype)).sum())
    assert type(got) is int and got == round(x)
    assert type(round(kd.asarray(np.array(value).astype(dtype)))) is int


@pytest.mark.parametrize("value,error", [(np.nan, ValueError), (np.inf, OverflowError)])
def test_round_of_zero_d_nan_inf_raises_as_numpy(value, error):
    with pytest.raises(error):
        round(np.float64(value))
    with pytest.raises(error):
        round(kd.asarray(np.array([value])).max())


def test_round_with_ndigits_stays_an_array_and_of_arrays_raises():
    a = np.array([1.2345, -2.5, 3.75])
    got = round(kd.asarray(a).sum(), 2)
    assert isinstance(got, kd.Array) and got.ndim == 0
    np.testing.assert_allclose(float(got), round(a.sum(), 2))
    with pytest.raises(TypeError):  # NumPy's ndarray has no __round__
        round(a, 1)
    with pytest.raises(TypeError):
        round(kd.asarray(a), 1)
