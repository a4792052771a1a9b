"""Exception parity with NumPy 2.x: the common bad calls raise an instance of the exception class NumPy raises
(its public class: ``AxisError``, ``LinAlgError``, ``ValueError``...), so ``except ValueError:`` code ports, with a
message that names the problem. Each case calls NumPy and kdsl with the same arguments.

kdsl is lazy: an error that depends on data (a singular matrix, an out-of-bounds index array) may surface when
the result is read, so each kdsl result is read back (``.numpy()``) inside the check. kdsl's exceptions are
NumPy's classes (``kd.exceptions`` re-exports ``numpy.exceptions``; ``kd.linalg.LinAlgError`` subclasses
``numpy.linalg.LinAlgError``), so both ``except kd.exceptions.AxisError`` and ``except np.exceptions.AxisError``
catch them.
"""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd


def _m(xp):
    return xp.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))


def _v(xp, n=3):
    return xp.asarray(np.arange(n, dtype=np.float32))


def _setitem(xp, index):
    a = _v(xp)
    a[index] = 1.0
    return a


def _read(result):
    """Reads a kdsl result back (a lazy error surfaces here); other results as they are."""
    if isinstance(result, kd.Array):
        return result.numpy()
    if isinstance(result, (tuple, list)):
        return [_read(r) for r in result]
    return result


