"""NumPy's ``vectorize`` and ``frompyfunc``, for functions written as array math.

NumPy calls the Python function once per element. kdsl calls it once, with whole kdsl arrays: a function made
of arithmetic, comparisons and ``np``/``kd`` functions then builds one fused kernel, and the result is the
function's values broadcast to the arguments' shape, exactly as NumPy's loop would give. A function that does
Python control flow on a value (``if x > 0:``, ``math.sin(x)``, ``int(x)``, ``d[x]``) cannot take a whole array:
kdsl then falls back, deliberately, to NumPy's own per-element loop on the host (``vectorize_host.py``: the inputs
are read back, a round trip) and warns once per vectorized function with ``kd.PerformanceWarning``, naming the
array-math rewrite that runs on the GPU (``kd.where(x > 0, a, b)`` instead of ``a if x > 0 else b``).
``frompyfunc`` is the same with NumPy's ``nin``/``nout`` count checks; its results are numeric kdsl arrays
rather than NumPy's object arrays; its ``outer``, ``reduce`` and ``accumulate`` fold left as NumPy's object
loops do (``pyfunc_methods.py``). With ``signature=`` (a generalised ufunc) the function gets core slices, one
call per loop index, as NumPy's (``vectorize_signature.py``).

Example:
    >>> import kdsl as kd, warnings
    >>> f = kd.vectorize(lambda x, y: x * 2 + y)
    >>> f(kd.asarray([1, 2]), 10).tolist()
    [12, 14]
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     kd.vectorize(lambda x: 1.0 if x > 0 else 0.0)(kd.asarray([1.0, -1.0])).tolist()
    [1.0, 0.0]
    >>> caught[0].category.__name__
    'PerformanceWarning'
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import pyfunc_methods, vectorize_host, vectorize_otypes, vectorize_shape, vectorize_signature
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.elementwise_graph import reads_as_array
from kdsl.frontend.array.ops import broadcast_shapes
from kdsl.frontend.array.shape_ops import broadcast_values_to


def _as_array(x: Any) -> Array:
    """An argument as a kdsl array; host data with NumPy's dtype (Python ints are int64, floats float64)."""
    return x if isinstance(x, Array) else asarray(np.asarray(x))


def _host_text(args: tuple[Any, ...], kwargs: dict[str, Any], excluded: set[Any]) -> bool:
    """Whether an argument not excluded is host text (``["a", "b"]``, a ``<U`` array): kdsl arrays hold numbers,
    so the function runs in NumPy's loop on the host and its numeric results are uploaded.

    >>> _host_text((["a", "b"],), {}, set()), _host_text(([1, 2],), {}, set())
    (True, False)
    """
    items = [a for i, a in enumerate(args) if i not in excluded]
    items += [v for k, v in kwargs.items() if k not in excluded]
    for x in items:
        if isinstance(x, (str, bytes, np.ndarray, list, tuple)):
            try:
                if np.asarray(x).dtype.kind in "US":
                    return True
            except ValueError:  # a ragged list: _as_array raises NumPy's error for it
                pass
    return False


_NEEDS_ELEMENTS: Any = object()  # what _call_whole returns when the function needs concrete elements


def _call_whole(func: Callable[..., Any], args: list[Any], kwargs: dict[str, Any]) -> Any:
    """``func`` called once with whole arrays, or ``(_NEEDS_ELEMENTS, err, control_flow)`` where it did Python
    control flow on an element, or built arrays of shapes that only fit one element (``np.array([x, 0.5])``,
    ``c * x`` with a fixed ``c``: NumPy's loop gives each element its own call); any other error is the
    function's own and propagates."""
    try:
        return func(*args, **kwargs)
    except (TypeError, ValueError) as err:
        if vectorize_host.needs_elements(err):
            return _NEEDS_ELEMENTS, err, True
        if vectorize_shape.shape_error(err):
            return _NEEDS_ELEMENTS, f"for whole arrays it fails with {err}", False
        raise


