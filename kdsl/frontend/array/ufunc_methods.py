"""kdsl's elementwise functions as NumPy's ufuncs: the keywords of a call (``kd.add(a, 1, out=a)``,
``kd.exp(x, out=x)``, ``kd.divide(a, b, out=z, where=b != 0)``, ``dtype=``) and the methods
``kd.add.outer(a, b)``, ``kd.multiply.reduce(a, axis=1)``, ``kd.add.accumulate(a)``, ``kd.maximum.at(a, i, v)``;
``nin``/``nout``/``identity`` as NumPy's. Every kdsl function whose NumPy namesake is a ``np.ufunc`` is one.

``out=`` writes the result into the given kdsl array (a view writes through to its base) and returns it, after
NumPy's ``same_kind`` casting check; ``where=`` keeps ``out``'s old values (zeros without ``out``: NumPy leaves
them uninitialised) where the condition is False.

``outer`` broadcasts ``a`` against ``b`` with ``a``'s axes first (one fused kernel); ``reduce`` and ``accumulate``
run kdsl's reduction or scan for the ufunc (``add.reduce`` is ``sum``, ``logical_and.reduce`` is ``all``,
``multiply.accumulate`` is ``cumprod``, ``logaddexp.reduce`` a shifted log-sum-exp, ``bitwise_xor.reduce`` and
``gcd.reduce`` fold halves pairwise; ``subtract``, ``divide``, ``power``... fold from the left,
:mod:`kdsl.frontend.array.left_folds`), on axis 0 unless told
otherwise, as NumPy's. A method a ufunc lacks in kdsl raises ``TypeError`` naming the ones it has.

    >>> import kdsl as kd
    >>> kd.subtract.outer(kd.arange(3), kd.arange(2)).tolist()
    [[0, -1], [1, 0], [2, 1]]
    >>> kd.add.reduce(kd.asarray([[1, 2], [3, 4]])).tolist(), kd.add.accumulate(kd.arange(4)).tolist()
    ([4, 6], [0, 1, 3, 6])
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, MutableMapping
from typing import Any

import numpy as np

from kdsl.frontend.array import comparison_folds, left_folds, ufunc_loops, ufunc_reduceat, unary_at
from kdsl.frontend.array import reduction_where as rw
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.logical_text import logical_operands
from kdsl.frontend.array.movement import normalize_axis
from kdsl.frontend.array.scatter import WithAt
from kdsl.frontend.array.ufunc_arguments import (
    NO_OUT,
    cast_input,
    check_argument_count,
    check_keywords,
    check_out_count,
    ellipsis_out,
    loop_dtype,
    method_into,
    single_axis,
    ufunc_signature,
    warn_where_without_out,
    written_into,
)
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


def _host_only(name: str, args: tuple[Any, ...], out: Any, where: Any) -> bool:
    """Whether a ufunc call writes into a NumPy ``out`` from host operands only (``mulop(a, b, out=c)`` over the
    NumPy buffers of ``kd.nditer``, as NumPy's nditer guide writes it): no kdsl array is involved, nothing goes
    to or from the device, so NumPy's own ufunc computes it in place. With a kdsl operand, a NumPy ``out`` stays
    refused (``written_into``: kdsl never copies to the host silently)."""
    outs = out if isinstance(out, tuple) else (out,)
    if not any(isinstance(o, np.ndarray) for o in outs) or not isinstance(getattr(np, name, None), np.ufunc):
        return False
    return not any(isinstance(x, Array) or hasattr(type(x), "__kdsl_ufunc__") for x in (*args, *outs, where))


_PLAIN = frozenset((Array, bool, int, float, complex))  # operands a call without keywords passes straight on


class Ufunc(WithAt):
    """A kdsl elementwise function with NumPy's ufunc keywords and methods (``kd.multiply``, ``kd.exp``...)."""

    def __init__(self, fn: Callable[..., Any], name: str, nin: int = 2, nout: int = 1) -> None:
        super().__init__(getattr(fn, "_fn", fn), name)
        self.nin, self.nout = nin, nout
        self.__signature__ = ufunc_signature(self._fn, nin)
        npf = getattr(np, name, None)  # a comparison's dtype= is its output's: its loops all give bool
        self._bool_out = isinstance(npf, np.ufunc) and all(t.endswith("->?") for t in npf.types if "O" not in t)

    def __call__(self, *args: Any, out: Any = NO_OUT, where: Any = True, dtype: Any = None, casting: str = "same_kind",
                 order: str = "K", subok: bool = True, signature: Any = None, **kwargs: Any) -> Any:
        """``fn(*args)``; NumPy's ``out`` (also positional, after the inputs), ``where``, ``dtype``/``signature``
        (one dtype for the loop) and ``casting``; ``order``/``subok`` are checked and have nothing to change (one
        layout, no subclasses). Other keywords go to the function (``vecdot(axis=)``), which names any it lacks.
        ``where=`` without ``out`` warns as NumPy's (``out=None`` does not)."""
        if out is NO_OUT and where is True and dtype is None and signature is None and casting == "same_kind" and \
                order == "K" and subok is True and not kwargs and len(args) == self.nin and \
                all(type(a) in _PLAIN for a in args):  # kd.sin(x), kd.add(x, 2.0): no keyword has work to do
            return self._fn(*args)
        check_out_count(out, self.nout)
        check_argument_count(self._name, len(args), self.nin, self.nout)
        out_keyword, out = out, None if out is NO_OUT else out
        if len(args) > self.nin:  # NumPy's positional outputs: np.add(a, b, c) writes into c
            if out is not None:
                raise TypeError("cannot specify 'out' as both a positional and keyword argument")
            args, extra = args[:self.nin], args[self.nin:]
            if any(e is Ellipsis for e in extra):
                raise TypeError("out=... is only allowed as a keyword argument.")
            if any(isinstance(e, tuple) for e in extra):  # a tuple of outputs goes by keyword only
                raise TypeError("return arrays must be of ArrayType (pass a tuple of outputs as out=)")
            # one output: the array itself; several: a tuple with one entry per output (np.frexp(x, m) writes the
            # mantissas into m), so a positional out of a two-output ufunc is never dropped
            out = extra[0] if self.nout == 1 else tuple(extra) + (None,) * (self.nout - len(extra))
        out = ellipsis_out(out)
        if _host_only(self._name, args, out, where):  # kd.nditer's buffers: NumPy's data and NumPy's loop
            given = {k: v for k, v in (("dtype", dtype), ("signature", signature)) if v is not None}
            return getattr(np, self._name)(*args, out=out, where=where, casting=casting, order=order, subok=subok,
                                           **given, **kwargs)
        args = logical_operands(self._name, args)  # np.logical_and(a, "a"): text has a truth value there
        for a in args:  # an operand type with its own ufunc rules (kd.ma.MaskedArray): it computes the call
            hook = getattr(type(a), "__kdsl_ufunc__", None)
            if hook is not None:
                return hook(self._name, args, {"out": out, "where": where, "dtype": dtype, **kwargs})
        check_keywords(self._name, casting, order)
        warn_where_without_out(where, out_keyword, out, 2)
        if "sig" in kwargs:  # NumPy's older spelling of signature=, still accepted (not in its signature)
            if signature is not None:
                raise TypeError("cannot specify both 'sig' and 'signature'")
            signature = kwargs.pop("sig")
        signature = ufunc_loops.checked_signature(self._name, self.nin, self.nout, signature)
        dtype = loop_dtype(self._name, dtype, signature)
        if dtype is None:  # the loop NumPy resolves for the inputs: they must cast to it under casting
            ufunc_loops.check_input_casting(self._name, args, casting)
        if dtype is not None and not ufunc_loops.has_loop(self._name, np.dtype(getattr(dtype, "np", dtype)),
                                                          self._bool_out):
            raise no_matching_loop_error(self._name)  # np.sqrt(x, dtype=np.int8): NumPy has no such loop
        if dtype is not None and not self._bool_out:  # compute in dtype, as NumPy's loops for it
            args = tuple(self._loop_operand(i, a, dtype, casting) for i, a in enumerate(args))
        result = self._fn(*args, **kwargs)
        if dtype is not None and self._bool_out:
            result = result.astype(dtype)
        if out is None and where is True:
            return result
        if self.nout > 1:
            outs = out if isinstance(out, tuple) else (None,) * self.nout
            return tuple(written_into(r, o, where, casting, self._name) for r, o in zip(result, outs, strict=True))
        return written_into(result, out[0] if isinstance(out, tuple) and len(out) == 1 else out, where, casting,
                        self._name)

    def _loop_operand(self, i: int, a: Any, dtype: Any, casting: str) -> Any:
        """Input ``i`` cast into the loop's ``dtype`` (a Python scalar as a NumPy scalar of it, which kdsl's
        functions take as strong), after NumPy's casting check."""
        if type(a) in (bool, int, float, complex):  # exact types: np.float64 (a float subclass) is strong
            return ufunc_loops.scalar_operand(self._name, i, a, np.dtype(getattr(dtype, "np", dtype)), casting)
        return cast_input(self._name, i, asarray(a), dtype, casting)

    def _binary_only(self, method: str) -> None:
        self._fold_arity("outer product" if method == "outer" else method, outputs=method != "outer")
        if self._name in ("matmul", "vecdot", "matvec", "vecmat"):  # gufuncs (NumPy's divmod.outer works)
            raise TypeError(f"method {method} is not allowed in ufunc with non-trivial signature (kd.{self._name} "
                            f"has {getattr(np, self._name).signature}); use kd.{self._name} on broadcast operands")

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

    @property
    def types(self) -> list[str]:
        """NumPy's loops (``'ff->f'``...) whose every operand is a dtype kdsl holds (no object, longdouble,
        datetime or string loops), in NumPy's order."""
        npf = getattr(np, self._name, None)
        return [t for t in npf.types if all(c in _LOOP_CODES for c in t if c not in "->")] \
            if isinstance(npf, np.ufunc) else []

    @property
    def ntypes(self) -> int:
        """How many loops :attr:`types` lists."""
        return len(self.types)

    @property
    def nargs(self) -> int:
        """Inputs and outputs together, as NumPy's."""
        return self.nin + self.nout

    @property
    def signature(self) -> str | None:
        """A generalized ufunc's core signature (``matmul``'s ``'(n?,k),(k,m?)->(n?,m?)'``); None for the
        elementwise ones."""
        npf = getattr(np, self._name, None)
        return npf.signature if isinstance(npf, np.ufunc) else None

    def outer(self, a: Any, b: Any, **kwargs: Any) -> Array:
        """``op(a[i, j, ...], b[k, ...])`` for every pair: shape ``a.shape + b.shape``.

        >>> import kdsl as kd
        >>> kd.multiply.outer([1, 2], [1, 10, 100]).tolist()
        [[1, 10, 100], [2, 20, 200]]
        >>> [r.tolist() for r in kd.divmod.outer([7, 9], [2, 4])]
        [[[3, 1], [4, 2]], [[1, 3], [1, 1]]]
        """
        self._binary_only("outer")
        x, y = asarray(a), asarray(b)
        return self(x.reshape(x.shape + (1,) * y.ndim), y, **kwargs)

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

    def _reduced(self, a: Any, axis: Any, dtype: Any, keepdims: bool, **kwargs: Any) -> Array:
        """:meth:`reduce`'s result, by the fold that fits the ufunc."""
        if self._name in comparison_folds.COMPARISONS:  # bool operands only, as NumPy's loops
            return comparison_folds.reduce(self._name, self._fn, a, axis, dtype, keepdims, **kwargs)
        if self._name in LOG_REDUCE or self._name in TREE:  # before FOLDS: hypot is reorderable (identity 0)
            return self._folded(asarray(a) if dtype is None else asarray(a).astype(dtype), axis, keepdims, **kwargs)
        if self._name in left_folds.FOLDS:  # not associative: NumPy's left fold
            return left_folds.left_reduce(self._name, self._fn, a, axis, dtype, keepdims, **kwargs)
        if self._name not in REDUCE:
            raise _refuse(self._name, "reduce", REDUCE | LOG_REDUCE | dict.fromkeys(TREE + left_folds.FOLDS
                                                                                 + comparison_folds.COMPARISONS))
        if dtype is not None:
            kwargs["dtype"] = dtype
        return getattr(_kd(), REDUCE[self._name])(asarray(a), axis=axis, keepdims=keepdims, **kwargs)

    def _folded(self, x: Array, axis: Any, keepdims: bool, initial: Any = None, where: Any = True,
                **kwargs: Any) -> Array:
        """The log-sum-exp or by-halves reduction, with NumPy's ``initial`` folded in last; ``where=`` puts the
        identity in the masked-out places (a ufunc without one needs ``initial``, as NumPy says)."""
        if kwargs:
            raise TypeError(f"kd.{self._name}.reduce does not support {', '.join(kwargs)}")
        if self._name == "hypot":  # integers fold in hypot's float type (NumPy's loop: int8 -> float16)
            x = x.astype(self._fn(x, x).dtype)
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
        return self._fn(fold(x, axis, keepdims), initial)

    def _tree_reduce(self, x: Array, axis: Any, keepdims: bool) -> Array:
        """``op`` folded over ``axis`` by halves: the reduced axes moved last and merged, then each step
        combines the first half with the second (an odd element carried), ``ceil(log2(n))`` lazy steps."""
        kd = _kd()
        if self._name.startswith("logical"):
            x = x.astype(kd.bool)
        axes = tuple(range(x.ndim)) if axis is None else axis if isinstance(axis, tuple) else (axis,)
        axes = tuple(sorted({normalize_axis(a, x.ndim) for a in axes}))
        if self.identity is None and len(axes) > 1:
            raise ValueError(f"reduction operation '{self._name}' is not reorderable, so at most one axis may be "
                             "specified")
        kept = [a for a in range(x.ndim) if a not in axes]
        y = kd.permute_dims(x, kept + list(axes))
        y = y.reshape(tuple(x.shape[a] for a in kept) + (math.prod(x.shape[a] for a in axes),))
        if y.shape[-1] == 0:
            if self.identity is None:
                raise ValueError(f"zero-size array to reduction operation {self._name} which has no identity")
            y = kd.full(y.shape[:-1] + (1,), np.array(self.identity).astype(y.dtype.np).item(), dtype=y.dtype)
        y = self._in_loop_type(y)
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
        dtype = self._fn(y[..., :0], y[..., :0]).dtype  # lazy and empty: the types only
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

    def at(self, a: Array, indices: Any, b: Any = None, *, deterministic: bool = False) -> None:
        if self.nout != 1:
            raise ValueError(f"Only single output ufuncs supported at this time (kd.{self._name}.at)")
        if self.nin == 1:  # np.negative.at(a, idx): f applied once per selection
            return unary_at.apply(self._name, self._fn, a, indices, b)
        if self.signature is not None:  # gufuncs (matmul, vecdot...): NumPy has no .at for them either
            raise TypeError(f"{self._name}.at does not support ufunc with non-trivial signature: {self._name} has "
                            f"signature {self.signature}.")
        super().at(a, indices, b, deterministic=deterministic)

    at.__doc__ = WithAt.at.__doc__

    def __repr__(self) -> str:
        return f"<kdsl ufunc {self._name!r}>"


# NumPy's type codes of the dtypes kdsl holds (Ufunc.types lists only the loops made of these)
_LOOP_CODES = frozenset("?bBhHiIlLqQefdFD")


def wrap(namespace: MutableMapping[str, Any]) -> None:
    """Replaces each function of ``namespace`` (the kdsl package) whose NumPy namesake is a ufunc by its
    :class:`Ufunc`; other names of the same function (``pow`` for ``power``) get the same object."""
    for name, fn in list(namespace.items()):
        npf = getattr(np, name, None)
        if not isinstance(npf, np.ufunc) or not callable(fn) or isinstance(fn, Ufunc):
            continue
        ufunc = Ufunc(fn, npf.__name__, npf.nin, npf.nout)
        for alias, value in list(namespace.items()):
            if value is fn:
                namespace[alias] = ufunc
