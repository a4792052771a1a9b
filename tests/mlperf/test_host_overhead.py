"""benchmarks/host_overhead.py, briefly: every call runs and is timed, the stage timers attribute exclusive time,
and the engine's functions are put back afterwards."""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import host_overhead  # noqa: E402
import numpy as np  # noqa: E402

import kdsl as kd  # noqa: E402
from kdsl.engine import submission  # noqa: E402

FFT_ROWS = ("kd.fft.fft (16 complex64)", "kd.fft.rfft2 (8 x 8 float32)")  # (--n: 16 by default)


def test_short_run_reports_every_call_and_restores_the_engine(capsys):
    allocate, submit = submission.allocate, submission._submit
    ends = host_overhead.main(["--reps", "20", "--rounds", "1"])
    assert set(ends) == {"kd.realize(x + 1)", "kd.jit replay", "kd.realize(a @ a)", "readback (r.numpy())",
                         "compute and read ((x + 1).numpy())", *FFT_ROWS,
                         "floor: pre-recorded no-op eval"}
    assert all(v > 0 for v in ends.values())
    out = capsys.readouterr().out
    assert "per stage: kd.realize(x + 1)" in out and "graph build (x + 1)" in out
    assert "per stage: kd.realize(a @ a)" in out
    assert submission.allocate is allocate and submission._submit is submit


def test_timers_count_exclusive_time():
    timers = host_overhead.Timers()

    def inner():
        time.sleep(0.002)

    wrapped_inner = timers.wrap("inner", inner)

    def outer():
        time.sleep(0.002)
        wrapped_inner()

    t0 = time.perf_counter_ns()
    timers.wrap("outer", outer)()
    total = time.perf_counter_ns() - t0
    assert timers.ns["outer"] >= 2e6 and timers.ns["inner"] >= 2e6
    assert timers.ns["outer"] + timers.ns["inner"] <= total  # outer's time leaves inner's out


def test_profile_counts_python_calls_and_puts_the_vulkan_library_back(capsys):
    from kdsl.runtime import vk

    lib = vk.lib
    ends = host_overhead.main(["--reps", "20", "--rounds", "1", "--profile"])
    assert set(ends) == {"kd.realize(x + 1)", "kd.jit replay", "kd.realize(a @ a)", "readback (r.numpy())",
                         "compute and read ((x + 1).numpy())", *FFT_ROWS}
    assert all(v > 0 for v in ends.values())
    assert all(module.lib is lib for module in host_overhead.DEVICE_CALLERS)
    out = capsys.readouterr().out
    assert "Python function calls" in out and "self us per call" in out
    x = kd.asarray(np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal((x + 1).numpy(), np.arange(4) + 1)  # the device runs again afterwards
