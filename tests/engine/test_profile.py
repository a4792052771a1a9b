"""kd.profile(): each kernel dispatched in the block is timed, in this thread only."""

import threading

import numpy as np

import kdsl as kd


def test_each_kernel_is_timed_and_results_are_unchanged():
    x = kd.asarray(np.arange(12.0, dtype=np.float32).reshape(3, 4))
    with kd.profile() as prof:
        m = x.sum(axis=1) + (x @ x.T).sum()
        got = m.numpy()
    np.testing.assert_allclose(got, x.numpy().sum(axis=1) + (x.numpy() @ x.numpy().T).sum(), rtol=1e-6)
    assert len(prof.records) == kd.explain(x.sum(axis=1) + (x @ x.T).sum()).count("kernel ")
    assert all(ms > 0 for _, ms in prof.records)
    rows = prof.rows()
    assert sum(c for _, c, _ in rows) == len(prof.records)
    assert [t for _, _, t in rows] == sorted((t for _, _, t in rows), reverse=True)
    assert f"{len(prof.records)} kernels" in prof.table()


def test_nothing_recorded_outside_the_block_or_in_other_threads():
    with kd.profile() as prof:
        t = threading.Thread(target=lambda: kd.realize(kd.ones(8) * 3))
        t.start()
        t.join()
    kd.realize(kd.ones(8) * 4)
    assert prof.records == [] and "0 kernels" in prof.table()


def test_profiles_nest():
    with kd.profile() as outer:
        with kd.profile() as inner:
            kd.realize(kd.ones(8) * 5)
        kd.realize(kd.ones(8) * 6)
    assert len(inner.records) == 1 and len(outer.records) == 1


def test_custom_kernels_are_timed_too():
    x = kd.asarray(np.random.default_rng(0).standard_normal(64).astype(np.complex64))
    with kd.profile() as prof:
        got = kd.fft.fft(x).numpy()
    np.testing.assert_allclose(got, np.fft.fft(x.numpy()), rtol=1e-4, atol=1e-4)
    assert any(name.startswith("custom kernel") for name, _ in prof.records)
