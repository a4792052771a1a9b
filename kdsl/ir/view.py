"""Views: how an array's elements sit in the flat index space below it (shape, strides, offset, in elements).

Movement ops never copy: each returns a new :class:`View`, and the kernel that finally reads the data turns
the view into index arithmetic (``offset + i0*s0 + i1*s1 ...``). A view composes with itself for permute,
broadcast, slice and integer indexing; a reshape composes when NumPy's no-copy reshape would, otherwise the
caller stacks a second view (the kernel then unravels one flat index into the other's shape).

Example:
    >>> v = View.contiguous((2, 3)).permute((1, 0))
    >>> v.shape, v.strides
    ((3, 2), (1, 3))
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

INDEX_LIMIT = (1 << 31) - 1  # the largest position 32-bit index arithmetic can hold


@functools.lru_cache(maxsize=4096)  # (bounded; a loop builds views of the same few shapes on every call)
def contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    """C-order strides in elements; size-1 dims get stride 0 (so views compare equal whatever they came from).

    >>> contiguous_strides((2, 1, 3))
    (3, 0, 1)
    """
    strides, acc = [], 1
    for n in reversed(shape):
        strides.append(acc if n != 1 else 0)
        acc *= n
    return tuple(reversed(strides))


@dataclass(frozen=True)
class View:
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    offset: int = 0

    @staticmethod
    def contiguous(shape: tuple[int, ...], offset: int = 0) -> View:
        shape = tuple(shape)
        return _contiguous(shape) if offset == 0 else View(shape, contiguous_strides(shape), offset)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def is_contiguous(self) -> bool:
        """True when element i of the view is element ``offset + i`` below it."""
        shape = self.shape
        if not shape:
            return True
        return self.canonical().strides == contiguous_strides(shape)

    def canonical(self) -> View:
        """The same view with the strides of size-1 dims zeroed (they never move)."""
        shape = self.shape
        if 1 not in shape:  # (the usual case, checked in C: every view op of every loop step calls this)
            return self
        strides = tuple([0 if n == 1 else s for n, s in zip(shape, self.strides, strict=True)])
        return self if strides == self.strides else View(shape, strides, self.offset)

    def permute(self, axes: tuple[int, ...]) -> View:
        return View(tuple(self.shape[a] for a in axes), tuple(self.strides[a] for a in axes), self.offset)

    def expand(self, shape: tuple[int, ...]) -> View:
        """Broadcast size-1 dims (same ndim) to ``shape``: their stride becomes 0."""
        strides = tuple(0 if old != new else s for old, new, s in zip(self.shape, shape, self.strides, strict=False))
        return View(tuple(shape), strides, self.offset)

    def slice(self, axis: int, start: int, step: int, length: int) -> View:
        """Keep elements ``start, start+step, ...`` (``length`` of them) of ``axis``; step may be negative."""
        shape = self.shape[:axis] + (length,) + self.shape[axis + 1:]
        strides = self.strides[:axis] + (self.strides[axis] * step,) + self.strides[axis + 1:]
        offset = self.offset + (start * self.strides[axis] if length > 0 else 0)
        return View(shape, strides, offset).canonical()

    def index(self, axis: int, i: int) -> View:
        """Select element ``i`` of ``axis`` and drop the axis."""
        return View(self.shape[:axis] + self.shape[axis + 1:], self.strides[:axis] + self.strides[axis + 1:],
                    self.offset + i * self.strides[axis])

    def reshape(self, shape: tuple[int, ...]) -> View | None:
        """The view with a new shape of the same size, or None when that needs a copy (NumPy's rule)."""
        shape = tuple(shape)
        if self.is_contiguous or self.size == 0:
            return View.contiguous(shape, self.offset)
        old = [(n, s) for n, s in zip(self.shape, self.strides, strict=False) if n != 1]
        new = [n for n in shape if n != 1]
        strides_new: list[int] = []
        oi = ni = 0
        # Walk groups of old and new dims with equal products; each old group must be contiguous within itself.
        while oi < len(old) and ni < len(new):
            op, np_ = old[oi][0], new[ni]
            oj, nj = oi + 1, ni + 1
            while op != np_:
                if op < np_:
                    op *= old[oj][0]
                    oj += 1
                else:
                    np_ *= new[nj]
                    nj += 1
            for k in range(oi, oj - 1):
                if old[k][1] != old[k + 1][1] * old[k + 1][0]:
                    return None
            stride = old[oj - 1][1]
            group = []
            for n in reversed(new[ni:nj]):
                group.append(stride)
                stride *= n
            strides_new.extend(reversed(group))
            oi, ni = oj, nj
        it = iter(strides_new)
        return View(shape, tuple(0 if n == 1 else next(it) for n in shape), self.offset)

    @property
    def span(self) -> int:
        """One past the largest flat position the view reaches (0 when empty).

        >>> View.contiguous((3, 4)).span, View.contiguous((3, 4)).slice(1, 0, 2, 2).span
        (12, 11)
        """
        shape = self.shape
        if 0 in shape:
            return 0
        return self.offset + sum([(n - 1) * s for n, s in zip(shape, self.strides, strict=True) if s > 0]) + 1

    @property
    def wide(self) -> bool:
        """Whether positions of this view can pass int32: :meth:`index_expr` then computes in ``int64_t``."""
        return self.span > INDEX_LIMIT

    def index_expr(self, idx: list[str], offset: str | None = None, wide: bool | None = None) -> str:
        """GLSL expression of the flat position of the element at multi-index ``idx`` (one str per dim): an
        ``int``, or an ``int64_t`` for a :attr:`wide` view. ``offset``: a GLSL expression read in place of the
        literal offset (a push-constant word, so one kernel serves every offset), with ``wide`` saying whether
        the positions need 64 bits (the literal offset is then not what decides).

        >>> View.contiguous((2, 3)).index_expr(["i", "j"]), View.contiguous((3, 2**31)).index_expr(["i", "j"])
        ('i*3 + j', 'int64_t(i)*2147483648l + int64_t(j)')
        >>> View.contiguous((2, 3)).index_expr(["i", "j"], "pc.w[0]", False)
        'int(pc.w[0]) + i*3 + j'
        """
        wide = self.wide if wide is None else wide
        if offset is not None:
            terms = [f"int64_t({offset})" if wide else f"int({offset})"]
        else:
            terms = [f"{self.offset}l" if wide else str(self.offset)] if self.offset else []
        for i, n, s in zip(idx, self.shape, self.strides, strict=False):
            if n == 1 or s == 0:
                continue
            if wide:
                terms.append(f"int64_t({i})" if s == 1 else f"int64_t({i})*{s}l")
            else:
                terms.append(i if s == 1 else f"{i}*{s}")
        return " + ".join(terms) if terms else "0"


@functools.lru_cache(maxsize=4096)
def _contiguous(shape: tuple[int, ...]) -> View:
    """The C-order view of ``shape`` (views are immutable: one object per shape serves every caller)."""
    return View(shape, contiguous_strides(shape), 0)
