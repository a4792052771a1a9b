"""A transform's launches as one program: recorded once into its own command buffer, replayed by every call.

A transform of a given shape is one to four launches of the local FFT kernel (:mod:`kdsl.fft.transform`
plans them). Launched one by one, as ``kd.raw_kernel`` does, each would be its own submit-and-wait, and each
call would check its arguments, pack its push constants and rebind its pipeline again: about half a
millisecond of host time per transform on a fast machine, as much as the kernels of a 4096 x 4096 FFT.

A :class:`Program` keeps, per launch, its own ``Algorithm`` (pipeline, descriptor set, push constants and
workgroups fixed at planning), and one ``Sequence`` holding all the launches (a barrier before each). A call
allocates its output and temporaries from the engine's pool, rebinds the launches whose buffers changed and
records again only then; otherwise it replays the recorded command buffer: one ``vkQueueSubmit`` and one
wait, no host copy, no upload. The pool hands the same buffers back to a loop that frees its results, so a
warm loop replays.

A program keeps its last call's buffers bound (so that the next call can replay): they stay allocated until
a call binds others or the program leaves the cache (:data:`kdsl.fft.transform._PROGRAMS` programs are kept).

Under ``kd.profile()`` every launch is submitted and timed on its own, labelled with its length, sequences
and role.

Example:
    >>> import numpy as np, kdsl as kd
    >>> from kdsl.fft.transform import c2c
    >>> x = kd.asarray(np.ones((2, 8), np.complex64))
    >>> with kd.profile() as prof:
    ...     y = c2c(x, inverse=False)
    >>> [name for name, count, ms in prof.rows()]
    ['kd.fft: 8-point FFT of 2 sequences, groups (1, 1)']
"""

from __future__ import annotations

import time
from typing import Any, NamedTuple

import numpy as np

import kdsl.runtime as rt
from kdsl.engine.profile import current as current_profile
from kdsl.engine.realize import Buffer, allocate
from kdsl.engine.state import state


class Step(NamedTuple):
    """One launch: the kernel (``kernel``: the arguments of :func:`kdsl.fft.plan.kernel` that made it) and its
    constants, and the roles of its buffers (``"in"``, ``"out"`` or a temporary's name) besides the constant
    tables (kd arrays, kept alive here)."""

    kernel: tuple
    spirv: bytes
    flags: int
    push: np.ndarray
    groups: tuple[int, int]
    src: str
    dst: str
    table: Any
    mul: Any
    label: str


class Program:
    """The launches of one transform on one device (see the module docstring). ``temps``: elements of each
    temporary (complex ``dtype``), allocated from the pool per call."""

    def __init__(self, device: Any, steps: list[Step], temps: dict[str, int], dtype: Any):
        self.device, self.steps, self.temps, self.dtype = device, steps, temps, dtype
        self._tables = [(s.table.__kdsl_buffer__(), (s.table if s.mul is None else s.mul).__kdsl_buffer__())
                        for s in steps]
        self._spec = [np.array([s.flags], np.uint32) for s in steps]
        self._algos: list[Any] = [None] * len(steps)
        self._seq: Any = None
        self._recorded = False

    def run(self, src: Any, out: Any) -> None:
        """All the launches, reading the tensor ``src`` and writing the tensor ``out``, in one submission."""
        dev = self.device
        temps = {role: Buffer(allocate(dev, size, self.dtype), size, self.dtype, dev)
                 for role, size in self.temps.items()}
        tensors = {"in": src, "out": out, **{role: b.tensor for role, b in temps.items()}}
        with state(dev).lock:
            self._bind(tensors)
            prof = current_profile()
            if prof is not None:
                self._timed(prof)
            elif self._recorded:
                self._seq.eval()  # the recorded command buffer again: one submit, one wait
            else:
                self._record().eval()
                self._recorded = True
        # the temporaries go back to the pool here, the GPU done with them

    def tables(self, i: int) -> tuple[Any, Any]:
        """The tensors bound after the source and destination of launch ``i``: its twiddle and ``mul``
        tables."""
        return self._tables[i]

    def _bind(self, tensors: dict[str, Any]) -> None:
        """Give each launch its buffers: an Algorithm on first use, new descriptors where a buffer changed."""
        manager = self.device.manager
        for i, step in enumerate(self.steps):
            mems = [tensors[step.src], tensors[step.dst], *self._tables[i]]
            algo = self._algos[i]
            if algo is None or not algo.is_init():
                self._algos[i] = manager.algorithm(mems, step.spirv, workgroup=(*step.groups, 1),
                                                   spec_consts=self._spec[i], push_consts=step.push)
                self._recorded = False
            elif any(a is not b for a, b in zip(algo.get_mem_objects(), mems, strict=True)):
                algo.update_bindings(mems)
                self._recorded = False

    def _sequence(self) -> Any:
        if self._seq is None or not self._seq.is_init():
            self._seq = self.device.manager.sequence()
        return self._seq

    def _record(self) -> Any:
        seq = self._sequence()
        seq.clear()
        for algo, step in zip(self._algos, self.steps, strict=True):
            seq.record(rt.OpAlgoDispatch(algo, step.push))  # each dispatch waits for the one before
        return seq

    def _timed(self, prof: Any) -> None:
        """``kd.profile()``: each launch its own submission, timed."""
        seq = self._sequence()
        for algo, step in zip(self._algos, self.steps, strict=True):
            seq.clear()
            seq.record(rt.OpAlgoDispatch(algo, step.push))
            t0 = time.perf_counter()
            seq.eval()
            prof.add_custom(step.label, (time.perf_counter() - t0) * 1e3)
        self._recorded = False
