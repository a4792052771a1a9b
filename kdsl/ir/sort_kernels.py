"""The kernel IR of sorting (one NamedTuple per kind of kernel; see :mod:`kdsl.ir.kernels`): the bitonic
network's kernels (:mod:`kdsl.codegen.sort`) and the LSD radix sort's (:mod:`kdsl.codegen.radix`), both lowered by
:mod:`kdsl.engine.sorting`.

A sort works on *records* in a uint32 buffer: per element ``words - 1`` words of an order-preserving key (most
significant first) and its index along the sorted axis. Each line of the sorted axis is padded to ``n_pad`` (a
power of two) records; records compare as tuples, so the index makes every sort stable.

Example:
    >>> SortMerge(words=2, n_words=4, groups=8).radix
    2
"""

from __future__ import annotations

from typing import NamedTuple

from kdsl import dtype as dt
from kdsl.ir.expr import Expr


class SortKeys(NamedTuple):
    """Records of ``expr`` (of ``shape``) sorted along ``axis`` within tiles of ``tile`` records: each
    workgroup builds one tile's records in shared memory and runs the bitonic network up to ``kmax``."""

    shape: tuple[int, ...]
    axis: int
    key_dtype: dt.DType
    descending: bool
    expr: Expr
    n_words: int
    n_pad: int
    words: int
    tile: int
    kmax: int  # min(tile, n_pad): the largest bitonic block sorted inside a tile
    groups: int
    private: bool = False  # one invocation per tile in private memory (CPU drivers: no barriers)


class SortMerge(NamedTuple):
    """Global compare-exchange stages of the bitonic network, out-of-place: one stage per pass with one
    invocation per pair (``radix`` 2), or two (distances j and j/2) with one invocation per four records
    (``radix`` 4). Push words: block, distance j (j/2 at least the tile), pairs or quads, ``n_pad - 1``
    (one program serves every size)."""

    words: int
    n_words: int
    groups: int
    radix: int = 2


class SortLocal(NamedTuple):
    """The stages of one block with distances below ``tile``, on tiles in shared (or private) memory.
    Push words: block, records, ``n_pad - 1``, tiles (one program serves every size)."""

    words: int
    tile: int
    n_words: int
    groups: int
    private: bool = False  # as SortKeys.private


class SortOut(NamedTuple):
    """The sorted line read back from the records (slot 1): the indices (``want`` "indices") or ``expr`` at
    them (``want`` "values")."""

    shape: tuple[int, ...]
    axis: int
    out_dtype: dt.DType
    want: str
    expr: Expr | None  # the sorted expression (read when want == "values")
    n_words: int
    n_pad: int
    words: int
    groups: int
    soa: int = 0  # > 0: radix records, a structure of arrays whose index row starts at word ``soa``
    raw: dt.DType | None = None  # want "values" of a keys-only radix sort: decode the raw bits of this dtype
    total: int = 0  # with ``raw``: the records of one key row (its raw rows are ``total`` words apart)


class RadixKeys(NamedTuple):
    """The records of an LSD radix sort of ``expr`` (of ``shape``) along ``axis``, as a structure of arrays in
    one uint32 buffer of ``words`` rows of ``lines * shape[axis]`` elements (lines one after another): the
    first rows hold the value's raw bits (one word, two for 64-bit dtypes, most significant first), a last
    row (when ``words`` is one more) each element's index along the axis; the passes derive the
    order-preserving key from the raw bits (see :mod:`kdsl.codegen.radix`)."""

    shape: tuple[int, ...]
    axis: int
    key_dtype: dt.DType
    descending: bool
    expr: Expr
    n_words: int
    words: int
    groups: int


class RadixPass(NamedTuple):
    """One pass of a radix sort over tiles of ``tile`` records of one line (slot 1: the records).
    ``phase`` "count": digit counts, ``out[(line * 256 + digit) * tiles_per_line + tile]``; "scatter": the
    records moved, stably, to their digit's place, from the counts (slot 2) and their inclusive scan (slot 3).
    ``private``: one invocation per tile (CPU drivers), else one workgroup. ``key_dtype`` and ``descending``
    say how a digit follows from the raw bits. Push words: digit shift, key word, line length, tiles per
    line, records, tiles, 1 on the first pass (which makes an argsort's index row)."""

    phase: str
    words: int
    tile: int
    n_words: int
    groups: int
    private: bool = False
    key_dtype: dt.DType | None = None  # None: the counts' scan phases ("sums", "scan")
    descending: bool = False
    subgroups: bool = False  # "scatter" on a workgroup tile: its workgroup scans use subgroup arithmetic
