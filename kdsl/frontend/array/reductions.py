"""Reductions over any axes (``axis=None | int | tuple``, ``keepdims``), NumPy's result dtypes (the running
``cumsum``/``cumprod`` are in cumulative.py).

The reduced expression fuses into the reduction kernel, and so does a scale after it: ``x.mean(axis=1)`` is
one kernel. Sums of small integers accumulate in int64 as NumPy's do (int32 on devices without int64).

Example:
    >>> import kdsl as kd, numpy as np
    >>> x = kd.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    >>> x.sum(axis=0).tolist(), x.max(axis=1, keepdims=True).shape, int(x.argmax())
    ([3.0, 5.0, 7.0], (2, 1), 5)
"""

from __future__ import annotations

import builtins
import math
import operator

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import empty_slices, ops, read_warnings
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import reduction_where as rw
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.integer_moments import integer_variance, is_integer_moment
from kdsl.ir.graph import Node


def _arr(x) -> Array:
    if isinstance(x, Array):
        return x
    from kdsl.frontend.array.creation import asarray  # cycle: that module imports this one

    return asarray(x)


def fit_accumulator(d: dt.DType, device) -> dt.DType:
    """NumPy's 64-bit accumulators, narrowed on devices that lack them."""
    if device.supports(d):
        return d
    return {"int64": dt.int32, "uint64": dt.uint32, "float64": dt.float32}.get(d.name, d)


_ACCUMULATORS: dict[tuple, dt.DType] = {}  # (NumPy function, input dtype) -> NumPy's result dtype: few entries


def numpy_dtype(fn, x: Array, dtype) -> dt.DType:
    """The dtype NumPy's ``fn`` gives for ``x`` without ``dtype=`` (asked of NumPy once per input dtype and
    device: the question costs more than building the rest of a reduction, which a round trip pays each call)."""
    if dtype is not None:
        return dt.as_dtype(dtype)
    key = (fn, x.dtype)
    found = _ACCUMULATORS.get(key)
    if found is None:
        found = _ACCUMULATORS[key] = dt.as_dtype(fn(np.zeros(1, x.dtype.np)).dtype)
    return found if found.feature is None else fit_accumulator(found, x.device)


def _keepdims(keepdims) -> bool:
    """``keepdims`` as NumPy's ufunc reductions read it: an int (TypeError for None, "yes" or 1.0)."""
    if isinstance(keepdims, (bool, np.bool_)):
        return bool(keepdims)
    if isinstance(keepdims, float):
        raise TypeError("integer argument expected, got float")
    return bool(operator.index(keepdims))


def _keep(x: Array, node: Node, axes: tuple[int, ...], keepdims: bool) -> Array:
    """The reduction's result on ``node``, with the reduced axes kept as length 1 when ``keepdims``: a new array
    on the reshaped node, not a view of a temporary (NumPy's result owns its data: ``base`` None)."""
    if _keepdims(keepdims):
        node = mv.reshape_node(node, tuple(1 if a in axes else n for a, n in enumerate(x.shape)))
    return Array(node)


def _reduce(x: Array, op: str, axes: tuple[int, ...], out_dtype: dt.DType, keepdims: bool) -> Array:
    if op in ("max", "min") and out_dtype.kind == "c" and axes and x.size:
        return _complex_extreme(x, op, axes, keepdims)
    src = ops.cast_node(x._node, out_dtype) if op not in ("argmax", "argmin") else x._node
    if not axes:  # nothing to reduce (0-d input): the value itself
        return Array(src) if op not in ("argmax", "argmin") else Array(ops.const_node(0, out_dtype, x.device))
    shape = tuple(n for a, n in enumerate(x.shape) if a not in axes)
    identity = _EMPTY_IDENTITY.get((op, out_dtype is dt.bool_))
    if identity is not None and builtins.any(x.shape[a] == 0 for a in axes):
        # nothing to fold: the identity as a lazy constant, not a kernel whose empty loop leaves a literal 0 that
        # the shader compiler folds into what follows (``sum(empty) * inf`` came out 0, NumPy's is NaN)
        return _keep(x, mv.broadcast_node(ops.const_node(identity, out_dtype, x.device), shape), axes, keepdims)
    node = Node("reduce", (src,), out_dtype, shape, (op, axes))
    return _keep(x, node, axes, keepdims)