# name -> (call on a namespace xp, a pattern kdsl's message must contain)
CASES = {
    # axis out of range: AxisError (a ValueError and an IndexError)
    "sum axis": (lambda xp: xp.sum(_m(xp), axis=2), "axis 2 is out of bounds"),
    "sum negative axis": (lambda xp: xp.sum(_m(xp), axis=-3), "axis -3 is out of bounds"),
    "mean axis": (lambda xp: xp.mean(_m(xp), axis=5), "out of bounds"),
    "argmax axis": (lambda xp: xp.argmax(_m(xp), axis=2), "out of bounds"),
    "sort axis": (lambda xp: xp.sort(_m(xp), axis=2), "out of bounds"),
    "cumsum axis": (lambda xp: xp.cumsum(_m(xp), axis=2), "out of bounds"),
    "concatenate axis": (lambda xp: xp.concatenate([_m(xp), _m(xp)], axis=2), "out of bounds"),
    "stack axis": (lambda xp: xp.stack([_m(xp), _m(xp)], axis=4), "out of bounds"),
    "expand_dims axis": (lambda xp: xp.expand_dims(_m(xp), 4), "out of bounds"),
    "squeeze axis": (lambda xp: xp.squeeze(_m(xp), axis=3), "out of bounds"),
    "moveaxis": (lambda xp: xp.moveaxis(_m(xp), 0, 5), "out of bounds"),
    "moveaxis checks axes first": (lambda xp: xp.moveaxis(_v(xp), [0], [0, 1]), "out of bounds"),
    "swapaxes": (lambda xp: xp.swapaxes(_m(xp), 0, 5), "out of bounds"),
    "flip axis": (lambda xp: xp.flip(_m(xp), 3), "out of bounds"),
    "take axis": (lambda xp: xp.take(_m(xp), [0], axis=3), "out of bounds"),
    "roll axis": (lambda xp: xp.roll(_m(xp), 1, axis=2), "out of bounds"),
    "fft axis": (lambda xp: xp.fft.fft(_v(xp), axis=2), "out of bounds"),  # NumPy: IndexError; AxisError is one
    "fftshift axes": (lambda xp: xp.fft.fftshift(_v(xp), axes=3), "out of bounds"),
    # shapes that do not broadcast: ValueError
    "broadcast add": (lambda xp: _m(xp) + _v(xp, 4), "broadcast"),
    "broadcast_to": (lambda xp: xp.broadcast_to(_v(xp), (2, 4)), "broadcast"),
    "broadcast_arrays": (lambda xp: xp.broadcast_arrays(_m(xp), _v(xp, 2)), "broadcast"),
    "where broadcast": (lambda xp: xp.where(_m(xp) > 1, _m(xp), _v(xp, 5)), "broadcast"),
    "setitem broadcast": (lambda xp: _m(xp).__setitem__(slice(None), _v(xp, 2)), "broadcast"),
    "ufunc out shape": (lambda xp: xp.add(_m(xp), 1, out=xp.zeros(2, dtype=np.float32)), r"\(2,\)"),
    # reshape to a wrong size: ValueError
    "reshape size": (lambda xp: _m(xp).reshape(4, 2), "cannot reshape array of size 6"),
    "reshape function": (lambda xp: xp.reshape(_m(xp), (7,)), "cannot reshape"),
    "reshape two unknowns": (lambda xp: _m(xp).reshape(-1, -1), "one unknown dimension"),
    # indexing: IndexError
    "index out of bounds": (lambda xp: _m(xp)[5], "index 5 is out of bounds"),
    "index out of bounds axis 1": (lambda xp: _m(xp)[0, 3], "index 3 is out of bounds"),
    "negative index out of bounds": (lambda xp: _v(xp)[-4], "index -4 is out of bounds"),
    "setitem out of bounds": (lambda xp: _m(xp).__setitem__(2, 1.0), "out of bounds"),
    "too many indices": (lambda xp: _m(xp)[0, 0, 0], "too many indices"),
    "too many indices on 0-d": (lambda xp: xp.asarray(np.float32(1))[0], "too many indices"),
    "index array out of bounds": (lambda xp: _read(_v(xp)[xp.asarray(np.array([0, 5]))]), "index 5"),
    "index list out of bounds": (lambda xp: _read(_v(xp)[[0, 7]]), "index 7"),
    "take out of bounds": (lambda xp: _read(xp.take(_v(xp), xp.asarray(np.array([9])))), "index 9"),
    "boolean mask shape": (lambda xp: _v(xp)[xp.asarray(np.array([True, False]))], "boolean index"),
    "float index": (lambda xp: _v(xp)[1.5], "integers, slices"),
    "setitem index array out of bounds": (lambda xp: _read(_setitem(xp, xp.asarray(np.array([0, 5])))), "index 5"),
    "take_along_axis out of bounds": (lambda xp: _read(xp.take_along_axis(_v(xp), xp.asarray(np.array([4])), 0)),
                                      "index 4"),
    "put out of bounds": (lambda xp: xp.put(_v(xp), [9], [1.0]), "index 9"),
    "choose out of range": (lambda xp: _read(xp.choose(xp.asarray(np.array([0, 3])), [_v(xp, 2), _v(xp, 2)])),
                            "choice"),
    "insert out of bounds": (lambda xp: xp.insert(_v(xp), 9, 1.0), "index 9"),
    "partition kth": (lambda xp: xp.partition(_v(xp), 5), "kth"),
    "lstsq shapes": (lambda xp: xp.linalg.lstsq(xp.eye(3, dtype=np.float32), _v(xp, 2)), "ncompatible"),
    "nanargmax all NaN": (lambda xp: xp.nanargmax(xp.asarray(np.array([np.nan, np.nan], np.float32))), "All-NaN"),
    "average zero weights": (lambda xp: _read(xp.average(_v(xp), weights=xp.zeros(3))), "sum to zero"),
    "array inhomogeneous": (lambda xp: xp.asarray([[1, 2], [3]]), "inhomogeneous"),
    # dtypes: TypeError
    "bad dtype name": (lambda xp: xp.zeros(3, dtype="floot32"), "floot32"),
    "bad dtype in astype": (lambda xp: _v(xp).astype("nope"), "nope"),
    "bad dtype in asarray": (lambda xp: xp.asarray([1, 2], dtype="int33"), "int33"),
    "bitwise on floats": (lambda xp: xp.bitwise_and(_v(xp), _v(xp)), "bitwise_and"),
    "invert of floats": (lambda xp: ~_v(xp), "invert"),
    "ufunc out casting": (lambda xp: xp.add(_m(xp), 1.5, out=xp.zeros((2, 3), dtype=np.int32)), "same_kind"),
    "concatenate casting": (lambda xp: xp.concatenate([_v(xp), _v(xp)], dtype=np.int32), "same_kind"),
    # matmul / linalg
    "matmul core dimension": (lambda xp: _m(xp) @ _m(xp), "mismatch in its core dimension"),
    "matmul of a vector": (lambda xp: xp.matmul(_m(xp), _v(xp, 2)), "mismatch"),
    "matmul of a scalar": (lambda xp: xp.matmul(_m(xp), 2.0), "enough dimensions"),
    "dot not aligned": (lambda xp: xp.dot(_m(xp), _m(xp)), "mismatch|aligned"),
    "inv singular": (lambda xp: _read(xp.linalg.inv(xp.asarray(np.ones((2, 2), np.float32)))), "Singular"),
    "solve singular": (lambda xp: _read(xp.linalg.solve(xp.zeros((2, 2), dtype=np.float32), _v(xp, 2))),
                       "Singular"),
    "inv non-square": (lambda xp: _read(xp.linalg.inv(_m(xp))), "square"),
    "cholesky not positive definite": (lambda xp: _read(xp.linalg.cholesky(-xp.eye(2, dtype=np.float32))),
                                       "positive definite"),
    "det of 1-d": (lambda xp: xp.linalg.det(_v(xp)), "two-dimensional"),
    "matrix_power non-square": (lambda xp: xp.linalg.matrix_power(_m(xp), 2), "square"),
    # conversions to Python scalars
    "int of size > 1": (lambda xp: int(_v(xp)), "0-dimensional"),
    "float of size > 1": (lambda xp: float(_v(xp)), "0-dimensional"),
    "bool of size > 1": (lambda xp: bool(_v(xp)), "ambiguous"),
    "if on an array": (lambda xp: 1 if _m(xp) > 0 else 0, "ambiguous"),
    "item of size > 1": (lambda xp: _v(xp).item(), "size 1"),
    "len of 0-d": (lambda xp: len(xp.asarray(np.float32(1))), "unsized"),
    "iter of 0-d": (lambda xp: iter(xp.asarray(np.float32(1))), "0-d"),
    "float array as index": (lambda xp: [1, 2, 3][_v(xp, 1)], "integer scalar arrays"),
    # joining and splitting: ValueError
    "concatenate ndim": (lambda xp: xp.concatenate([_m(xp), _v(xp)]), "same number of dimensions"),
    "concatenate shapes": (lambda xp: xp.concatenate([_m(xp), xp.ones((2, 2), dtype=np.float32)]),
                           "must match exactly"),
    "concatenate nothing": (lambda xp: xp.concatenate([]), "at least one array"),
    "stack shapes": (lambda xp: xp.stack([_m(xp), _v(xp)]), "same shape"),
    "vstack shapes": (lambda xp: xp.vstack([_m(xp), _v(xp, 4)]), "must match exactly"),
    "split unequal": (lambda xp: xp.split(_v(xp, 5), 2), "equal division"),
    "array_split zero": (lambda xp: xp.array_split(_v(xp, 5), 0), "larger than 0"),
    # creation
    "zeros negative": (lambda xp: xp.zeros(-1), "negative dimensions"),
    "ones negative": (lambda xp: xp.ones((2, -3)), "negative dimensions"),
    "arange zero step": (lambda xp: xp.arange(0, 5, 0), "zero"),
    "linspace negative num": (lambda xp: xp.linspace(0, 1, -2), "non-negative"),
    "eye of a float": (lambda xp: xp.eye(2.5), "integer"),
    "repeat negative": (lambda xp: xp.repeat(_v(xp), -1), "negative"),
    "tile negative": (lambda xp: xp.tile(_v(xp), -1), "negative"),
    # reductions and the rest
    "max of empty": (lambda xp: xp.max(xp.zeros(0, dtype=np.float32)), "zero-size array"),
    "argmax of empty": (lambda xp: xp.argmax(xp.zeros(0, dtype=np.float32)), "empty sequence"),
    "where needs initial": (lambda xp: xp.max(_m(xp), where=_m(xp) > 1), "initial"),
    "quantile above 1": (lambda xp: xp.quantile(_v(xp), 1.5), r"range \[0, 1\]"),
    "percentile above 100": (lambda xp: xp.percentile(_v(xp), 150), r"range \[0, 100\]"),
    "searchsorted side": (lambda xp: xp.searchsorted(_v(xp), _v(xp), side="middle"), "side"),
    "pad mode": (lambda xp: xp.pad(_v(xp), 1, mode="nope"), "nope"),
    "unravel_index out of bounds": (lambda xp: xp.unravel_index(10, (2, 3)), "out of bounds"),
    "bincount negative": (lambda xp: _read(xp.bincount(xp.asarray(np.array([1, -1])))), "negative"),
    "interp lengths": (lambda xp: xp.interp(_v(xp), _v(xp), _v(xp, 2)), "same length"),
    "diff negative order": (lambda xp: xp.diff(_v(xp), n=-1), "non-negative"),
    "cross dimensions": (lambda xp: xp.cross(_v(xp, 4), _v(xp, 4)), "dimension"),
    "result_type of nothing": (lambda xp: xp.result_type(), "at least one"),
    "complex floor": (lambda xp: xp.floor(xp.ones(2, dtype=np.complex64)), "floor"),
    "integers low >= high": (lambda xp: xp.random.default_rng(0).integers(5, 1), "low"),
    "normal negative scale": (lambda xp: _read(xp.random.default_rng(0).normal(0, -1.0, 3)), "scale"),
    "choice of empty": (lambda xp: xp.random.default_rng(0).choice(xp.zeros(0), 1), "empty"),
    "clip both spellings": (lambda xp: xp.clip(_v(xp), 0, 1, min=1), "min"),
}