def _checked_otypes(otypes: Any) -> list[Any] | None:
    """``otypes`` as a list, checked when given as NumPy checks it: each character of a string a type code
    (ValueError "Invalid otype specified"), each entry of a list a dtype (TypeError).

    >>> _checked_otypes("fd"), _checked_otypes(None)
    (['f', 'd'], None)
    """
    if otypes is None:
        return None
    if isinstance(otypes, str):
        for char in otypes:
            if char not in np.typecodes["All"]:
                raise ValueError(f"Invalid otype specified: {char}")
        return list(otypes)
    entries = list(otypes) if isinstance(otypes, (list, tuple)) else [otypes]
    for t in entries:
        np.dtype(t.np if isinstance(t, dt.DType) else t)  # NumPy's TypeError for what is no dtype
    return entries


def _kd_dtype(otype: Any) -> dt.DType:
    """An ``otypes`` entry (a type, a dtype, a character code) as a kdsl dtype."""
    return dt.as_dtype(np.dtype(otype.np if isinstance(otype, dt.DType) else otype))


def _shape_output(out: Any, shape: tuple[int, ...], otype: Any) -> Array:
    """One output: a kdsl array of the broadcast ``shape``, cast to ``otype`` if given."""
    # a new array, as NumPy's: not an input itself or a view of one (``lambda v: v`` must not alias its argument)
    arr = Array(out._node) if isinstance(out, Array) else asarray(np.asarray(out))
    if otype is not None and 0 in shape:  # NumPy makes no call, so nothing to check
        arr = arr.astype(_kd_dtype(otype))
    elif otype is not None:  # NumPy's OverflowError where a value does not fit an integer otype
        arr = vectorize_otypes.checked_cast(arr, _kd_dtype(otype))
    return broadcast_values_to(arr, shape) if arr.shape != shape else arr


