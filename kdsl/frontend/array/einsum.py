"""``einsum`` and ``einsum_path``: Einstein summation as a sequence of pairwise contractions.

Each pairwise contraction becomes one batched :func:`kdsl.matmul` of permuted views (or one fused broadcast
product when nothing is summed), labels that only one operand carries are summed out first, and repeated labels
inside one operand become a diagonal view. The order of the pairwise contractions is chosen by a greedy search
over the operands' sizes (``optimize=True``, kdsl's default) or exhaustively for a few operands
(``optimize='optimal'``); ``optimize=False`` contracts left to right. The result equals NumPy's for every order.

Example:
    >>> import kdsl as kd
    >>> a, b = kd.arange(6).reshape(2, 3), kd.arange(12).reshape(3, 4)
    >>> kd.einsum("ij,jk->ik", a, b).tolist()
    [[20, 23, 26, 29], [56, 68, 80, 92]]
    >>> kd.einsum("ii", kd.eye(3)).item()
    3.0
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

from kdsl import dtype as dt
from kdsl.frontend.array import einsum_report, ops
from kdsl.frontend.array.api_info import result_type
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.constructors import diagonal
from kdsl.frontend.array.creation import as_arrays
from kdsl.frontend.array.einsum_casting import check_einsum_keywords, computation_dtype
from kdsl.frontend.array.einsum_order import Labels, contraction_path, size
from kdsl.frontend.array.einsum_views import einsum_view
from kdsl.frontend.array.linalg import matmul
from kdsl.frontend.array.reduction_where import into
from kdsl.frontend.array.reductions import sum as ksum
from kdsl.frontend.array.shape_ops import broadcast_values_to

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def einsum(*operands: Any, out: Any = None, dtype: Any = None, order: str = "K", casting: str = "safe",
           optimize: Any = True) -> Array:
    """Einstein summation, NumPy's ``einsum``: ``einsum("ij,jk->ik", a, b)`` or the interleaved form
    ``einsum(a, [0, 1], b, [1, 2], [0, 2])``. Ellipses broadcast, size-1 axes broadcast, a label repeated in one
    operand takes its diagonal, and without ``->`` the output is the labels seen once, in alphabetical order.

    ``optimize`` picks the contraction order (``True``/``'greedy'``, ``'optimal'``, ``False`` for left to
    right, or a path from :func:`einsum_path`); unlike NumPy, kdsl always contracts pairwise (onto matmul), so
    ``False`` is not the naive all-at-once loop. ``out`` (a kdsl array) takes the result. The result dtype is
    NumPy's: ``dtype=`` casts the operands first, and ``casting`` (default ``'safe'``) rules the operands' casts
    to it (or to the result type of the operands and ``out``) and that dtype's cast into ``out``, as in NumPy.

    >>> import kdsl as kd
    >>> x = kd.ones((5, 2, 3))
    >>> kd.einsum("...ij,jk", x, kd.ones((3, 4))).shape
    (5, 2, 4)
    >>> kd.einsum("i,i", kd.asarray([1.0, 2.0]), kd.asarray([3.0, 4.0])).item()
    11.0
    """
    check_einsum_keywords(casting, order)
    if out is not None and not isinstance(out, Array):
        raise TypeError("einsum(out=...) must be a kdsl Array (a NumPy out would mean a copy to the host)")
    inputs, outputs, arrays = _parse(operands)
    if len(arrays) == 1 and (view := einsum_view(arrays[0], inputs[0], outputs, dtype, out)) is not None:
        return view  # 'ij->ji', 'ii->i': NumPy's writeable view of the operand (einsum_views.py)
    # NumPy's casting rule: the operands to one computation dtype, that dtype to out's
    exact = computation_dtype([a.dtype.np for a in arrays], dtype, None if out is None else out.dtype.np, casting)
    # without dtype= or out=, kdsl's own promotion (devices without float64 keep float32)
    want = dt.as_dtype(exact) if dtype is not None or out is not None else result_type(*arrays)
    if want == dt.bool_:
        as_ints = [a.astype(dt.int32) for a in arrays]
        return into(einsum(*_interleave(inputs, outputs, as_ints), optimize=optimize) != 0, out)
    arrays = [a.astype(want) if a.dtype != want else a for a in arrays]
    sizes = _label_sizes(inputs, arrays)
    path = contraction_path(inputs, outputs, sizes, optimize)
    terms = [_prepare(a, labels, outputs, inputs, k) for k, (a, labels) in enumerate(zip(arrays, inputs, strict=True))]
    for i, j in path:
        rest = [labels for k, (_, labels) in enumerate(terms) if k not in (i, j)]
        keep = set(outputs).union(*rest)
        new = _contract(terms[i], terms[j], keep, sizes)
        terms = [t for k, t in enumerate(terms) if k not in (i, j)] + [new]
    (result, labels), = terms
    return into(_finish(result, labels, outputs, sizes), out)


def einsum_path(*operands: Any, optimize: Any = "greedy", einsum_call: bool = False) -> tuple[list[Any], str]:
    """The contraction order :func:`einsum` would use, as NumPy's ``einsum_path``: ``(['einsum_path', (i, j),
    ...], report)``. Each step indexes the current list of operands; the contracted result goes to its end. As
    NumPy's, one step of all operands where there is nothing to order (one or two operands, ``optimize=False``,
    nothing summed away), and the report is NumPy's text (``einsum_report.py``); kdsl's greedy order may differ
    from NumPy's for some expressions (the result does not).

    >>> import kdsl as kd
    >>> a, b, c = kd.ones((2, 3)), kd.ones((3, 4)), kd.ones((4, 5))
    >>> kd.einsum_path("ij,jk,kl->il", a, b, c)[0]
    ['einsum_path', (1, 2), (0, 1)]
    """
    del einsum_call
    inputs, outputs, arrays = _parse(operands)
    sizes = _label_sizes(inputs, arrays)
    pairs = contraction_path(inputs, outputs, sizes, optimize if optimize is not False else False)
    steps = einsum_report.numpy_steps(inputs, outputs, optimize, pairs)
    return ["einsum_path", *steps], einsum_report.report(inputs, outputs, sizes, steps)


# -- parsing ---------------------------------------------------------------------------------------------------

def _parse(operands: Sequence[Any]) -> tuple[list[Labels], Labels, list[Array]]:
    """Labels per operand and of the output, with ellipses expanded to labels ``'.0'``, ``'.1'``, ..."""
    if not operands:  # NumPy's ValueError
        raise ValueError("einsum: must specify the einstein sum subscripts string and at least one operand")
    if isinstance(operands[0], str):
        spec, raw = operands[0].replace(" ", ""), list(operands[1:])
        arrays = _as_arrays(raw)
        lhs, arrow, rhs = spec.partition("->")
        terms = lhs.split(",")
        if len(terms) != len(arrays):
            raise ValueError(f"einsum: the subscripts name {len(terms)} operands but {len(arrays)} were given")
        parsed = [_split_term(t) for t in terms]
        out = _split_term(rhs) if arrow else None
        order: Callable[[str], int] = ord  # an implicit output in character order, as NumPy's ('iA' gives 'Ai')
    else:
        count = len(operands) // 2
        raw = list(operands[0:2 * count:2])
        arrays = _as_arrays(raw)
        parsed = [_interleaved_term(s) for s in operands[1:2 * count:2]]
        out = _interleaved_term(operands[-1]) if len(operands) % 2 else None
        order = _LETTERS.index  # sublists: in the integers' order, as NumPy's
    return _expand(parsed, out, arrays, order)


def _as_arrays(group: Sequence[Any]) -> list[Array]:
    """The operands as arrays, converted together (a float list beside a float64 array at float64)."""
    return as_arrays(*group, device=ops.device_of(tuple(group)))


def _split_term(term: str) -> list[str]:
    """``'i...j'`` -> ``['i', '...', 'j']``; every other character must be a letter."""
    if term.count("...") > 1 or term.replace("...", "").count("."):
        raise ValueError(f"einsum: {term!r} has a stray '.'; an ellipsis is written '...' once per operand")
    labels: list[str] = []
    for part_index, part in enumerate(term.split("...")):
        if part_index:
            labels.append("...")
        for ch in part:
            if ch not in _LETTERS:
                raise ValueError(f"einsum: {ch!r} in {term!r} is not a subscript; use letters a-z and A-Z")
            labels.append(ch)
    return labels


def _interleaved_term(sub: Any) -> list[str]:
    """One sublist of the interleaved form: ints (any integer type, as NumPy's: ``np.int64``, an integer array as
    the sublist, read back at once) and ``Ellipsis``."""
    labels = []
    for s in sub.tolist() if isinstance(sub, Array) or hasattr(sub, "__array_interface__") else sub:
        if s is Ellipsis:
            labels.append("...")
        elif not _is_integer(s):
            raise TypeError(f"einsum: subscript {s!r} must be an int in [0, 52) or Ellipsis (NumPy's TypeError)")
        elif 0 <= operator.index(s) < len(_LETTERS):
            labels.append(_LETTERS[operator.index(s)])
        else:
            raise ValueError(f"einsum: subscript {s!r} is not within the valid range [0, 52)")
    return labels


def _is_integer(s: Any) -> bool:
    return not isinstance(s, bool) and type(s).__name__ != "bool_" and hasattr(type(s), "__index__")


def _interleave(inputs: list[Labels], outputs: Labels, arrays: list[Array]) -> list[Any]:
    return [item for a, labels in zip(arrays, inputs, strict=True) for item in (a, [_index(x) for x in labels])] + [
        [_index(x) for x in outputs]]


def _index(label: str) -> Any:
    return Ellipsis if label.startswith(".") else _LETTERS.index(label)


def _expand(parsed: list[list[str]], out: list[str] | None, arrays: list[Array], order: Callable[[str], int]
            ) -> tuple[list[Labels], Labels, list[Array]]:
    """Labels with each ``...`` as the broadcast labels ``.0``, ``.1``...; without ``out``, the output is those
    then the labels seen once, sorted by ``order``."""
    ell = 0
    inputs = []
    for labels, a in zip(parsed, arrays, strict=True):
        named = len(labels) - labels.count("...")
        if named > a.ndim or ("..." not in labels and named != a.ndim):
            raise ValueError(f"einsum: operand of shape {a.shape} has {a.ndim} axes but its subscripts "
                             f"{''.join(labels)!r} name {named}")
        n = a.ndim - named
        ell = max(ell, n)
        inputs.append((labels, n))
    wide = tuple(f".{k}" for k in range(ell))
    expanded = [tuple(_fill(labels, wide[ell - n:])) for labels, n in inputs]
    if out is None:
        counts: dict[str, int] = {}
        for term in expanded:
            for x in term:
                counts[x] = counts.get(x, 0) + 1
        once = sorted((x for x, c in counts.items() if c == 1 and not x.startswith(".")), key=order)
        outputs = wide + tuple(once)
    else:
        if ell and "..." not in out:  # NumPy's rule: the broadcast axes are never summed away silently
            raise ValueError(f"einsum: the operands' '...' cover {ell} axes but the output {''.join(out)!r} has no "
                             "'...'; write '...' in the output to keep them, or sum them with .sum() afterwards")
        outputs = tuple(_fill(out, wide))
        if len(set(outputs)) != len(outputs):
            raise ValueError(f"einsum: output subscripts {''.join(out)!r} repeat a label")
        seen = set().union(*expanded) if expanded else set()
        for x in outputs:
            if x not in seen:
                raise ValueError(f"einsum: output subscript {x!r} does not appear in any input")
    return expanded, outputs, arrays


def _fill(labels: Sequence[str], ellipsis: Labels) -> list[str]:
    filled: list[str] = []
    for x in labels:
        filled.extend(ellipsis if x == "..." else (x,))
    return filled


def _show(label: str) -> str:
    return "." if label.startswith(".") else label


def _label_sizes(inputs: list[Labels], arrays: list[Array]) -> dict[str, int]:
    """One size per label; size-1 axes broadcast against the others as in NumPy."""
    sizes: dict[str, int] = {}
    for labels, a in zip(inputs, arrays, strict=True):
        own: dict[str, int] = {}
        for x, n in zip(labels, a.shape, strict=True):
            if own.setdefault(x, n) != n:  # a label repeated in one operand (a diagonal): equal sizes, no broadcast
                raise ValueError(f"dimensions in single operand for collapsing index {_show(x)!r} don't match "
                                 f"({own[x]} != {n})")
            old = sizes.get(x, 1)
            if n != old and 1 not in (n, old):
                raise ValueError(f"einsum: label {_show(x)!r} has size {old} in one operand and {n} in another "
                                 f"(operands could not be broadcast together)")
            sizes[x] = n if old == 1 else old
    return sizes


# -- the contractions --------------------------------------------------------------------------------------------

def _prepare(a: Array, labels: Labels, outputs: Labels, inputs: list[Labels], k: int) -> tuple[Array, Labels]:
    """Diagonals for repeated labels, then sums over labels no other operand nor the output needs."""
    labels = tuple(labels)
    while len(set(labels)) != len(labels):
        x = next(x for x in labels if labels.count(x) > 1)
        i = labels.index(x)
        j = labels.index(x, i + 1)
        n = min(a.shape[i], a.shape[j])
        if a.shape[i] != a.shape[j]:  # a size-1 axis against a longer one: broadcast it first
            shape = list(a.shape)
            shape[i] = shape[j] = max(a.shape[i], a.shape[j])
            a, n = broadcast_values_to(a, tuple(shape)), shape[i]
        a = diagonal(a, 0, i, j)
        labels = tuple(y for m, y in enumerate(labels) if m not in (i, j)) + (x,)
        assert a.shape[-1] == n
    others = set(outputs).union(*(t for m, t in enumerate(inputs) if m != k))
    lonely = tuple(m for m, x in enumerate(labels) if x not in others)
    if lonely:
        a = ksum(a, axis=lonely, dtype=a.dtype)
        labels = tuple(x for m, x in enumerate(labels) if m not in lonely)
    return a, labels


def _contract(left: tuple[Array, Labels], right: tuple[Array, Labels], keep: set[str], sizes: dict[str, int]
              ) -> tuple[Array, Labels]:
    (a, la), (b, lb) = left, right
    summed = [x for x in la if x in lb and x not in keep]
    batch = [x for x in la if x in lb and x in keep]
    free_a = [x for x in la if x not in lb]
    free_b = [x for x in lb if x not in la]
    if not summed:  # nothing to sum: one fused broadcast product
        labels = tuple(batch + free_a + free_b)
        return _align(a, la, labels, sizes, broadcast=False) * _align(b, lb, labels, sizes, broadcast=False), labels
    am = _align(a, la, tuple(batch + free_a + summed), sizes, broadcast=True)
    bm = _align(b, lb, tuple(batch + summed + free_b), sizes, broadcast=True)
    nb, nk = size(tuple(batch), sizes), size(tuple(summed), sizes)
    na, nn = size(tuple(free_a), sizes), size(tuple(free_b), sizes)
    product = matmul(am.reshape(nb, na, nk), bm.reshape(nb, nk, nn))
    labels = tuple(batch + free_a + free_b)
    return product.reshape(tuple(sizes[x] for x in labels)), labels


def _align(a: Array, labels: Labels, order: Labels, sizes: dict[str, int], broadcast: bool) -> Array:
    """``a`` permuted to ``order`` (labels it lacks become size-1 axes; with ``broadcast`` every axis gets
    its label's full size, which matmul's reshape needs)."""
    present = [x for x in order if x in labels]
    a = a.transpose(tuple(labels.index(x) for x in present)) if present else a
    shape = tuple(a.shape[present.index(x)] if x in labels else 1 for x in order)
    a = a.reshape(shape)
    if broadcast:
        a = broadcast_values_to(a, tuple(sizes[x] for x in order))
    return a


def _finish(result: Array, labels: Labels, outputs: Labels, sizes: dict[str, int]) -> Array:
    extra = tuple(m for m, x in enumerate(labels) if x not in outputs)
    if extra:
        result = ksum(result, axis=extra, dtype=result.dtype)
        labels = tuple(x for x in labels if x in outputs)
    result = _align(result, labels, outputs, sizes, broadcast=True)
    return result