# more functions with an axis out of range (axis 2 or 3 of a 2-d array): NumPy's AxisError in each
AXIS_CALLS = {
    "diff": lambda xp, a: xp.diff(a, axis=2), "gradient": lambda xp, a: xp.gradient(a, axis=2),
    "repeat": lambda xp, a: xp.repeat(a, 2, axis=2), "split": lambda xp, a: xp.split(a, 1, axis=2),
    "array_split": lambda xp, a: xp.array_split(a, 1, axis=2), "quantile": lambda xp, a: xp.quantile(a, 0.5, axis=2),
    "median": lambda xp, a: xp.median(a, axis=2), "percentile": lambda xp, a: xp.percentile(a, 5, axis=2),
    "delete": lambda xp, a: xp.delete(a, 0, axis=2), "insert": lambda xp, a: xp.insert(a, 0, 1.0, axis=2),
    "trapezoid": lambda xp, a: xp.trapezoid(a, axis=2), "average": lambda xp, a: xp.average(a, axis=2),
    "ptp": lambda xp, a: xp.ptp(a, axis=2), "count_nonzero": lambda xp, a: xp.count_nonzero(a, axis=2),
    "nansum": lambda xp, a: xp.nansum(a, axis=2), "nanmax": lambda xp, a: xp.nanmax(a, axis=2),
    "nanmedian": lambda xp, a: xp.nanmedian(a, axis=2), "nanargmax": lambda xp, a: xp.nanargmax(a, axis=2),
    "nanmean": lambda xp, a: xp.nanmean(a, axis=2), "nanvar": lambda xp, a: xp.nanvar(a, axis=2),
    "nancumsum": lambda xp, a: xp.nancumsum(a, axis=2), "cumprod": lambda xp, a: xp.cumprod(a, axis=2),
    "take_along_axis": lambda xp, a: xp.take_along_axis(a, xp.asarray(np.zeros((2, 3), np.int64)), axis=2),
    "partition": lambda xp, a: xp.partition(a, 0, axis=2), "argpartition": lambda xp, a: xp.argpartition(a, 0, axis=2),
    "cross": lambda xp, a: xp.cross(a, a, axis=2), "rot90": lambda xp, a: xp.rot90(a, axes=(0, 2)),
    "unstack": lambda xp, a: xp.unstack(a, axis=2), "cumulative_sum": lambda xp, a: xp.cumulative_sum(a, axis=2),
    "apply_along_axis": lambda xp, a: xp.apply_along_axis(lambda r: r, 2, a),
    "linalg.norm": lambda xp, a: xp.linalg.norm(a, axis=2), "fft.rfftn": lambda xp, a: xp.fft.rfftn(a, axes=(2,)),
    "any": lambda xp, a: xp.any(a, axis=2), "all of a tuple": lambda xp, a: xp.all(a, axis=(0, 2)),
    "var": lambda xp, a: xp.var(a, axis=2), "std negative": lambda xp, a: xp.std(a, axis=-3),
    "prod": lambda xp, a: xp.prod(a, axis=2), "min": lambda xp, a: xp.min(a, axis=2),
    "argsort": lambda xp, a: xp.argsort(a, axis=2), "unique": lambda xp, a: xp.unique(a, axis=2),
    "flip of a tuple": lambda xp, a: xp.flip(a, (0, 2)), "squeeze of a tuple": lambda xp, a: xp.squeeze(a, (5,)),
    "expand_dims of a tuple": lambda xp, a: xp.expand_dims(a, (0, 5)),
    "concat": lambda xp, a: xp.concat([a, a], axis=2),
    "stack negative": lambda xp, a: xp.stack([a], axis=-4), "swapaxes negative": lambda xp, a: xp.swapaxes(a, -3, 0),
    "vecdot": lambda xp, a: xp.vecdot(a, a, axis=2), "a.sum": lambda xp, a: a.sum(2),
    "a.argmax": lambda xp, a: a.argmax(2),
    "a.cumsum": lambda xp, a: a.cumsum(2), "a.squeeze": lambda xp, a: a.squeeze(3),
    "a.swapaxes": lambda xp, a: a.swapaxes(0, 3), "a.take": lambda xp, a: a.take([0], axis=3),
    "a.repeat": lambda xp, a: a.repeat(2, axis=3), "a.sort": lambda xp, a: a.sort(axis=3),
    "a.mean": lambda xp, a: a.mean(axis=3), "a.max": lambda xp, a: a.max(axis=3), "a.std": lambda xp, a: a.std(axis=3),
}
for _name, _call in AXIS_CALLS.items():
    CASES[f"{_name} axis"] = ((lambda c: lambda xp: _read(c(xp, _m(xp))))(_call), "out of bounds|[aA]xes|axis")


