"""NumPy's ufunc folds for kdsl's binary functions (the base of :class:`kdsl.frontend.array.ufunc_methods.Ufunc`):
``reduce``, ``accumulate`` and ``reduceat``, each by the kdsl reduction or scan that computes it (``add.reduce`` is
``sum``, ``logical_and.reduce`` is ``all``, ``multiply.accumulate`` is ``cumprod``, ``logaddexp.reduce`` a shifted
log-sum-exp, ``bitwise_xor.reduce`` and ``gcd.reduce`` fold halves pairwise; ``subtract``, ``divide``, ``power``...
fold from the left, :mod:`kdsl.frontend.array.left_folds`), on axis 0 unless told otherwise, as NumPy's.

    >>> import kdsl as kd
    >>> kd.add.reduce(kd.asarray([[1, 2], [3, 4]])).tolist(), kd.add.accumulate(kd.arange(4)).tolist()
    ([4, 6], [0, 1, 3, 6])
"""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np

from kdsl.frontend.array import comparison_folds, left_folds, ufunc_loops, ufunc_reduceat
from kdsl.frontend.array import reduction_where as rw
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.movement import normalize_axis
from kdsl.frontend.array.scatter import WithAt
from kdsl.frontend.array.ufunc_arguments import method_into, single_axis
from kdsl.frontend.array.ufunc_errors import no_matching_loop_error
from kdsl.frontend.array.where_masks import where_mask

# ufunc.reduce / ufunc.accumulate -> the kdsl function that computes it
REDUCE = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min", "logical_and": "all",
          "logical_or": "any", "fmax": "nanmax", "fmin": "nanmin"}
ACCUMULATE = {"add": "cumsum", "multiply": "cumprod"}
# associative ufuncs whose accumulate is a doubling scan of the ufunc itself (log2(n) lazy steps; lcm's products
# that wrap around combine in another order than NumPy's sequential fold, as in its reduce)
DOUBLING = ("maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or", "logical_xor", "bitwise_and",
            "bitwise_or", "bitwise_xor", "logaddexp", "logaddexp2", "gcd", "lcm")
# associative, commutative ufuncs without a kdsl reduction: reduce folds halves pairwise (log2(n) lazy steps)
TREE = ("bitwise_and", "bitwise_or", "bitwise_xor", "logical_xor", "gcd", "lcm", "hypot")
# reductions that are a shifted log-sum-exp (the forward algorithm's np.logaddexp.reduce), base e or 2
LOG_REDUCE = {"logaddexp": ("exp", "log"), "logaddexp2": ("exp2", "log2")}
# NumPy's identities (None: the ufunc has none)
IDENTITY = {"add": 0, "subtract": None, "multiply": 1, "logical_and": True, "logical_or": False,
            "logical_xor": False, "bitwise_and": -1, "bitwise_or": 0, "bitwise_xor": 0, "gcd": 0, "hypot": 0,
            "logaddexp": -np.inf, "logaddexp2": -np.inf}


def _kd() -> Any:
    return sys.modules["kdsl"]  # the namespace's reductions (this module sits below it in the layers)


def _refuse(name: str, method: str, table: Any) -> Exception:
    signature = getattr(getattr(np, name, None), "signature", None)
    if signature:  # a generalized ufunc (matmul, vecdot...): no reductions, NumPy's RuntimeError
        return RuntimeError(f"Reduction not defined on ufunc with signature: {name} has signature {signature}, "
                            f"so it has no {method}")
    have = ", ".join(f"{n}.{method}" for n in table)
    return TypeError(f"kdsl has no {name}.{method} (it has {have}); write the loop with kdsl's operations, or "
                     f"call np.{name}.{method} on np.asarray(a)")