def _complex_extreme(x: Array, op: str, axes: tuple[int, ...], keepdims: bool) -> Array:
    """Complex ``max``/``min`` over ``axes``, the element argmax/argmin picks. NumPy folds in order, so a slice
    holding NaNs gives its first NaN (``nan+1j`` before ``2+nanj``); a device's parallel fold combines in its own
    order (the H200's gave the later one), where argmax's rule (NaN wins, ties to the lower index) is order-free.

    >>> import kdsl as kd, numpy as np
    >>> kd.max(kd.asarray(np.array([1, complex(np.nan, 1), complex(2, np.nan)]))).item()
    (nan+1j)
    """
    from kdsl.frontend.array.take import take_along_axis  # cycle: sorting reduces with this module

    kept = [a for a in range(x.ndim) if a not in axes]
    lines = x.transpose(kept + list(axes)).reshape(tuple(x.shape[a] for a in kept) + (-1,)) if kept else \
        x.reshape(1, -1)
    index = _reduce(lines, "arg" + op, (lines.ndim - 1,), fit_accumulator(dt.int64, x.device), True)
    picked = take_along_axis(lines, index, -1)
    shape = tuple(1 if a in axes else n for a, n in enumerate(x.shape)) if keepdims else \
        tuple(x.shape[a] for a in kept)
    # a new array on the reshaped node, not a view of the temporary `picked`: NumPy's result owns its data
    # (base None), and a 0-d one stands for a scalar (`m = z.max(); y = m; m += 1` leaves y)
    return Array(mv.reshape_node(picked._n, shape))


# (op, on booleans) -> the value of a reduction over an empty axis (any/all reduce booleans by max/min)
_EMPTY_IDENTITY = {("sum", False): 0, ("sum", True): 0, ("prod", False): 1, ("prod", True): 1,
                   ("max", True): False, ("min", True): True}


def require_nonempty(x: Array, axes, name: str) -> None:
    """NumPy's ValueError for a reduction without an identity (``name``: max, min) over an empty axis."""
    if builtins.any(x.shape[a] == 0 for a in axes):
        raise ValueError(f"zero-size array to reduction operation {name} which has no identity")


def reduce_axes(axis, ndim: int) -> tuple[int, ...]:
    """The reduced axes, checked as NumPy's ufunc reductions check them: a 0-d array also takes the single axis
    ``0`` or ``-1`` (not in a tuple), reducing nothing (``np.amax(1, axis=0)`` is 1)."""
    if ndim == 0 and isinstance(axis, (int, np.integer)) and not isinstance(axis, bool) and axis in (0, -1):
        return ()
    return mv.normalize_axes(axis, ndim, mv.DUPLICATE_AXES)


# NumPy's "not passed" marker of sum's and prod's ``initial``: left out, the fold starts from the identity; an
# explicit ``initial=None`` means no identity (an empty axis or a where mask is NumPy's ValueError)
NO_INITIAL = np._NoValue


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=NO_INITIAL, where=True) -> Array:
    """Sum of elements over ``axis`` (``where``/``initial``/``out`` as NumPy's: ``reduction_where.py``)."""
    initial = rw.checked_initial(initial)
    x = _arr(a)
    axes = reduce_axes(axis, x.ndim)
    if initial is None:  # no identity: the fold starts from the first element (all -0.0 stays -0.0)
        _no_identity(x, axes, "add", where)
    r = _sum(rw.masked(x, where, 0), axes, numpy_dtype(np.sum, x, rw.loop_dtype(x, dtype, out)), keepdims)
    if initial is NO_INITIAL:  # a float sum's zero is +0.0, as NumPy 2's fold from +0.0 (kdsl.codegen.reduce_parts)
        return rw.into(r, out)
    if r.dtype.np.kind in "fc":  # a fold from initial, or (None) from the first element
        r = _negative_zero_kept(x.astype(r.dtype), r, axes, keepdims, where)
    return rw.into(r if initial is None else (r + rw.initial_in(initial, r.dtype)).astype(r.dtype), out)


def _sum(x: Array, axes: tuple[int, ...], d: dt.DType, keepdims: bool) -> Array:
    """The sum over ``axes`` in ``d``, a float one's zero +0.0 as NumPy 2's fold from +0.0 (a reduction kernel
    stores it so: kdsl.codegen.reduce_parts; over no axes, +0.0 is added)."""
    r = _reduce(x, "sum", axes, d, keepdims)
    return ops.apply("add", r, rw.constant(0, r)) if not axes and r.dtype.np.kind in "fc" else r


