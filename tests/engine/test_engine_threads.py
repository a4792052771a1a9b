"""The array API, custom kernels and kp sequences used from several threads at once (docs/concurrency.md).
``KDSL_STRESS_SECONDS`` sets how long the stress test runs (default 3)."""

import os
import threading
import time

import numpy as np

import kdsl as kd
import kdsl.kp as kp


@kd.kernel
def _scale(x: kd.f32[:], out: kd.f32[:], s: kd.f32):
    i = kd.global_id(0)
    out[i] = x[i] * s


def _arrays(a, a_np, t, i):
    value = float((kd.sin(a) * t + a * i).sum())
    expected = float((np.sin(a_np) * t + a_np * i).sum(dtype=np.float64))
    assert abs(value - expected) <= 1e-3 * max(1.0, abs(expected)), (value, expected)


def _kernel(a, a_np, t, i):
    out = kd.zeros(a.shape)
    _scale(a, out, float(i), grid=a.size)
    np.testing.assert_allclose(out.numpy(), a_np * i, rtol=1e-6)
    host = np.zeros(a.shape, np.float32)
    _scale(a_np, host, 2.0, grid=a.size)
    np.testing.assert_allclose(host, a_np * 2, rtol=1e-6)


def _loop(a, a_np, t, i):
    w = kd.zeros(a.shape)
    for _ in range(5):
        w = w - 0.1 * (w - a)
    np.testing.assert_allclose(w.numpy(), a_np * (1 - 0.9 ** 5), rtol=1e-5)


def _kp_sequence(mgr, t, i):
    x = mgr.tensor(np.full(16, i, np.float32))
    mgr.sequence().record(kp.OpSyncDevice([x])).record(kp.OpSyncLocal([x])).eval()
    assert x.data()[0] == i
    x.destroy()


def test_threads_mix_arrays_kernels_and_kp_sequences():
    seconds = float(os.environ.get("KDSL_STRESS_SECONDS", "3"))
    a_np = np.linspace(0, 1, 1000, dtype=np.float32)
    a = kd.asarray(a_np)
    mgr = kp.Manager()
    errors: list[str] = []
    counts = [0] * 8
    stop = time.monotonic() + seconds

    def worker(t: int) -> None:
        try:
            i = 0
            while time.monotonic() < stop:
                i += 1
                job = (t + i) % 4
                if job == 0:
                    _arrays(a, a_np, t, i)
                elif job == 1:
                    _kernel(a, a_np, t, i)
                elif job == 2:
                    _loop(a, a_np, t, i)
                else:
                    _kp_sequence(mgr, t, i)
                counts[t] += 1
        except Exception as exc:  # reported by the main thread
            errors.append(f"thread {t}: {exc!r}")

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    mgr.destroy()
    assert not errors, errors[:3]
    assert all(c > 0 for c in counts), counts


def test_device_context_is_per_thread():
    dev = kd.device()
    seen = []
    with kd.Device(dev.index):
        th = threading.Thread(target=lambda: seen.append(kd.device()))
        th.start()
        th.join()
    assert seen == [dev]