class WithFolds(WithAt):
    """An elementwise function with NumPy's ufunc folds (its ``nin`` and ``nout`` set by the ufunc)."""

    nin: int
    nout: int

    def _fold_arity(self, method: str, outputs: bool = True) -> None:
        """NumPy's ValueError for a method of a ufunc that is not binary (``np.negative.reduce``) or, for the
        folds, gives two outputs (``np.divmod.reduce``)."""
        if self.nin != 2:
            raise ValueError(f"{method} only supported for binary functions (kd.{self._name} takes {self.nin})")
        if outputs and self.nout != 1:
            raise ValueError(f"{method} only supported for functions returning a single value "
                             f"(kd.{self._name} returns {self.nout})")

    @property
    def identity(self) -> Any:
        return IDENTITY.get(self._name)

    def reduce(self, a: Any, axis: Any = 0, dtype: Any = None, out: Any = None, keepdims: bool = False,
               initial: Any = np._NoValue, where: Any = True, **kwargs: Any) -> Array:
        """``op`` folded over ``axis`` (0 by default; None: all axes), as kdsl's reduction for it; NumPy's
        order of arguments (``initial`` and ``where`` may be positional too; ``initial=None``: no identity).
        ``out`` must have the result's shape, as NumPy's (ValueError: it is not broadcast to).

        >>> import kdsl as kd
        >>> kd.maximum.reduce(kd.asarray([[1, 5], [7, 2]]), axis=1).tolist()
        [5, 7]
        """
        self._fold_arity("reduce")
        # only the arguments given reach the fold: each reduction has its own default
        if initial is not np._NoValue:
            kwargs["initial"] = rw.checked_initial(initial)
        if where is not True:
            kwargs["where"] = where
        return method_into(self._reduced(a, axis, dtype, keepdims, **kwargs), out, self._name, "reduce")

    def _check_loop(self, dtype: Any) -> None:
        """NumPy's TypeError for a fold's ``dtype=`` that names no loop of the ufunc (``np.hypot.accumulate(x,
        dtype=np.int64)``, ``np.logical_or.accumulate(m, dtype=float)``: kdsl computed them anyway)."""
        if dtype is not None and self._name not in comparison_folds.COMPARISONS and \
                not ufunc_loops.has_loop(self._name, np.dtype(getattr(dtype, "np", dtype))):
            raise no_matching_loop_error(self._name)

    def _reduced(self, a: Any, axis: Any, dtype: Any, keepdims: bool, **kwargs: Any) -> Array:
        """:meth:`reduce`'s result, by the fold that fits the ufunc."""
        self._check_loop(dtype)
        if self._name in comparison_folds.COMPARISONS:  # bool operands only, as NumPy's loops
            return comparison_folds.reduce(self._name, self._fn, a, axis, dtype, keepdims, **kwargs)
        if self._name in LOG_REDUCE or self._name in TREE:  # before FOLDS: hypot is reorderable (identity 0)
            return self._folded(asarray(a) if dtype is None else asarray(a).astype(dtype), axis, keepdims, **kwargs)
        if self._name in left_folds.FOLDS:  # not associative: NumPy's left fold
            return left_folds.left_reduce(self._name, self._fn, a, axis, dtype, keepdims, **kwargs)
        if self._name not in REDUCE:
            raise _refuse(self._name, "reduce", REDUCE | LOG_REDUCE | dict.fromkeys(TREE + left_folds.FOLDS
                                                                                 + comparison_folds.COMPARISONS))
        x, reduction = asarray(a), REDUCE[self._name]
        if dtype is not None and reduction in ("max", "min", "nanmax", "nanmin"):  # no dtype= of their own:
            x = x.astype(dtype)  # NumPy's loop casts the input (unsafely, as its reductions do: 300 -> int8 44)
        elif dtype is not None and reduction in ("all", "any"):  # a logical fold's only loop is bool's ('??->?')
            if np.dtype(getattr(dtype, "np", dtype)) != np.bool_:
                raise no_matching_loop_error(self._name)
        elif dtype is not None:
            kwargs["dtype"] = dtype
        if reduction in ("all", "any") and "initial" in kwargs:  # np.logical_or.reduce(m, initial=1): folded in
            initial = bool(kwargs.pop("initial"))
            folded = getattr(_kd(), reduction)(x, axis=axis, keepdims=keepdims, **kwargs)
            return folded & initial if reduction == "all" else folded | initial
        return getattr(_kd(), reduction)(x, axis=axis, keepdims=keepdims, **kwargs)

    def _folded(self, x: Array, axis: Any, keepdims: bool, initial: Any = None, where: Any = True,
                **kwargs: Any) -> Array:
        """The log-sum-exp or by-halves reduction, with NumPy's ``initial`` folded in last; ``where=`` puts the
        identity in the masked-out places (a ufunc without one needs ``initial``, as NumPy says)."""
        if kwargs:
            raise TypeError(f"kd.{self._name}.reduce does not support {', '.join(kwargs)}")
        # the loop's type first, as NumPy: lcm of floats is its TypeError whatever the axes, hypot and logaddexp
        # of integers fold in their float type, and where='s identity (-inf for logaddexp) is stored in that type
        x = self._in_loop_type(x)
        self._check_fold(x, axis)
        if where is not True:
            if self.identity is None and initial is None:
                raise ValueError(f"reduction operation '{self._name}' does not have an identity, so to use a "
                                 "where mask one has to specify 'initial'")
            fill = self.identity if self.identity is not None else initial  # a fold of initial with itself
            x = _kd().where(where_mask(where, x.device), x, np.array(fill).astype(x.dtype.np).item())
        fold = self._log_reduce if self._name in LOG_REDUCE else self._tree_reduce
        if initial is None:
            return fold(x, axis, keepdims)
        if self.identity is None and x.size == 0:  # lcm of nothing: the initial value (NumPy's result shape)
            shape = np.empty(x.shape, bool).sum(axis=axis, keepdims=keepdims).shape  # metadata only
            return _kd().full(shape, initial, dtype=x.dtype)
        folded = fold(x, axis, keepdims)
        start = np.zeros(1, folded.dtype.np)
        start[0] = initial  # NumPy stores initial in the result's dtype: 1 into bool is True (an int before)
        return self._fn(folded, start[0].item())

    def _check_fold(self, x: Array, axis: Any) -> None:
        """NumPy's error before any folding, whatever the size or ``initial`` (after the loop's type, which
        :meth:`_in_loop_type` checks first: ``np.lcm.reduce`` of bools is a TypeError): a ufunc without an
        identity over several axes (``np.lcm.reduce(np.ones((0, 2), int), axis=None, initial=4)``: ValueError;
        it gave 4)."""
        if self.identity is None and len(self._axes(x, axis)) > 1:
            raise ValueError(f"reduction operation '{self._name}' is not reorderable, so at most one axis may be "
                             "specified")

    @staticmethod
    def _axes(x: Array, axis: Any) -> tuple[int, ...]:
        """``axis`` as the sorted tuple of distinct non-negative axes it names (None: all of them; axis 0 of a 0-d
        array: none, as NumPy reduces nothing there)."""
        if x.ndim == 0 and isinstance(axis, (int, np.integer)) and not isinstance(axis, bool) and axis in (0, -1):
            return ()
        axes = tuple(range(x.ndim)) if axis is None else axis if isinstance(axis, tuple) else (axis,)
        return tuple(sorted({normalize_axis(a, x.ndim) for a in axes}))

    def _tree_reduce(self, x: Array, axis: Any, keepdims: bool) -> Array:
        """``op`` folded over ``axis`` by halves: the reduced axes moved last and merged, then each step
        combines the first half with the second (an odd element carried), ``ceil(log2(n))`` lazy steps. ``x`` is
        in the loop's type already (:meth:`_folded`: bool for the logical ufuncs)."""
        kd = _kd()
        axes = self._axes(x, axis)
        kept = [a for a in range(x.ndim) if a not in axes]
        y = kd.permute_dims(x, kept + list(axes))
        y = y.reshape(tuple(x.shape[a] for a in kept) + (math.prod(x.shape[a] for a in axes),))
        if y.shape[-1] == 0:
            if self.identity is None:
                raise ValueError(f"zero-size array to reduction operation {self._name} which has no identity")
            y = kd.full(y.shape[:-1] + (1,), np.array(self.identity).astype(y.dtype.np).item(), dtype=y.dtype)
        while (n := y.shape[-1]) > 1:
            half = self._fn(y[..., : n // 2], y[..., n // 2: n // 2 * 2])
            y = half if n % 2 == 0 else kd.concatenate([half, y[..., n - 1:]], axis=-1)
        # NumPy folds in gcd's and hypot's identity 0 first: a lone -3 gives 3
        y = y[..., 0] if self._name not in ("gcd", "hypot") else kd.abs(y[..., 0])
        return y.reshape(tuple(1 if a in axes else x.shape[a] for a in range(x.ndim))) if keepdims else y

    def _in_loop_type(self, y: Array) -> Array:
        """``y`` in the type ``op``'s loop computes in, or the TypeError of a type it has none for: a fold or scan of
        a length-1 axis never applies ``op`` (``np.logaddexp.accumulate`` of a bool column is float16, and
        ``np.bitwise_xor.reduce`` of one float a TypeError, as NumPy's)."""
        empty = y.reshape(-1)[:0]
        dtype = self._fn(empty, empty).dtype  # lazy and empty: the types only
        return y if y.dtype == dtype else y.astype(dtype)

    def _log_reduce(self, x: Array, axis: Any, keepdims: bool) -> Array:
        """``logaddexp`` folded over ``axis`` as one log-sum-exp shifted by the maximum (no overflow); the
        shift is 0 where the maximum is not finite, so all ``-inf`` (or nothing) gives ``-inf``, an ``inf``
        gives ``inf`` and a NaN gives NaN, as NumPy's pairwise fold."""
        kd = _kd()
        exp, log = (getattr(kd, f) for f in LOG_REDUCE[self._name])
        x = x.astype(self._fn(x, x).dtype)  # integers compute in the ufunc's float type
        peak = kd.max(x, axis=axis, keepdims=True, initial=-np.inf)  # -inf: NumPy's identity (empty axes)
        shift = kd.where(kd.isfinite(peak), peak, 0)
        total = log(kd.sum(exp(x - shift), axis=axis, keepdims=keepdims))
        return total + shift.reshape(total.shape)

    def reduceat(self, a: Any, indices: Any, axis: Any = 0, dtype: Any = None, out: Any = None) -> Array:
        """NumPy's ``reduceat``: ``reduce(a[i:j])`` along ``axis`` for each pair of consecutive ``indices``
        (``a[i]`` where ``j <= i``; the last runs to the end). The indices are host data (a kdsl array is read
        back: they decide the result's shape); one lazy reduction per index, joined, or for many indices of an
        associative ufunc one segmented scan (:mod:`ufunc_reduceat`), of a left fold (subtract, divide,
        power...) one fold of all slices at once (:mod:`reduceat_folds`).

        >>> import kdsl as kd
        >>> kd.add.reduceat(kd.arange(8), [0, 4, 1, 5]).tolist()
        [6, 4, 10, 18]
        """
        self._fold_arity("reduceat")
        folds = REDUCE | LOG_REDUCE | dict.fromkeys(TREE + left_folds.FOLDS + comparison_folds.COMPARISONS)
        if self._name not in folds:  # reduceat is reduce of each slice: every ufunc with a reduce has it
            raise _refuse(self._name, "reduceat", folds)
        associative = self._name in ACCUMULATE or self._name in DOUBLING
        return method_into(ufunc_reduceat.reduceat(self, self._name, a, indices, axis, dtype, associative), out,
                           self._name, "reduceat")

    def accumulate(self, a: Any, axis: Any = 0, dtype: Any = None, out: Any = None) -> Array:
        """The running ``op`` along ``axis`` (0 by default), as kdsl's scan for it.

        >>> import kdsl as kd
        >>> kd.multiply.accumulate(kd.asarray([1, 2, 3, 4])).tolist()
        [1, 2, 6, 24]
        """
        self._fold_arity("accumulate")
        self._check_loop(dtype)
        x = asarray(a)
        axis = single_axis(x.ndim, axis, "accumulate")
        if self._name in comparison_folds.COMPARISONS:  # bool operands only, as NumPy's loops
            return method_into(comparison_folds.accumulate(self._name, x, axis, dtype), out, self._name, "accumulate")
        if self._name in left_folds.FOLDS:  # not associative: NumPy's left fold
            return method_into(left_folds.left_accumulate(self._name, self._fn, x, axis, dtype), out, self._name,
                         "accumulate")
        if self._name in DOUBLING:
            return method_into(self._doubling(x if dtype is None else x.astype(dtype), axis), out, self._name,
                         "accumulate")
        if self._name not in ACCUMULATE:
            raise _refuse(self._name, "accumulate", ACCUMULATE | dict.fromkeys(DOUBLING + left_folds.FOLDS
                                                                                   + comparison_folds.COMPARISONS))
        return method_into(getattr(_kd(), ACCUMULATE[self._name])(x, axis=axis, dtype=dtype), out, self._name,
                     "accumulate")

    def _doubling(self, x: Array, axis: int) -> Array:
        """The running ``op`` by recursive doubling: step ``k`` combines each element with the one ``k``
        before it (Hillis-Steele), so ``ceil(log2(n))`` steps of lazy slices and one ``concatenate`` each."""
        if x.ndim == 0:
            raise ValueError("accumulate needs an array of at least one dimension (got a 0-d array)")
        kd = _kd()
        y = kd.moveaxis(x, axis, -1)
        if self._name.startswith("logical"):
            y = y.astype(kd.bool)
        y = self._in_loop_type(y)
        k, n = 1, y.shape[-1]
        while k < n:
            y = kd.concatenate([y[..., :k], self._fn(y[..., k:], y[..., :-k])], axis=-1)
            k *= 2
        return kd.moveaxis(y, -1, axis)