def _negative_zero_kept(x: Array, r: Array, axes: tuple[int, ...], keepdims: bool, where) -> Array:
    """The sum ``r`` of float ``x`` (whose zeros are +0.0) as a fold from ``-0.0``: NumPy's fold from ``initial``
    keeps initial's sign only when every element added is ``-0.0`` (or none is): ``sum([-0.0], initial=-0.0)``
    and ``sum([1.0], initial=-0.0, where=False)`` are ``-0.0``. Complex sums take each part's own rule."""
    from kdsl.frontend.array.elementwise_extra import signbit  # cycle: that module imports this one

    def kept(part: Array, total: Array) -> Array:
        others = ops.apply("not", signbit(part)) | (part != 0)
        return ops.where(any(others, axis=axes, keepdims=keepdims, where=where), total, -0.0)

    if x.dtype.kind != "c":
        return kept(x, r)
    out = r.copy()
    out.real, out.imag = kept(x.real, r.real), kept(x.imag, r.imag)
    return out


def _no_identity(x: Array, axes, name: str, where) -> None:
    """NumPy's errors for ``initial=None``, a reduction told it has no identity: a where mask, an empty axis."""
    rw.no_identity(name, None, where)
    require_nonempty(x, axes, name)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=NO_INITIAL, where=True) -> Array:
    """Product of elements over ``axis`` (``where``/``initial``/``out`` as NumPy's; ``initial=None``: no identity)."""
    initial = rw.checked_initial(initial)
    x = _arr(a)
    axes = reduce_axes(axis, x.ndim)
    if initial is None:
        _no_identity(x, axes, "multiply", where)
    initial = None if initial is NO_INITIAL else initial
    r = _reduce(rw.masked(x, where, 1), "prod", axes, numpy_dtype(np.prod, x, rw.loop_dtype(x, dtype, out)),
                keepdims)
    return rw.into(r if initial is None else (r * rw.initial_in(initial, r.dtype)).astype(r.dtype), out)


def max(a, axis=None, out=None, keepdims=False, initial=None, where=True) -> Array:
    """Largest element over ``axis`` (NaN propagates; ``where`` needs ``initial``, as NumPy's)."""
    return _extreme(a, "max", axis, keepdims, out, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=True) -> Array:
    """Smallest element over ``axis`` (NaN propagates; ``where`` needs ``initial``, as NumPy's)."""
    return _extreme(a, "min", axis, keepdims, out, initial, where)


def _extreme(x, op: str, axis, keepdims: bool, out, initial, where) -> Array:
    x = _arr(x)
    initial = rw.checked_initial(initial)
    name = {"max": "maximum", "min": "minimum"}[op]
    rw.no_identity(name, initial, where)
    axes = reduce_axes(axis, x.ndim)
    if initial is None:
        require_nonempty(x, axes, name)
        return rw.into(_reduce(x, op, axes, x.dtype, keepdims), out)
    initial = rw.initial_in(initial, x.dtype)  # NumPy's conversion: max(int8s, initial=1e30) is its OverflowError
    if x.size == 0:  # NumPy: the initial value, in the reduced shape (where= checked all the same)
        rw.mask_of(x, where)
        from kdsl.frontend.array.creation import full  # cycle: that module builds Arrays

        shape = tuple(1 if a in axes else n for a, n in enumerate(x.shape)) if keepdims else \
            tuple(n for a, n in enumerate(x.shape) if a not in axes)
        return rw.into(full(shape, initial, dtype=x.dtype, device=x.device), out)
    r = _reduce(rw.masked(x, where, initial), op, axes, x.dtype, keepdims)
    return rw.into(ops.apply("maximum" if op == "max" else "minimum", r, rw.constant(initial, x)), out)


amax, amin = max, min


def any(a, axis=None, out=None, keepdims=False, *, where=True) -> Array:
    """Whether any element over ``axis`` is true (``where``: only those elements)."""
    x = _arr(a)
    b = rw.masked(x.astype(dt.bool_), where, False)
    return rw.into(_reduce(b, "max", reduce_axes(axis, x.ndim), dt.bool_, keepdims), out)


