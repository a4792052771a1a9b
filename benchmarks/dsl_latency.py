"""Latency: (1) the first call of a new expression (GLSL generation, glslang compile, pipeline creation and the
dispatch) once the compiler is warm, target < 30 ms; (2) the Python overhead of re-running a cached 5-op
expression against replaying a pre-recorded ``Sequence.eval()`` of the same kernel, target <= 100 us.

Run: python benchmarks/dsl_latency.py
"""

from __future__ import annotations

import os
import time

import numpy as np
from dsl_common import table

import kdsl as kd
import kdsl.kp as kp
from kdsl.engine.plan import plan
from kdsl.engine.programs import program


def first_call_ms(trials: int = 5) -> list[float]:
    """Realise expressions the process has never seen (a fresh shape each time makes fresh kernel source)."""
    rng = np.random.default_rng(int.from_bytes(os.urandom(4), "little"))
    warm = kd.asarray(np.ones(7, np.float32))
    kd.realize(kd.exp(warm) + 1)  # compiler and device started
    out = []
    for _ in range(trials):
        n = int(rng.integers(1_000, 50_000))
        a = kd.asarray(np.ones(n, np.float32))
        t0 = time.perf_counter()
        kd.realize(kd.sqrt(kd.abs(kd.sin(a) * 3 - a)) + kd.tanh(a))
        out.append((time.perf_counter() - t0) * 1e3)
    return out


def overhead_us(n: int = 1024, reps: int = 2000) -> tuple[float, float, float]:
    """(us per re-run of a cached 5-op expression, the same through kd.jit, us per replay of the pre-recorded
    dispatch)."""
    a, b, c = (kd.asarray(np.full(n, v, np.float32)) for v in (0.5, 1.5, 2.5))

    def expr():
        return kd.sin(a) * b + c * 2 - kd.sqrt(kd.abs(a))

    jitted = kd.jit(lambda x, y, z: kd.sin(x) * y + z * 2 - kd.sqrt(kd.abs(x)))
    for _ in range(50):
        jitted(a, b, c)
    t0 = time.perf_counter()
    for _ in range(reps):
        jitted(a, b, c)
    jit_us = (time.perf_counter() - t0) / reps * 1e6

    for _ in range(50):
        kd.realize(expr())
    t0 = time.perf_counter()
    for _ in range(reps):
        kd.realize(expr())
    cached = (time.perf_counter() - t0) / reps * 1e6
    step = plan([expr()._node])[0]
    dev = kd.device()
    prog = program(step.kernel, dev)
    out = dev.manager.tensor_empty(n, np.float32)
    algo = dev.manager.algorithm([out] + [x._buffer() for x in (a, b, c)], prog.spirv, workgroup=prog.workgroup,
                                 push_consts=step.words)
    seq = dev.manager.sequence()
    seq.record(kp.OpAlgoDispatch(algo, step.words))
    for _ in range(50):
        seq.eval()
    t0 = time.perf_counter()
    for _ in range(reps):
        seq.eval()
    replay = (time.perf_counter() - t0) / reps * 1e6
    return cached, jit_us, replay


def main() -> None:
    firsts = first_call_ms()
    table("first call of a new expression (compiler warm)", ["trial", "ms"],
          [[i, t] for i, t in enumerate(firsts)] + [["median", float(np.median(firsts))]])
    cached, jit_us, replay = overhead_us()
    table("re-running a cached 5-op expression (1024 floats)",
          ["kdsl us/call", "kd.jit us/call", "pre-recorded eval us", "overhead us", "kd.jit overhead us"],
          [[cached, jit_us, replay, cached - replay, jit_us - replay]])


if __name__ == "__main__":
    main()
