"""NEP 18 / NEP 13 on the ~40 NumPy functions a port most often forgets to change: ``np.f(kd_array)`` runs
kdsl's ``f`` and returns kdsl arrays (lazy, on the device), with NumPy's values and dtypes, on float data with
NaN/inf/-0.0, integers, booleans, empty, size-1 and non-contiguous arrays, and mixed kdsl/NumPy operands.
docs/numpy-api.md ("NumPy protocols") describes the rule; a function kdsl lacks raises TypeError naming it."""

import warnings

import numpy as np
import pytest
from api_testing import sample
from kd_testing import assert_match, to_numpy

import kdsl as kd

# (name, call): each call takes one array and uses only NumPy's namespace
CALLS = [
    ("mean", lambda x: np.mean(x)), ("mean_axis", lambda x: np.mean(x, axis=0)),
    ("sum", lambda x: np.sum(x)), ("sum_axis_keepdims", lambda x: np.sum(x, axis=-1, keepdims=True)),
    ("prod", lambda x: np.prod(x, axis=0)), ("max", lambda x: np.max(x, axis=0, initial=-100)),
    ("min", lambda x: np.min(x, axis=-1, initial=100)), ("argmax", lambda x: np.argmax(x, axis=0)),
    ("std", lambda x: np.std(x, axis=0)), ("var", lambda x: np.var(x, ddof=0)),
    ("cumsum", lambda x: np.cumsum(x, axis=0)), ("concatenate", lambda x: np.concatenate([x, x])),
    ("concatenate_axis1", lambda x: np.concatenate([x, x], axis=1)), ("stack", lambda x: np.stack([x, x], axis=-1)),
    ("vstack", lambda x: np.vstack([x, x])), ("hstack", lambda x: np.hstack([x, x])),
    ("where", lambda x: np.where(x > 0, x, -x)), ("where_one", lambda x: np.where(x > 0)),
    ("clip", lambda x: np.clip(x, -1, 2)), ("abs", lambda x: np.abs(x)), ("sort", lambda x: np.sort(x, axis=0)),
    ("argsort", lambda x: np.argsort(x, axis=-1, kind="stable")), ("transpose", lambda x: np.transpose(x)),
    ("reshape", lambda x: np.reshape(x, (-1,))), ("ravel", lambda x: np.ravel(x)),
    ("expand_dims", lambda x: np.expand_dims(x, 0)), ("squeeze", lambda x: np.squeeze(x[:1])),
    ("diff", lambda x: np.diff(x, axis=0)), ("flip", lambda x: np.flip(x)), ("roll", lambda x: np.roll(x, 1)),
    ("tile", lambda x: np.tile(x, (1, 2))), ("repeat", lambda x: np.repeat(x, 2, axis=0)),
    ("take", lambda x: np.take(x, [0, -1], axis=1)), ("zeros_like", lambda x: np.zeros_like(x)),
    ("ones_like", lambda x: np.ones_like(x)), ("full_like", lambda x: np.full_like(x, 7)),
    ("count_nonzero", lambda x: np.count_nonzero(x, axis=0)), ("any", lambda x: np.any(x, axis=0)),
    ("all", lambda x: np.all(x)), ("isnan", lambda x: np.isnan(x)), ("nan_to_num", lambda x: np.nan_to_num(x)),
    ("dot", lambda x: np.dot(x.T, x)), ("matmul", lambda x: np.matmul(x, x.T)),
    ("outer", lambda x: np.outer(x[0], x[-1])), ("trace", lambda x: np.trace(x)),
    ("linalg_norm", lambda x: np.linalg.norm(x)), ("linalg_norm_axis", lambda x: np.linalg.norm(x, axis=1)),
    ("nansum", lambda x: np.nansum(x, axis=0)), ("array_equal", lambda x: np.array_equal(x, x)),
    ("split", lambda x: np.split(x, 2, axis=0)), ("unique", lambda x: np.unique(x)),
    ("round", lambda x: np.round(x, 1)), ("maximum", lambda x: np.maximum(x, 0)),
]
NO_BOOL = {"mean", "mean_axis", "std", "var", "prod", "cumsum", "diff", "round", "nansum", "sum", "trace",
           "sum_axis_keepdims", "clip", "max", "min", "abs", "dot", "matmul", "outer", "linalg_norm",
           "linalg_norm_axis", "nan_to_num", "where",  # (NumPy's -bool is a TypeError)
           "maximum"}  # (bool with a Python int: NumPy's int64, kdsl's default int32, docs/numpy-api.md)