def all(a, axis=None, out=None, keepdims=False, *, where=True) -> Array:
    """Whether every element over ``axis`` is true (``where``: only those elements)."""
    x = _arr(a)
    b = rw.masked(x.astype(dt.bool_), where, True)
    return rw.into(_reduce(b, "min", reduce_axes(axis, x.ndim), dt.bool_, keepdims), out)


def _arg(x, op: str, axis, keepdims: bool) -> Array:
    x = _arr(x)
    if axis is not None:  # one axis: NumPy's TypeError for a tuple or a float ("cannot be interpreted as an integer")
        axis = operator.index(axis)
    a = None if axis is None or not reduce_axes(axis, x.ndim) else mv.normalize_axis(axis, x.ndim)
    if x.size == 0 and (a is None or x.shape[a] == 0):
        raise ValueError(f"attempt to get {op} of an empty sequence")
    out_dtype = fit_accumulator(dt.int64, x.device)
    if a is None:
        flat = x.reshape(-1)
        out = _reduce(flat, op, (0,), out_dtype, False)
        return _keep(x, out._n, tuple(range(x.ndim)), keepdims)
    return _reduce(x, op, (a,), out_dtype, bool(keepdims))  # any truthy keepdims, as NumPy's argmax


def argmax(a, axis=None, out=None, *, keepdims=False) -> Array:
    """Index of the largest element over ``axis`` (``None``: of the flattened array), as int64. The first one
    wins ties; a line holding NaN gives the index of its first NaN, as in NumPy (kd.nanargmax skips NaN).

    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.array([[1.0, np.inf, np.nan, np.nan], [3.0, 7.0, 7.0, -1.0]], np.float32))
    >>> kd.argmax(a, axis=1).tolist(), int(kd.argmax(a))
    ([2, 1], 2)
    """
    return rw.into(_arg(a, "argmax", axis, keepdims), rw.index_out(out))


def argmin(a, axis=None, out=None, *, keepdims=False) -> Array:
    """Index of the smallest element over ``axis`` (``None``: of the flattened array), as int64. The first one
    wins ties; a line holding NaN gives the index of its first NaN, as in NumPy (kd.nanargmin skips NaN).

    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.array([[1.0, -np.inf, np.nan, np.nan], [3.0, -1.0, 7.0, -1.0]], np.float32))
    >>> kd.argmin(a, axis=1).tolist(), int(kd.argmin(a))
    ([2, 1], 2)
    """
    return rw.into(_arg(a, "argmin", axis, keepdims), rw.index_out(out))


def _nan_like(total: Array) -> Array:
    from kdsl.frontend.array.shape_ops import broadcast_values_to  # cycle: that module imports this one

    if total.dtype.kind == "c":  # NumPy's 0j / 0: NaN in both parts
        nan: complex | float = complex(math.nan, math.nan)
        d = total.dtype
    else:
        nan, d = math.nan, (total.dtype if total.dtype.is_float else dt.float32)
    return broadcast_values_to(Array(ops.const_node(nan, d, total.device)), total.shape)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True) -> Array:
    """Arithmetic mean over ``axis`` (ints give float64 like NumPy; float32 on devices without float64);
    ``where`` averages only those elements (``reduction_where.py``)."""
    x = _arr(a)
    axes = mv.normalize_axes(axis, x.ndim, mv.DUPLICATE_AXES)
    empty_slices.warn_empty(x.shape, axes, where)
    result = _quiet_mean(x, axes, dtype, out, _keepdims(keepdims), where)
    return _warn_when_read(result, x, axes, where, None)


def _warn_when_read(result: Array, x: Array, axes: tuple[int, ...], where, ddof) -> Array:
    """``result`` of a mean (``ddof`` None) or variance with a kdsl array ``where`` mask, whose counts are on
    the device: it warns as :func:`empty_slices.warn_empty` when read back (read_warnings.py)."""
    if not isinstance(where, Array):  # (host masks and where=True: warned at the call)
        return result
    counted = rw.count(x, where, axes, dt.int32, False)
    if counted is None:
        return result
    if ddof is None:
        return read_warnings.defer(result, counted == 0, "Mean of empty slice")
    return read_warnings.defer(result, counted <= ddof, "Degrees of freedom <= 0 for slice")


