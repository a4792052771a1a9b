"""kd.sort / kd.argsort / Array.sort / Array.argsort against NumPy's stable sort: every dtype, any axis,
batched lines, NaN/inf/-0.0, duplicates (stability), non-contiguous views, lines longer than a tile, both the
private-memory (CPU) and the shared-memory (GPU) tile kernels."""

import numpy as np
import pytest
from sort_testing import ALL_DTYPES, assert_same, force_sort, sample

import kdsl as kd
from kdsl.engine import sorting as engine_sorting

CASES: list[tuple[str, tuple[int, ...], int | None]] = [(d, (5, 300), 1) for d in ALL_DTYPES]
CASES += [(d, (2, 3, 4), None) for d in ALL_DTYPES]
CASES += [(d, shape, axis) for d in ("float32", "int16", "float64", "uint64")
          for shape, axis in [((0,), -1), ((1,), 0), ((37,), 0), ((40, 3), 0), ((3, 0, 2), 1), ((4, 1), -1)]]


@pytest.mark.parametrize(("dtype", "shape", "axis"), CASES)
def test_sort_and_argsort_match_numpy(dtype, shape, axis):
    a = sample(shape, dtype)
    x = kd.asarray(a)
    assert_same(kd.sort(x, axis=axis).numpy(), np.sort(a, axis=axis, kind="stable"))
    got = kd.argsort(x, axis=axis).numpy()
    assert_same(got, np.argsort(a, axis=axis, kind="stable"))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint8"])
def test_lines_longer_than_a_tile(dtype, monkeypatch):
    force_sort(monkeypatch, "bitonic")  # long lines take the radix sort by default (tests/sorting/test_radix.py)
    a = sample((2, 2500), dtype, seed=3)  # 4096 padded records: global merge passes and local passes
    x = kd.asarray(a)
    assert_same(kd.argsort(x, axis=1).numpy(), np.argsort(a, axis=1, kind="stable"))
    assert_same(kd.sort(x.T, axis=0).numpy(), np.sort(a.T, axis=0, kind="stable"))


def test_shared_memory_tiles(monkeypatch):
    """The GPU path (a tile per workgroup in shared memory, barriers) runs on lavapipe too when forced."""
    force_sort(monkeypatch, "bitonic")
    monkeypatch.setattr(engine_sorting, "uses_private_tiles", lambda dev: False)
    a = sample((3000,), "float32", seed=4)
    b = sample((3, 700), "int16", seed=5)
    assert_same(kd.argsort(kd.asarray(a)).numpy(), np.argsort(a, kind="stable"))
    assert_same(kd.sort(kd.asarray(b), axis=0).numpy(), np.sort(b, axis=0, kind="stable"))
    c = sample((2, 2100), "float64", seed=8)  # three-word records, two global stages in one pass
    assert_same(kd.argsort(kd.asarray(c), axis=1).numpy(), np.argsort(c, axis=1, kind="stable"))
    _, top = kd.topk(kd.asarray(c), 2100, axis=1)  # descending keys
    assert_same(top.numpy(), np.argsort(-np.nan_to_num(c, nan=np.inf), axis=1, kind="stable"))


def test_a_line_past_the_loop_cap():
    """65 541 elements: no invocation of any pass loops past lavapipe's ~65 535-iteration cap."""
    a = np.random.default_rng(6).integers(-1000, 1000, 65541).astype(np.int32)
    assert_same(kd.argsort(kd.asarray(a)).numpy(), np.argsort(a, kind="stable"))


def test_nan_inf_and_signed_zero_order():
    a = np.array([0.0, np.nan, -0.0, -np.inf, 1.0, np.inf, -0.0, np.nan, 0.0, -1.0], np.float32)
    x = kd.asarray(a)
    assert_same(kd.sort(x).numpy(), np.sort(a, kind="stable"))  # zeros keep their signs and their order
    assert kd.argsort(x).tolist() == [3, 9, 0, 2, 6, 8, 4, 5, 1, 7]


def test_stability_with_many_duplicates():
    a = np.random.default_rng(7).integers(0, 3, (4, 500)).astype(np.int8)
    assert_same(kd.argsort(kd.asarray(a), axis=1).numpy(), np.argsort(a, axis=1, kind="stable"))
    assert_same(kd.argsort(kd.asarray(a), axis=0).numpy(), np.argsort(a, axis=0, kind="stable"))