PUBLIC_MODULES = ("builtins", "numpy", "numpy.exceptions", "numpy.linalg")


def public_class(exc: BaseException) -> type:
    """The first class of ``exc``'s MRO that NumPy code can name (``_UFuncOutputCastingError`` -> TypeError)."""
    return next(c for c in type(exc).__mro__ if c.__module__ in PUBLIC_MODULES and not c.__name__.startswith("_"))


@pytest.mark.parametrize("name", list(CASES))
def test_kdsl_raises_numpys_exception(name):
    call, pattern = CASES[name]
    with pytest.raises(Exception) as numpy_error:
        _read(call(np))
    expected = public_class(numpy_error.value)
    with pytest.raises(expected, match=pattern) as kdsl_error:
        _read(call(kd))
    assert len(str(kdsl_error.value)) >= 8, f"uninformative message: {kdsl_error.value!r}"


def test_numpys_exception_names():
    assert kd.exceptions.AxisError is np.exceptions.AxisError
    assert issubclass(kd.exceptions.AxisError, ValueError) and issubclass(kd.exceptions.AxisError, IndexError)
    assert issubclass(kd.linalg.LinAlgError, np.linalg.LinAlgError) and issubclass(kd.linalg.LinAlgError, ValueError)
    assert set(kd.exceptions.__all__) == {n for n in dir(np.exceptions) if not n.startswith("_")}
    with pytest.raises(kd.exceptions.AxisError):
        kd.sum(kd.ones((2, 3)), axis=2)


@pytest.mark.parametrize("call", [lambda: kd.linalg.inv(kd.zeros((2, 2))),
                                  lambda: kd.linalg.solve(kd.zeros((3, 3)), kd.ones(3)),
                                  lambda: kd.linalg.cholesky(-kd.eye(2))])
def test_data_dependent_errors_reach_except_valueerror(call):
    # kdsl reads the factorisation's status back (at the call or, for a lazy result, when it is read), so
    # NumPy code's ``except ValueError`` (LinAlgError's base) still catches a singular matrix
    with pytest.raises(ValueError):
        _read(call())
