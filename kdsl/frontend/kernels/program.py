"""``kd.RawProgram``: several ``kd.raw_kernel`` launches as one submission, recorded once and replayed.

A library operation made of several launches (an FFT: two to six) pays, launched one by one, a submit and a
wait per launch plus each call's argument checks and push-constant packing. A RawProgram fixes everything but
its arrays at construction: each :class:`RawLaunch` gets its own Algorithm (pipeline, descriptor set,
specialization constants, push constants and workgroups), and the program one Sequence holding all the
launches (a barrier before each, so each sees the writes of the one before). A call binds the arrays it is
given by role name (plus temporaries taken from the buffer pool), records again only where a buffer changed,
and otherwise replays the recorded command buffer: one submit, one wait, no host work per launch. The pool
hands the same buffers back to a loop that frees its results, so a warm loop replays.

The program keeps its last call's buffers bound (to replay them): they stay allocated until a call binds
others or the program is dropped. Under ``kd.profile()`` every launch is timed by GPU timestamps (rows
labelled "(GPU time)": no submit or wait in them), or, on a device without timestamps, submitted and timed on
its own.

Example:
    >>> import numpy as np, kdsl as kd
    >>> twice = kd.raw_kernel('''#version 450
    ... layout(local_size_x = 64) in;
    ... layout(set = 0, binding = 0) readonly buffer X { float x[]; };
    ... layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
    ... layout(push_constant) uniform P { uint n; };
    ... void main() { uint i = gl_GlobalInvocationID.x; if (i < n) y[i] = 2.0 * x[i]; }''')
    >>> quad = kd.RawProgram([kd.RawLaunch(twice, ("x", "t"), [3], groups=(1, 1, 1)),
    ...                       kd.RawLaunch(twice, ("t", "y"), [3], groups=(1, 1, 1))],
    ...                      temps={"t": (3, kd.float32)})
    >>> y = kd.Array._uninitialized((3,), kd.float32)
    >>> quad(x=kd.asarray([1.0, 2.0, 3.0]), y=y)
    >>> y.tolist()
    [4.0, 8.0, 12.0]
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from operator import is_, methodcaller
from typing import Any

import kdsl.runtime as rt
from kdsl.dtype import as_dtype
from kdsl.engine.buffers import Buffer, allocate
from kdsl.engine.profile import current as current_profile
from kdsl.engine.state import state
from kdsl.frontend.kernels.launch import is_kd_array, normalize_grid
from kdsl.frontend.kernels.raw import RawKernel

_is_init = methodcaller("is_init")


class RawLaunch:
    """One launch of a RawProgram: ``kernel`` (a ``kd.raw_kernel``), one entry per binding (a role name,
    bound at each call, or a kd array: a constant such as a table), the push-constant values in member order
    (packed once, as a call of the kernel would), ``groups`` workgroups, specialization constants ``spec``
    (by name or id) and a ``label`` for ``kd.profile()``."""

    def __init__(self, kernel: RawKernel, bindings: Sequence[Any], push: Sequence[Any] = (),
                 groups: Any = (1, 1, 1), spec: Mapping[Any, Any] | None = None, label: str | None = None):
        if not isinstance(kernel, RawKernel):
            raise TypeError(f"RawLaunch takes a kd.raw_kernel, got {type(kernel).__name__}")
        if len(bindings) != len(kernel.info.bindings):
            raise TypeError(f"{kernel.name} binds {len(kernel.info.bindings)} array(s), got {len(bindings)}")
        if len(push) != len(kernel.info.push_members):
            raise TypeError(f"{kernel.name} takes {len(kernel.info.push_members)} push constant(s) "
                            f"{kernel.signature()}, got {len(push)}")
        for b, value in zip(kernel.info.bindings, bindings, strict=True):
            if not isinstance(value, str):
                if not is_kd_array(value):
                    raise TypeError(f"{kernel.name}: binding {b.binding} takes a role name or a kd array (a "
                                    f"constant), got {type(value).__name__}")
                kernel._check_array(b, value)
        self.kernel, self.bindings = kernel, tuple(bindings)
        self.push = kernel._push(push)
        self.spec, _ = kernel._spec(dict(spec or {}))
        self.groups = normalize_grid(groups, "groups")
        self.label = label or f"{kernel.name}, groups {self.groups}"
        self.written = {role for b, role in zip(kernel.info.bindings, bindings, strict=True)
                        if isinstance(role, str) and not b.readonly}


class RawProgram:
    """Launches run in order as one submission (see the module docstring); ``temps`` maps role names to the
    ``(size, dtype)`` of temporaries allocated from the pool at each call. Call it with the other roles'
    arrays by name: ``program(x=a, y=b)``; arrays written by a launch are written in place."""

    def __init__(self, launches: Sequence[RawLaunch], temps: Mapping[str, tuple[int, Any]] | None = None):
        self.launches = list(launches)
        self.temps = {role: (int(size), as_dtype(dtype)) for role, (size, dtype) in (temps or {}).items()}
        self.written = set().union(*(launch.written for launch in self.launches))
        roles = {r for launch in self.launches for r in launch.bindings if isinstance(r, str)}
        self.roles = sorted(roles - set(self.temps))
        self._role_set = frozenset(self.roles)
        # Each launch's bindings as indices into a call's list of tensors: the roles, the temporaries, then
        # each distinct constant array once (a table bound twice is looked up once per call)
        names = self.roles + list(self.temps)
        constants: dict[int, Any] = {}
        for launch in self.launches:
            for b in launch.bindings:
                if not isinstance(b, str):
                    constants.setdefault(id(b), b)
        self._names, self._constants = names, list(constants.values())
        at: dict[Any, int] = {name: i for i, name in enumerate(names)}
        at.update((key, len(names) + i) for i, key in enumerate(constants))
        self._slots = [tuple(at[b if isinstance(b, str) else id(b)] for b in launch.bindings)
                       for launch in self.launches]
        self._device: Any = None
        self._algos: list[Any] = []
        self._bound: list[Any] | None = None  # the tensors of the last call, as _slots index them
        self._seq: Any = None
        self._stamped: Any = None  # kd.profile()'s sequence, with timestamps
        self._recorded = False

    def __call__(self, **arrays: Any) -> None:
        if arrays.keys() != self._role_set:
            raise TypeError(f"this program takes the arrays {self.roles}, got {sorted(arrays)}")
        device = next(iter(arrays.values())).device
        if device is not self._device:  # (first call, or another device): Algorithms of this device's own
            self._device, self._algos, self._recorded = device, [None] * len(self.launches), False
            self._seq = self._stamped = self._bound = None
        written = self.written
        tensors = []  # (loops, not comprehensions: each of those is a call; this runs at every call)
        for role in self.roles:
            tensors.append(arrays[role].__kdsl_buffer__(writable=role in written))
        temps = None  # (held until the end of the call: then they go back to the pool)
        if self.temps:
            temps = [Buffer(allocate(device, size, dtype), size, dtype, device) for size, dtype in self.temps.values()]
            tensors += [b.tensor for b in temps]
        for a in self._constants:
            tensors.append(a.__kdsl_buffer__())
        with state(device).lock:
            bound = self._bound  # a call with the last call's buffers (a warm loop: the pool hands the same
            # ones back) binds nothing
            if bound is None or not all(map(is_, tensors, bound)) or not all(map(_is_init, self._algos)):
                self._bind(tensors)
            prof = current_profile()
            if prof is not None:
                self._timed(prof)
            elif self._recorded:
                self._seq.eval()  # the recorded command buffer again: one submit, one wait
            else:
                self._record().eval()
                self._recorded = True
        del temps  # the temporaries go back to the pool here, the GPU done with them

    def _bind(self, tensors: list[Any]) -> None:
        """Give each launch its buffers: an Algorithm on first use, new descriptors where a buffer changed."""
        self._bound = None  # (until every launch is bound: a failure half-way leaves no stale record)
        manager = self._device.manager
        for i, (launch, slots) in enumerate(zip(self.launches, self._slots, strict=True)):
            mems = [tensors[j] for j in slots]
            algo = self._algos[i]
            if algo is None or not algo.is_init():
                self._algos[i] = manager.algorithm(mems, launch.kernel.spirv, workgroup=launch.groups,
                                                   spec_consts=launch.spec if len(launch.spec) else None,
                                                   push_consts=launch.push)
                self._recorded = False
            elif any(a is not b for a, b in zip(algo.get_mem_objects(), mems, strict=True)):
                algo.update_bindings(mems)
                self._recorded = False
        self._bound = tensors

    def _sequence(self) -> Any:
        if self._seq is None or not self._seq.is_init():
            self._seq = self._device.manager.sequence()
        return self._seq

    def _record(self) -> Any:
        seq = self._sequence()
        seq.clear()
        for algo, launch in zip(self._algos, self.launches, strict=True):
            seq.record(rt.OpAlgoDispatch(algo, launch.push))  # each dispatch waits for the one before
        return seq

    def _timed(self, prof: Any) -> None:
        """``kd.profile()``: each launch's GPU time from timestamps around it, all in one submission (where the
        device has timestamps), else each launch its own submission, timed by the wall clock."""
        info = self._device.info
        if info.get("timestamps_supported"):
            if self._stamped is None or not self._stamped.is_init():
                self._stamped = self._device.manager.sequence(total_timestamps=len(self.launches))
            seq = self._stamped.clear()
            for algo, launch in zip(self._algos, self.launches, strict=True):
                seq.record(rt.OpAlgoDispatch(algo, launch.push))
            ticks = seq.eval().get_timestamps()
            period = float(info.get("timestamp_period", 1.0)) * 1e-6  # ms per tick
            for launch, t0, t1 in zip(self.launches, ticks, ticks[1:], strict=False):
                prof.add_custom(f"custom kernel {launch.label} (GPU time)", (t1 - t0) * period)
            return
        seq = self._sequence()
        for algo, launch in zip(self._algos, self.launches, strict=True):
            seq.clear()
            seq.record(rt.OpAlgoDispatch(algo, launch.push))
            t0 = time.perf_counter()
            seq.eval()
            prof.add_custom(f"custom kernel {launch.label}", (time.perf_counter() - t0) * 1e3)
        self._recorded = False
