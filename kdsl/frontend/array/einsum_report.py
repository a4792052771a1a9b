"""The text :func:`kdsl.einsum_path` returns beside its path, in NumPy's layout: the overall contraction, naive
and optimised scaling and FLOP counts (NumPy's count: the product of the sizes of a step's labels, times the
number of operands less one, plus one when a label is summed away), the speed-up, the largest intermediate and
a table of the steps with the operands left after each. Intermediates are named as NumPy names them (their
labels sorted by size, then by character); the axes of an ``...`` take letters the subscripts leave unused.

    >>> print(report([("i", "j"), ("j", "k")], ("i", "k"), {"i": 2, "j": 3, "k": 4}, [(0, 1)]).splitlines()[3])
          Naive FLOP count:  4.800e+01
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Labels = tuple[str, ...]
_SYMBOLS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def numpy_steps(inputs: list[Labels], outputs: Labels, optimize: object,
                pairs: list[tuple[int, int]]) -> list[tuple[int, ...]]:
    """The path NumPy's ``einsum_path`` lists: one step of all operands when there is nothing to order (one or
    two operands, ``optimize=False``, or no label summed away), a given path as it was given, else ``pairs``."""
    if isinstance(optimize, (list, tuple)) and optimize and optimize[0] == "einsum_path":
        return [tuple(int(p) for p in step) for step in optimize[1:]]
    labels = set().union(*inputs) if inputs else set()
    if optimize is False or len(inputs) in (1, 2) or labels == set(outputs):
        return [tuple(range(len(inputs)))]
    return [tuple(p) for p in pairs]


def _letters(inputs: list[Labels], outputs: Labels) -> dict[str, str]:
    """Each label's character: its own, or for an ellipsis axis ``.k`` an unused letter (the last ones, as NumPy
    gives the ellipsis the tail of its unused letters)."""
    named = {x for term in [*inputs, outputs] for x in term if not x.startswith(".")}
    dots = sorted({x for term in [*inputs, outputs] for x in term if x.startswith(".")}, key=lambda x: int(x[1:]))
    unused = [c for c in _SYMBOLS if c not in named]
    spare = unused[len(unused) - len(dots):] if dots else []
    return {**{x: x for x in named}, **dict(zip(dots, spare, strict=True))}


def _size(labels: set[str] | str, sizes: dict[str, int]) -> int:
    return math.prod(sizes[x] for x in labels)


def _flops(labels: set[str], summed: bool, terms: int, sizes: dict[str, int]) -> int:
    return _size(labels, sizes) * (max(1, terms - 1) + (1 if summed else 0))


def report(inputs: list[Labels], outputs: Labels, sizes: dict[str, int], steps: Sequence[Sequence[int]]) -> str:
    """NumPy's ``einsum_path`` text for contracting ``inputs`` into ``outputs`` by ``steps``."""
    name = _letters(inputs, outputs)
    terms = ["".join(name[x] for x in t) for t in inputs]
    out = "".join(name[x] for x in outputs)
    dims = {name[x]: n for x, n in sizes.items()}
    every = set("".join(terms))
    summed = sum(len(set(t)) for t in terms) - len(every) > 0
    naive = _flops(every, summed, len(terms), dims)
    listed, sets, rows, costs, scales, results = list(terms), [set(t) for t in terms], [], [], [], []
    for n, step in enumerate(steps):
        picked = sorted(step, reverse=True)
        joined = set().union(*(sets[i] for i in picked))
        kept = set(out).union(*(s for i, s in enumerate(sets) if i not in picked))
        new = kept & joined
        costs.append(_flops(joined, bool(joined - new), len(picked), dims))
        scales.append(len(joined))
        results.append(_size(new, dims))
        sets = [s for i, s in enumerate(sets) if i not in picked] + [new]
        current = [listed.pop(i) for i in picked]
        label = out if n == len(steps) - 1 else "".join(sorted(new, key=lambda c: (dims[c], c)))
        listed.append(label)
        rows.append((len(joined), ",".join(current) + "->" + label, ",".join(listed) + "->" + out))
    optimised = sum(costs) + 1
    text = (f"  Complete contraction:  {','.join(terms)}->{out}\n"
            f"         Naive scaling:  {len(every)}\n"
            f"     Optimized scaling:  {max(scales, default=0)}\n"
            f"      Naive FLOP count:  {naive:.3e}\n"
            f"  Optimized FLOP count:  {optimised:.3e}\n"
            f"   Theoretical speedup:  {naive / optimised:3.3f}\n"
            f"  Largest intermediate:  {max(results, default=0):.3e} elements\n"
            + "-" * 74 + "\n" + f"{'scaling':>6} {'current':>24} {'remaining':>40}\n" + "-" * 74)
    return text + "".join(f"\n{scale:4d}    {current:>24} {left:>40}" for scale, current, left in rows)
