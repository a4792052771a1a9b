"""A transform as launches of the local FFT kernel: where each reads and writes (:class:`Layout`), what it
does at its ends (:class:`Ends`), its constants (:class:`Step`, planned by :class:`Builder`), and the
``kd.RawProgram`` that runs them all in one submission (:class:`Transform`).

Example:
    >>> b = Builder(double=False, real_input=False)
    >>> b.launch("in", "out", 16, 3, rows(16), rows(16), Ends(16, 16))
    >>> [(s.src, s.dst, s.groups) for s in b.steps]
    [('in', 'out', (1, 1))]
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

import kdsl as kd
from kdsl.fft import plan, replay
from kdsl.fft.stockham import (
    CHECK_LOAD,
    CHECK_SEQ,
    CHECK_STORE,
    CONJ_LOAD,
    CONJ_STORE,
    MUL_LOAD,
    MUL_STORE,
    SCALE_STORE,
    TWIDDLE,
)

LOAD_FLAGS, STORE_FLAGS = CONJ_LOAD | MUL_LOAD, CONJ_STORE | MUL_STORE | SCALE_STORE
EVERYWHERE = 0xFFFFFFFF
"""``in_n``/``out_n`` that limit nothing."""


class Layout(NamedTuple):
    """Where element ``k`` of sequence ``b`` lives: ``(b // d) * p + pos`` with ``pos = (b % d) * q + k * e``
    its position in its row."""

    d: int
    p: int
    q: int
    e: int


class Ends(NamedTuple):
    """What a (possibly multi-launch) transform does at its two ends besides the FFT: the row strides of
    input and output, positions read (``in_n``: the rest are zeros) and written (``out_n``), conjugations and
    multiplications (``flags``) by the table ``mul`` (the store's part from ``mul_at``) and by ``scale``."""

    in_stride: int
    out_stride: int
    in_n: int = EVERYWHERE
    out_n: int = EVERYWHERE
    flags: int = 0
    mul: Any = None
    mul_at: int = 0
    scale: float = 1.0


def rows(length: int) -> Layout:
    """Contiguous sequences of ``length`` elements."""
    return Layout(1, length, 0, 1)


class Step(NamedTuple):
    """One launch: the local FFT kernel (``kernel``: the arguments of :func:`kdsl.fft.plan.kernel` that made
    ``raw``), its specialization ``flags``, push words and workgroups, and its buffers: ``src`` and ``dst``
    by role (``"in"``, ``"out"`` or a temporary's name), the twiddle ``table`` and the ``mul`` table."""

    kernel: dict[str, Any]
    raw: Any
    flags: int
    push: np.ndarray
    groups: tuple[int, int]
    src: str
    dst: str
    table: Any
    mul: Any
    label: str


class Transform:
    """A planned transform: its launches (``steps``, as ``benchmarks/fft_anatomy.py`` reads them) run by a
    ``kd.RawProgram``: one submission per call, recorded once and replayed while the buffers are the same.
    ``temps``: the elements of each temporary (complex ``dtype``)."""

    def __init__(self, steps: list[Step], temps: dict[str, int], dtype: Any):
        self.steps, self.temps, self.dtype = steps, temps, dtype
        self.program = kd.RawProgram(
            [kd.RawLaunch(s.raw, (s.src, s.dst, s.table, s.table if s.mul is None else s.mul), [s.push],
                          groups=(*s.groups, 1), spec={0: s.flags}, label=s.label) for s in steps],
            temps={role: (size, dtype) for role, size in temps.items()})
        self.cached_as: tuple[Any, tuple] | None = None
        """(cache, key) where :mod:`kdsl.fft.transform` keeps this program, once it does."""

    def run(self, src: Any, out: Any) -> None:
        """Every launch, reading the array ``src`` and writing the array ``out``, in one submission."""
        self.program(**{"in": src, "out": out})
        replay.ran(self, src, out)

    def tables(self, i: int) -> tuple[Any, Any]:
        """The arrays bound after the source and destination of launch ``i``: its twiddle and ``mul`` tables."""
        step = self.steps[i]
        return step.table, step.table if step.mul is None else step.mul


class Builder:
    """Collects the launches of a transform as :class:`Step` s between named buffers
    (``"in"``, ``"out"`` and temporaries, reused once released)."""

    def __init__(self, double: bool, real_input: bool):
        self.double, self.real_input = double, real_input
        self.steps: list[Step] = []
        self.temps: dict[str, int] = {}
        self._free: list[str] = []

    def temp(self, size: int) -> str:
        """A temporary of ``size`` complex elements: a released one of that size, else a new one."""
        for name in self._free:
            if self.temps[name] == size:
                self._free.remove(name)
                return name
        name = f"t{len(self.temps)}"
        self.temps[name] = size
        return name

    def release(self, name: str) -> None:
        self._free.append(name)

    def lend(self, dst: str, elements: int) -> None:
        """Let ``dst`` (a buffer of ``elements`` complex numbers) stand in for a temporary that every launch is
        done with before ``dst`` is first touched (rfft2's rows, stored where the columns' last launch writes
        later): one pooled temporary fewer a call, and a first launch that writes the memory the previous call's
        output left in the GPU's cache.

        Example:
            >>> b = Builder(double=False, real_input=False)
            >>> t0, t1 = b.temp(4), b.temp(4)
            >>> for src, dst in [("in", t0), (t0, t1), (t1, "out")]:
            ...     b.launch(src, dst, 4, 1, rows(4), rows(4), Ends(4, 4))
            >>> b.lend("out", 4)
            >>> [(s.src, s.dst) for s in b.steps], b.temps
            ([('in', 'out'), ('out', 't1'), ('t1', 'out')], {'t1': 4})
        """
        uses = [(s.src, s.dst) for s in self.steps]
        first = next((i for i, pair in enumerate(uses) if dst in pair), len(uses))
        for name, size in self.temps.items():
            touched = [i for i, pair in enumerate(uses) if name in pair]
            if size <= elements and touched and touched[-1] < first:
                self.steps = [s._replace(src=dst if s.src == name else s.src, dst=dst if s.dst == name else s.dst)
                              for s in self.steps]
                del self.temps[name]
                return

    def launch(self, src: str, dst: str, m: int, nseq: int, load: Layout, store: Layout, ends: Ends,
               twiddle: int = 0, tw_div: int = 1, real_half: bool = False, half_in: bool = False) -> None:
        """Plan one launch of the local FFT of length ``m`` over ``nseq`` sequences (``twiddle``: the four-step
        twiddles ``W_twiddle^(column k)`` on store, column ``(b % load.d) / tw_div`` of sequence ``b``;
        ``real_half``: real rows of ``2 m`` read as complex ones of ``m``, ``m + 1`` frequencies stored;
        ``half_in``: the inverse, rows of ``m + 1`` frequencies read, the real rows stored as ``m`` pairs)."""
        kernel: dict[str, Any] = {
            "m": m, "double": self.double, "seq_fast_load": load.e != 1, "seq_fast_store": store.e != 1,
            "real_input": self.real_input and src == "in" and not real_half, "real_half": real_half,
            "half_in": half_in}
        raw, seqs = plan.kernel(**kernel)
        if real_half or half_in:
            table, lo = plan.real_half_twiddles(m, self.double)
            hi = 0
        else:
            table, lo, hi = plan.twiddles(m, twiddle, self.double)
        groups = -(-nseq // seqs)
        gx = min(groups, plan.max_groups_x())
        gy = -(-groups // gx)
        flags = ends.flags | (TWIDDLE if twiddle else 0) | (CHECK_LOAD if ends.in_n != EVERYWHERE else 0) | \
            (CHECK_STORE if ends.out_n != EVERYWHERE else 0) | (CHECK_SEQ if gx * gy * seqs != nseq else 0)
        bits = np.array([ends.scale], np.float64 if self.double else np.float32).view(np.uint32)
        push = np.array([nseq, *load, ends.in_n, *store, ends.out_n, lo, hi, tw_div, gx, ends.mul_at, bits[0],
                         bits[-1]], dtype=np.uint32)
        label = f"kd.fft: {m}-point FFT of {nseq} sequences" + (", four-step twiddles" if twiddle else "") + \
            (f", real rows of {2 * m}" if real_half else "") + (f", to real rows of {2 * m}" if half_in else "") + \
            f", groups {(gx, gy)}"
        self.steps.append(Step(kernel, raw, flags, push, (gx, gy), src, dst, table, ends.mul, label))