CASES = [("float32", (4, 6), "plain"), ("float64", (4, 6), "strided"), ("int32", (4, 6), "transposed"),
         ("int64", (2, 1), "plain"), ("bool", (4, 6), "plain"), ("float32", (2, 0), "plain"),
         ("float64", (1, 1), "strided")]


def _operand(dtype, shape, layout):
    special = dtype.startswith("float")  # NaN/inf/-0.0 in the floats; ints without extremes (no overflow race)
    host = sample(shape, dtype, seed=3, special=special and int(np.prod(shape)) >= 8)
    if layout == "strided":
        return host, kd.asarray(np.repeat(host, 2, axis=-1))[..., ::2]
    if layout == "transposed":
        return host, kd.asarray(np.ascontiguousarray(host.T)).T
    return host, kd.asarray(host)


def _kdsl_results(value) -> bool:
    if isinstance(value, (tuple, list)):
        return all(_kdsl_results(v) for v in value)
    return isinstance(value, (kd.Array, bool, int, float))


@pytest.mark.parametrize("name,call", CALLS, ids=[c[0] for c in CALLS])
@pytest.mark.parametrize("dtype,shape,layout", CASES, ids=str)
def test_numpy_functions_run_kdsls(name, call, dtype, shape, layout):
    host, x = _operand(dtype, shape, layout)
    if dtype == "bool" and name in NO_BOOL:
        host, x = host.astype(np.int8), x.astype(kd.int8)
    empty = 0 in shape
    with np.errstate(all="ignore"), warnings.catch_warnings(record=True) as numpy_warned:
        warnings.simplefilter("always")
        try:
            want = call(host)
        except (ValueError, IndexError) as error:  # NumPy's error (an empty reduction, a split of 1 row...)
            with pytest.raises(type(error)):
                call(x)
            return
    with warnings.catch_warnings(record=True) as kdsl_warned:
        warnings.simplefilter("always")
        got = call(x)
        assert _kdsl_results(got), f"np.{name} of a kdsl array returned {type(got).__name__}"
        got = to_numpy(got)  # (kdsl warns of an empty mean when the result is read back)
    assert {(w.category, str(w.message)) for w in kdsl_warned} == {(w.category, str(w.message))
                                                                    for w in numpy_warned}
    rtol = 1e-3 if dtype == "float32" or empty else 1e-6
    assert_match(got, want, rtol=rtol, check_dtype=not (name == "round" and dtype == "int64"))


@pytest.mark.parametrize("call", [lambda a, h: np.concatenate([a, h]), lambda a, h: np.where(a > 0, a, h),
                                  lambda a, h: np.stack([h, a]), lambda a, h: np.maximum(h, a),
                                  lambda a, h: np.dot(h, a.T), lambda a, h: np.allclose(a, h)])
def test_mixed_kdsl_and_numpy_operands_give_kdsl_arrays(call):
    host = sample((3, 4), "float32", seed=5, special=False)
    other = sample((3, 4), "float32", seed=6, special=False)
    got = call(kd.asarray(host), other)
    assert isinstance(got, kd.Array)
    assert_match(got, call(host, other), rtol=1e-5)


def test_results_stay_lazy_and_device_resident():
    x = kd.asarray(sample((8, 8), "float32", seed=1, special=False))
    y = np.mean(np.concatenate([x, x]), axis=0) + np.linalg.norm(x)
    assert isinstance(y, kd.Array) and y.shape == (8,)
    with pytest.raises(TypeError, match="kdsl has no busday_count"):
        np.busday_count(x, x)

