"""kdsl's elementwise functions as NumPy's ufuncs: the keywords of a call (``kd.add(a, 1, out=a)``,
``kd.exp(x, out=x)``, ``kd.divide(a, b, out=z, where=b != 0)``, ``dtype=``) and the methods
``kd.add.outer(a, b)``, ``kd.multiply.reduce(a, axis=1)``, ``kd.add.accumulate(a)``, ``kd.maximum.at(a, i, v)``;
``nin``/``nout``/``identity`` as NumPy's. Every kdsl function whose NumPy namesake is a ``np.ufunc`` is one.

``out=`` writes the result into the given kdsl array (a view writes through to its base) and returns it, after
NumPy's ``same_kind`` casting check; ``where=`` keeps ``out``'s old values (zeros without ``out``: NumPy leaves
them uninitialised) where the condition is False.

``outer`` broadcasts ``a`` against ``b`` with ``a``'s axes first (one fused kernel); the folds (``reduce``,
``accumulate``, ``reduceat``) are :mod:`kdsl.frontend.array.ufunc_folds`'s. A method a ufunc lacks in kdsl raises
``TypeError`` naming the ones it has.

    >>> import kdsl as kd
    >>> kd.subtract.outer(kd.arange(3), kd.arange(2)).tolist()
    [[0, -1], [1, 0], [2, 1]]
    >>> kd.add.reduce(kd.asarray([[1, 2], [3, 4]])).tolist(), kd.add.accumulate(kd.arange(4)).tolist()
    ([4, 6], [0, 1, 3, 6])
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from typing import Any

import numpy as np

from kdsl.frontend.array import ufunc_loops, ufunc_overrides, unary_at
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.logical_text import logical_operands
from kdsl.frontend.array.scatter import WithAt
from kdsl.frontend.array.ufunc_arguments import (
    NO_OUT,
    cast_input,
    check_argument_count,
    check_keywords,
    check_out_count,
    ellipsis_out,
    loop_dtype,
    ufunc_signature,
    warn_where_without_out,
    written_into,
)
from kdsl.frontend.array.ufunc_errors import no_matching_loop_error
from kdsl.frontend.array.ufunc_folds import WithFolds


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


class Ufunc(WithFolds):
    """A kdsl elementwise function with NumPy's ufunc keywords and methods (``kd.multiply``, ``kd.exp``...)."""

    def __init__(self, fn: Callable[..., Any], name: str, nin: int = 2, nout: int = 1) -> None:
        super().__init__(getattr(fn, "_fn", fn), name)
        self.__name__ = self.__qualname__ = name  # NumPy's: np.abs.__name__ is 'absolute', np.conj's 'conjugate'
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
        if any(ufunc_overrides.overrides(a) for a in args):  # NEP 13: a foreign type's __array_ufunc__ computes it
            return ufunc_overrides.dispatch(self, "__call__", args, ufunc_overrides.call_keywords(
                out, where, dtype, casting, order, subok, signature, kwargs))
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
        result = ufunc_overrides.method_call(self, "outer", 2, (a, b), kwargs)
        if result is not ufunc_overrides.NONE:
            return result
        x, y = asarray(a), asarray(b)
        return self(x.reshape(x.shape + (1,) * y.ndim), y, **kwargs)

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
    # NEP 13 for the methods: an input of a foreign type with __array_ufunc__ computes them (ufunc_overrides.py)
    at = ufunc_overrides.overridable(at, "at", 3)
    reduce = ufunc_overrides.overridable(WithFolds.reduce, "reduce", 1)
    accumulate = ufunc_overrides.overridable(WithFolds.accumulate, "accumulate", 1)
    reduceat = ufunc_overrides.overridable(WithFolds.reduceat, "reduceat", 2)

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