def _quiet_mean(x: Array, axes: tuple[int, ...], dtype, out, keepdims: bool, where) -> Array:
    """:func:`mean` without its warning (``var`` warns its own)."""
    n = math.prod(x.shape[a] for a in axes)
    d = numpy_dtype(np.mean, x, dtype)
    # NumPy sums float16 in float32 and casts the mean back: a float16 sum overflows past 65504
    acc = dt.float32 if dtype is None and x.dtype is dt.float16 else d
    counted = rw.count(x, where, axes, acc, False)
    total = _sum(rw.masked(x, where, 0), axes, acc, False)
    if counted is not None:  # 0 / 0 is NaN where nothing is included, as NumPy's
        result = total / counted
    else:  # An empty mean is NaN; a NaN constant (not 0 * NaN, which drivers may fold to 0) makes sure of it.
        # sum / n, NumPy's division (total * (1 / n) is an ulp off: mean([1., 2., 2.]) 1.6666666666666665)
        result = total / n if n else _nan_like(total)
    if result.dtype is not d:
        result = result.astype(d)
    if keepdims:
        result = _keep(x, result._n, axes, True)
    return rw.into(result, out)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None) -> Array:
    """Variance over ``axis``: ``mean(|x - mean(x)|**2) * n / (n - ddof)``; ``correction`` is the array API
    standard's name for ``ddof``; ``where`` counts only those elements; ``mean`` (NumPy 2's) is the mean already
    computed, with ``keepdims=True``'s shape."""
    result = _variance(a, axis, dtype, ddof, _keepdims(keepdims), where, mean, correction, False)
    return read_warnings.carry(result, rw.into(result, out))


def _variance(a, axis, dtype, ddof, keepdims: bool, where, mean, correction, root: bool) -> Array:
    """:func:`var`'s result (an integer ``dtype``'s standard deviation too, when ``root``: NumPy casts each
    step back to it)."""
    x = _arr(a)
    ddof = ddof_or_correction(ddof, correction)
    axes = mv.normalize_axes(axis, x.ndim, mv.DUPLICATE_AXES)
    n = math.prod(x.shape[a] for a in axes)
    d = numpy_dtype(np.var, x, dtype)
    empty_slices.warn_empty(x.shape, axes, where, ddof)
    if is_integer_moment(d):  # NumPy's steps, each cast back to the integer dtype
        return integer_variance(x, axes, d, ddof, keepdims, where, root, None if mean is None else _arr(mean))
    xd = x.astype(d) if x.dtype.kind != "c" else x  # complex: the mean of |x - mean|**2, a real number
    centred = xd - (_quiet_mean(xd, axes, None, None, True, where) if mean is None else _arr(mean).astype(d))
    squares = centred * centred if x.dtype.kind != "c" else \
        ops.apply("real", centred) ** 2 + ops.apply("imag", centred) ** 2
    total = _reduce(rw.masked(squares, where, 0), "sum", axes, d, False)
    counted = rw.count(x, where, axes, total.dtype, False)
    denom = n - ddof
    if counted is not None:  # NumPy divides by max(count - ddof, 0)
        result = total / ops.apply("maximum", counted - ddof, 0)
    elif not n:
        result = _nan_like(total)
    elif denom > 0:
        result = total / denom  # NumPy's division, not a product with 1 / denom (an ulp off)
    else:  # NumPy divides by max(n - ddof, 0): inf, or NaN where the sum of squares is 0
        result = total * float("inf")
    if keepdims:
        result = _keep(x, result._n, axes, True)
    return _warn_when_read(result, x, axes, where, ddof)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None) -> Array:
    """Standard deviation over ``axis`` (``sqrt(var)``; with ``out=``, ``reduction_where.root_into``)."""
    variance = _variance(a, axis, dtype, ddof, _keepdims(keepdims), where, mean, correction, out is None)
    if out is not None:
        return read_warnings.carry(variance, rw.root_into(variance, out))
    result = variance
    if not is_integer_moment(result.dtype):  # an integer dtype's root is taken by integer_variance
        result = ops.apply("sqrt", result)
    return read_warnings.carry(variance, result)


def ddof_or_correction(ddof, correction):
    """NumPy 2 takes ``ddof`` or the standard's ``correction``, not both."""
    if correction is None:
        return ddof
    if ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously; pass one of them")
    return correction
