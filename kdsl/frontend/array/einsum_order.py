"""The order of :func:`kdsl.einsum`'s pairwise contractions: a greedy search over the operands' sizes
(``optimize=True``, kdsl's default), every order for a few operands (``'optimal'``), left to right (``False``),
or a path NumPy's ``einsum_path`` gave (its steps of one or of three or more operands made pairwise).

Example:
    >>> contraction_path([("i", "j"), ("j", "k"), ("k", "l")], ("i", "l"), {"i": 2, "j": 3, "k": 4, "l": 5}, True)
    [(1, 2), (0, 1)]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

Labels = tuple[str, ...]


def contraction_path(inputs: list[Labels], outputs: Labels, sizes: dict[str, int],
                     optimize: Any) -> list[tuple[int, int]]:
    """The pairs to contract, in order (each indexes the current operand list; the result goes to its end)."""
    n = len(inputs)
    if isinstance(optimize, (list, tuple)) and optimize and optimize[0] == "einsum_path":
        return given_path(optimize[1:], n)
    if n == 1:
        return []
    if optimize is False:
        return [(0, 1)] + [(0, m) for m in range(n - 2, 0, -1)]  # the running result stays last
    if optimize == "optimal" and n <= 6:
        return _optimal(inputs, outputs, sizes)
    if optimize not in (True, "greedy", "optimal"):
        raise ValueError(f"einsum: optimize must be True, False, 'greedy', 'optimal' or an einsum_path list; "
                         f"got {optimize!r}")
    return _greedy(list(inputs), outputs, sizes)


def given_path(steps: Sequence[Sequence[int]], n: int) -> list[tuple[int, int]]:
    """NumPy's einsum_path ``steps`` (each: positions in the current operand list, whose contraction goes to its
    end) as the pairwise contractions kdsl runs. A step of one operand only moves it to the end (its own labels
    are summed when it meets another); a step of k > 2 operands is k - 1 pairwise contractions. NumPy's errors:
    IndexError for a position past the list, RuntimeError for a path that leaves operands uncontracted.

    >>> given_path([(2,), (0, 1), (0, 1)], 3), given_path([(0, 1, 2)], 3)
    ([(0, 1), (0, 1)], [(0, 1), (1, 0)])
    """
    listed = list(range(n))  # the operand list as the steps see it (ids)
    running = list(range(n))  # the list kdsl's pairwise contractions keep
    pairs: list[tuple[int, int]] = []
    fresh = n
    for step in steps:
        positions = [int(p) for p in step]
        if any(not -len(listed) <= p < len(listed) for p in positions):
            raise IndexError(f"einsum_path step {tuple(step)} names an operand past the {len(listed)} left")
        picked = [listed[p] for p in positions]
        listed = [t for t in listed if t not in picked]
        current = picked[0]
        for other in picked[1:]:
            i, j = running.index(current), running.index(other)
            pairs.append((i, j))
            running = [t for k, t in enumerate(running) if k not in (i, j)] + [fresh]
            current, fresh = fresh, fresh + 1
        listed.append(current)
    if len(listed) > 1:
        raise RuntimeError(f"Invalid einsum_path is specified: {len(listed) - 1} more operands has to be contracted.")
    return pairs


def _result_labels(a: Labels, b: Labels, rest: Sequence[Labels], outputs: Labels) -> Labels:
    keep = set(outputs).union(*rest)
    return tuple(x for x in dict.fromkeys(a + b) if x in keep)


def size(labels: Labels, sizes: dict[str, int]) -> int:
    return math.prod(sizes[x] for x in labels)


def _greedy(terms: list[Labels], outputs: Labels, sizes: dict[str, int]) -> list[tuple[int, int]]:
    path = []
    while len(terms) > 1:
        best: tuple[Any, ...] | None = None
        for i, j in itertools.combinations(range(len(terms)), 2):
            shared = set(terms[i]) & set(terms[j])
            rest = [t for k, t in enumerate(terms) if k not in (i, j)]
            new = _result_labels(terms[i], terms[j], rest, outputs)
            grow = size(new, sizes) - size(terms[i], sizes) - size(terms[j], sizes)
            flops = size(tuple(set(terms[i]) | set(terms[j])), sizes)
            key = (not shared, grow, flops, i, j)
            if best is None or key < best[0]:
                best = (key, i, j, new)
        assert best is not None
        _, i, j, new = best
        path.append((i, j))
        terms = [t for k, t in enumerate(terms) if k not in (i, j)] + [new]
    return path


def path_flops(inputs: list[Labels], outputs: Labels, sizes: dict[str, int], path: list[tuple[int, int]]) -> int:
    terms, total = list(inputs), 0
    for i, j in path:
        rest = [t for k, t in enumerate(terms) if k not in (i, j)]
        total += 2 * size(tuple(set(terms[i]) | set(terms[j])), sizes)
        terms = rest + [_result_labels(terms[i], terms[j], rest, outputs)]
    return total


def _optimal(inputs: list[Labels], outputs: Labels, sizes: dict[str, int]) -> list[tuple[int, int]]:
    """Every pairwise order (few operands only: the count grows as n!^2)."""
    def search(terms: list[Labels]) -> tuple[int, list[tuple[int, int]]]:
        if len(terms) == 1:
            return 0, []
        best: tuple[int, list[tuple[int, int]]] | None = None
        for i, j in itertools.combinations(range(len(terms)), 2):
            rest = [t for k, t in enumerate(terms) if k not in (i, j)]
            cost = 2 * size(tuple(set(terms[i]) | set(terms[j])), sizes)
            sub, tail = search(rest + [_result_labels(terms[i], terms[j], rest, outputs)])
            if best is None or cost + sub < best[0]:
                best = (cost + sub, [(i, j)] + tail)
        assert best is not None
        return best
    return search(list(inputs))[1]