def test_views_and_fused_expressions():
    a = sample((6, 50), "float32", dups=False)
    x = kd.asarray(a)
    assert_same(kd.sort(x[::2, 5:], axis=1).numpy(), np.sort(a[::2, 5:], axis=1, kind="stable"))
    assert_same(kd.sort(x.T, axis=-1).numpy(), np.sort(a.T, axis=-1, kind="stable"))
    got = kd.argsort(-x * 2 + 1, axis=0).numpy()
    assert_same(got, np.argsort(-a * 2 + 1, axis=0, kind="stable"))
    assert_same(kd.sort(x[:, ::-1][1], axis=0).numpy(), np.sort(a[:, ::-1][1], kind="stable"))


def test_array_methods_sort_in_place_and_argsort():
    a = sample((4, 9), "int32")
    x = kd.asarray(a)
    assert_same(x.argsort(axis=0).numpy(), a.argsort(axis=0, kind="stable"))
    x.sort()
    expected = a.copy()
    expected.sort(axis=-1)
    assert_same(x.numpy(), expected)
    y = kd.asarray(a)
    y.T.sort()  # sorting a view sorts its base, as NumPy's
    expected = a.copy()
    expected.T.sort()
    assert_same(y.numpy(), expected)


def test_sort_keeps_working_with_the_plan_cache():
    a = sample((1500,), "float32", dups=False)
    x = kd.asarray(a)
    for k in range(3):  # the same graph structure with other scalars: re-planned, right each time
        assert_same(kd.sort(x * float(k + 1)).numpy(), np.sort(a * np.float32(k + 1), kind="stable"))


def test_bad_calls_raise_clearly():
    x = kd.asarray([3, 1, 2])
    with pytest.raises(np.exceptions.AxisError):
        kd.sort(x, axis=1)
    with pytest.raises(np.exceptions.AxisError):
        kd.sort(kd.asarray(np.float32(1.0)))
    with pytest.raises(ValueError, match="kind"):
        kd.sort(x, kind="bogo")
    with pytest.raises(ValueError, match="structured"):
        kd.argsort(x, order="f0")
    assert kd.sort(x, kind="mergesort").tolist() == [1, 2, 3]


def _complex_data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    z = (rng.integers(-2, 3, shape) + 1j * rng.integers(-2, 3, shape)).astype(dtype)  # many ties
    flat = z.reshape(-1)
    if flat.size > 3:
        flat[1], flat[2] = complex(np.nan, 1), complex(1, np.nan)
        flat[3] = complex(np.inf, -np.inf)
    return z


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("shape,axis", [((9,), -1), ((4, 6), 0), ((4, 6), 1), ((3, 2, 5), None), ((0, 3), 1),
                                        ((1, 1), 0)])
@pytest.mark.parametrize("strided", [False, True])
def test_complex_sort_is_numpys_lexicographic_order(dtype, shape, axis, strided):
    """np.sort(np.linalg.eigvals(A)): complex sorts by real part, then imaginary part, NaNs last (was a
    TypeError)."""
    z = _complex_data(shape[:-1] + (2 * shape[-1],), dtype)
    z = z[..., ::2] if strided else z[..., : shape[-1]]
    x = kd.asarray(np.repeat(z, 2, axis=-1))[..., ::2] if strided else kd.asarray(z)
    np.testing.assert_array_equal(kd.sort(x, axis=axis).numpy(), np.sort(z, axis=axis))
    np.testing.assert_array_equal(kd.argsort(x, axis=axis).numpy(), np.argsort(z, axis=axis, kind="stable"))
    if z.size and axis is not None:
        n = z.shape[axis]
        got = kd.partition(x, n // 2, axis=axis).numpy()
        np.testing.assert_array_equal(np.take(got, [n // 2], axis=axis),
                                      np.take(np.partition(z, n // 2, axis=axis), [n // 2], axis=axis))


def test_complex_sort_method_in_place_and_descending_refused():
    z = _complex_data((5, 4), "complex64", seed=3)
    x = kd.asarray(z)
    x.sort(axis=0)
    z.sort(axis=0)
    np.testing.assert_array_equal(x.numpy(), z)
    with pytest.raises(TypeError, match="complex"):
        kd.sort(x, descending=True)