class vectorize:  # noqa: N801 - NumPy's name
    """``kd.vectorize(pyfunc, otypes=None, doc=None, excluded=None, cache=False, signature=None)`` - NumPy's
    ``np.vectorize``, calling ``pyfunc`` once with whole arrays (see the module docstring). ``excluded``
    arguments (positions or names) are passed unchanged; ``otypes`` casts the outputs; with ``signature``
    (a generalised ufunc, e.g. ``"(n),(n)->()"``) the function is called once per loop index with the core
    slices, as NumPy's (``vectorize_signature.py``). Also a decorator, with or without arguments.

    >>> import kdsl as kd
    >>> @kd.vectorize
    ... def clipped(x, hi):
    ...     return kd.minimum(x, hi)
    >>> clipped(kd.asarray([1, 5, 9]), 4).tolist()
    [1, 4, 4]
    """

    def __init__(self, pyfunc: Callable[..., Any] | None = None, otypes: Any = None, doc: str | None = None,
                 excluded: Any = None, cache: bool = False, signature: str | None = None) -> None:
        if pyfunc is not None and not callable(pyfunc):  # NumPy's check: a later call would fail far from here
            raise TypeError(f"vectorize: pyfunc must be callable, not {type(pyfunc).__name__}; pass the function "
                            "(the other settings by keyword, e.g. kd.vectorize(otypes='f'))")
        if signature is not None:
            vectorize_signature.parse_signature(signature)  # NumPy checks it here
        self.pyfunc = pyfunc
        self.otypes = _checked_otypes(otypes)
        self.excluded = set(excluded or ())
        self.cache = cache
        self.signature = signature
        self._warned = False  # the host fallback warns once per vectorized function
        self.__doc__ = doc if doc is not None else getattr(pyfunc, "__doc__", None)
        if pyfunc is not None:
            functools.update_wrapper(self, pyfunc, assigned=("__name__", "__qualname__", "__module__"),
                                     updated=())

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.pyfunc is None:  # @kd.vectorize(otypes=...) then applied to the function
            (func,) = args
            return vectorize(func, self.otypes, None, self.excluded, self.cache, self.signature)
        if self.signature is not None:
            return self._apply_signature(args, kwargs)
        return self._apply("vectorize", args, kwargs)

    def _apply_signature(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """A generalised ufunc: one call per loop index with the core slices (``vectorize_signature.py``);
        the arguments not excluded are its inputs, positional ones first, then keywords (as NumPy's)."""
        free = [_as_array(a) for i, a in enumerate(args) if i not in self.excluded]
        free += [_as_array(v) for k, v in kwargs.items() if k not in self.excluded]
        assert self.pyfunc is not None and self.signature is not None
        func = self.pyfunc

        def invoke(values: list[Array]) -> Any:
            it = iter(values)
            pos = [a if i in self.excluded else next(it) for i, a in enumerate(args)]
            kw = {k: v if k in self.excluded else next(it) for k, v in kwargs.items()}
            return func(*pos, **kw)

        otypes = [_kd_dtype(t) for t in self.otypes] if self.otypes else None
        return vectorize_signature.call(invoke, self.signature, free, otypes)

    def _apply(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if _host_text(args, kwargs, self.excluded):  # np.vectorize(codes.get)(labels): NumPy's loop on the host
            return self._on_host(args, kwargs)  # (no warning: text has no GPU form to point at)
        pos = [a if i in self.excluded else _as_array(a) for i, a in enumerate(args)]
        kw = {k: v if k in self.excluded else _as_array(v) for k, v in kwargs.items()}
        # excluded arguments pass through whole (a kdsl array among them too): they set no loop shape
        free = [a for i, a in enumerate(pos) if i not in self.excluded]
        free += [v for k, v in kw.items() if k not in self.excluded]
        arrays = [a for a in free if isinstance(a, Array)]
        shape = broadcast_shapes(*[a.shape for a in arrays]) if arrays else ()
        if name == "vectorize" and not self.otypes and 0 in shape:  # NumPy's: no call gives the output dtype
            raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
        assert self.pyfunc is not None
        out = _call_whole(self.pyfunc, pos, kw)
        if isinstance(out, tuple) and out and out[0] is _NEEDS_ELEMENTS:
            # outside the except block, so that the function's own errors on the host chain to nothing
            if not self._warned:
                self._warned = True
                vectorize_host.warn(name, self.pyfunc, out[1], control_flow=out[2])
            return self._on_host(args, kwargs)
        outs = list(out) if isinstance(out, tuple) else [out]
        reason = vectorize_shape.not_elementwise(outs, shape, arrays) or self._reads_excluded(outs, pos, kw)
        if reason is None and any(a.size > 1 for a in arrays):  # a Python value: one constant, or str(x)...
            free_keys = {i for i in range(len(pos)) if i not in self.excluded} | {
                k for k in kw if k not in self.excluded}
            reason = vectorize_shape.host_value_differs(self.pyfunc, outs, pos, kw, free_keys)
        if reason is not None:  # a function of one element (it builds or reduces arrays): NumPy's loop
            if not self._warned:
                self._warned = True
                vectorize_host.warn(name, self.pyfunc, reason, control_flow=False)
            return self._on_host(args, kwargs)
        if isinstance(out, tuple):
            types = self.otypes or [None] * len(out)
            return tuple(_shape_output(o, shape, t) for o, t in zip(out, types, strict=False))
        return _shape_output(out, shape, self.otypes[0] if self.otypes else None)

    def _reads_excluded(self, outs: list[Any], pos: list[Any], kw: dict[str, Any]) -> str | None:
        """Why the call with whole arrays differs from NumPy's where an output reads an excluded kdsl array
        element by element (``x + a``): NumPy passes ``a`` whole to each call, so each call's result is an array
        (NumPy's ValueError, or an object array of arrays); None where it does not."""
        excluded = [a for i, a in enumerate(pos) if i in self.excluded]
        excluded += [v for k, v in kw.items() if k in self.excluded]
        for a in excluded:
            if isinstance(a, Array) and a.ndim and any(isinstance(o, Array) and reads_as_array(o, a) for o in outs):
                return (f"it reads the excluded argument of shape {a.shape} element by element; NumPy passes an "
                        "excluded argument whole to each call (each call's result is an array)")
        return None

    def _on_host(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """NumPy's per-element loop on the host, for a function that needs concrete elements."""
        assert self.pyfunc is not None
        return vectorize_host.call_vectorize(self.pyfunc, args, kwargs, otypes=self.otypes,
                                             excluded=self.excluded, cache=self.cache, doc=self.__doc__)


def _into(result: Array, dtype: Any, out: Any) -> Array:
    """A method's result cast to ``dtype`` (``object``: as computed) and written into ``out`` if given."""
    if dtype is not None and np.dtype(dtype) != np.dtype(object):
        result = result.astype(dt.as_dtype(np.dtype(dtype)))
    if out is not None:
        target = out[0] if isinstance(out, tuple) else out
        target[...] = result
        return target
    return result


class _PyFunc(vectorize):
    """What :func:`frompyfunc` returns: ``vectorize`` with NumPy's argument and output counts."""

    def __init__(self, func: Callable[..., Any], nin: int, nout: int, identity: Any = None) -> None:
        super().__init__(func)
        self.nin, self.nout, self.identity = nin, nout, identity
        self.__name__ = f"{getattr(func, '__name__', 'function')} (vectorized)"  # NumPy's ufunc name

    # NumPy's ufunc attributes of an object ufunc (code that inspects ufuncs reads them): one 'O' loop
    @property
    def nargs(self) -> int:
        return self.nin + self.nout

    @property
    def ntypes(self) -> int:
        return 1

    @property
    def types(self) -> list[str]:
        return ["O" * self.nin + "->" + "O" * self.nout]

    def __repr__(self) -> str:
        return f"<ufunc {self.__name__!r}>"

    def outer(self, a: Any, b: Any) -> Any:
        """``f(a[i], b[j])`` for every pair (NumPy's ``ufunc.outer``)."""
        return pyfunc_methods.outer(self, self.nin, self.nout, _as_array(a), _as_array(b))

    def accumulate(self, array: Any, axis: int = 0, dtype: Any = None, out: Any = None) -> Array:
        """The running left fold along ``axis`` (``dtype=object`` is accepted; the result is numeric)."""
        return _into(pyfunc_methods.accumulate(self, self.nin, self.nout, _as_array(array), axis), dtype, out)

    def reduce(self, array: Any, axis: Any = 0, dtype: Any = None, out: Any = None, keepdims: bool = False,
               initial: Any = pyfunc_methods.NO_INITIAL) -> Any:
        """The left fold along ``axis`` (NumPy's ``ufunc.reduce`` of an object ufunc)."""
        result = pyfunc_methods.reduce(self, self.nin, self.nout, self.identity, _as_array(array), axis,
                                       keepdims, initial, f"{getattr(self.pyfunc, '__name__', 'f')} (vectorized)")
        return _into(result, dtype, out)

    def reduceat(self, array: Any, indices: Any, axis: int = 0, dtype: Any = None, out: Any = None) -> Array:
        """The left fold of each segment ``array[indices[i]:indices[i + 1]]`` (NumPy's ``ufunc.reduceat``)."""
        return _into(pyfunc_methods.reduceat(self, self.nin, self.nout, _as_array(array), indices, axis,
                                             self.__name__), dtype, out)

    def at(self, a: Any, indices: Any, b: Any = None, /) -> None:
        """``a[i] = f(a[i], b)`` in place for each index, repeats applying again (NumPy's ``ufunc.at``)."""
        if not isinstance(a, Array):
            raise TypeError(f"{self.__name__}.at writes into a kdsl array, not {type(a).__name__}; pass "
                            "kd.asarray(a) (or call NumPy's own frompyfunc on host data)")
        pyfunc_methods.at(self, self.nin, a, indices, b)

    def _on_host(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """NumPy's object ufunc on the host; its object results as numeric kdsl arrays."""
        assert self.pyfunc is not None
        return vectorize_host.call_frompyfunc(self.pyfunc, self.nin, self.nout, args, kwargs)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if len(args) != self.nin:
            raise TypeError(f"{getattr(self.pyfunc, '__name__', 'function')} (vectorized) takes {self.nin} "
                            f"argument(s), got {len(args)}")
        out = self._apply("frompyfunc", args, kwargs)
        if (len(out) if isinstance(out, tuple) else 1) != self.nout:
            raise ValueError(f"frompyfunc: the function returned {len(out) if isinstance(out, tuple) else 1} "
                             f"value(s), nout={self.nout}")
        return out


def frompyfunc(func: Callable[..., Any], /, nin: int, nout: int, *, identity: Any = None) -> vectorize:
    """A ufunc-like callable from a Python function (NumPy's ``np.frompyfunc``), calling it once with whole
    arrays (see the module docstring): numeric kdsl results, not object arrays.

    >>> import kdsl as kd
    >>> kd.frompyfunc(lambda a, b: a * b, 2, 1)(kd.asarray([1, 2, 3]), 2).tolist()
    [2, 4, 6]
    """
    if nin < 1 or nout < 1:
        raise ValueError(f"frompyfunc: nin and nout must be at least 1, got nin={nin}, nout={nout}")
    return _PyFunc(func, nin, nout, identity)
