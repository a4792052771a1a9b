"""Dask's distributed scheduler with two worker processes, each pinned to its own device, checked against NumPy.

lavapipe is one physical device; the workers get ``KDSL_VIRTUAL_DEVICES=2`` so worker 0 uses logical device 0
and worker 1 logical device 1 (separate VkDevices), as two GPUs would. One cluster serves the whole module
(starting worker processes takes seconds)."""

import os

import dask
import dask.array as da
import numpy as np
import pytest
from distributed import Client, wait

import kdsl as kd
import kdsl.dask as kdd

RNG = np.random.default_rng(3)
X = RNG.standard_normal((96, 6)).astype(np.float32)
Y = (RNG.random(96) < 1 / (1 + np.exp(-X @ np.linspace(-1, 1, 6)))).astype(np.float32)


@pytest.fixture(scope="module")
def client():
    env = {"KDSL_VIRTUAL_DEVICES": "2", "KDSL_CACHE_DIR": os.environ.get("KDSL_CACHE_DIR", "")}
    # A worker the nanny restarts (test_a_worker_dying...) may take longer than the 15 s Dask waits before it
    # closes a lost worker's nanny for good on a loaded CI machine (Python, Dask, Vulkan and kdsl to start).
    with dask.config.set({"distributed.deploy.lost-worker-timeout": "120s"}), \
            kdd.LocalVulkanCluster(n_workers=2, devices=[0, 1], env=env, silence_logs=40) as cluster, \
            Client(cluster) as c:
        yield c


def _worker_device(dask_worker):
    return os.environ["KDSL_DEVICE"], kd.device().index


def _host_memory_limit(dask_worker):
    return dask_worker.memory_manager.memory_limit


def test_each_worker_uses_its_own_device(client):
    assert sorted(client.run(_worker_device).values()) == [("0", 0), ("1", 1)]
    # chunks are device memory: no host-memory limit to pause workers or spill them (chunks.py counts nbytes)
    assert set(client.run(_host_memory_limit).values()) == {None}


def test_elementwise_and_reductions(client):
    x = kdd.from_array(X, chunks=(24, 3))
    total, cols, rows, peak = client.compute([(x * 2 - 1).sum(), da.exp(x).mean(axis=0), x.max(axis=1),
                                              abs(x).max()], sync=True)
    assert isinstance(total, kd.Array) and total.device is kd.device()
    np.testing.assert_allclose(total.numpy(), (X * 2 - 1).sum(), rtol=1e-4)
    np.testing.assert_allclose(cols.numpy(), np.exp(X).mean(axis=0), rtol=1e-5)
    np.testing.assert_array_equal(rows.numpy(), X.max(axis=1))
    np.testing.assert_array_equal(peak.numpy(), abs(X).max())
    out = kdd.to_numpy(x[5:90:7] + 1).compute()
    assert isinstance(out, np.ndarray)
    np.testing.assert_array_equal(out, X[5:90:7] + 1)


def test_chunked_matmul(client):
    a = kdd.from_array(X, chunks=(24, 3))
    b = kdd.from_array(X.T.copy(), chunks=(3, 32))
    np.testing.assert_allclose((a @ b).compute().numpy(), X @ X.T, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose((a.T @ a).compute().numpy(), X.T @ X, rtol=1e-4, atol=1e-4)


def gradient(X, y, w):
    """The log-loss gradient summed over the rows of X; NumPy's API, so the same code runs on NumPy, kdsl and
    Dask arrays (as in docs/scale-out.md)."""
    p = 1 / (1 + np.exp(-(X @ w)))
    return X.T @ (p - y)


def test_distributed_logistic_regression_steps(client):
    x, y = kdd.from_array(X, chunks=(24, 6)), kdd.from_array(Y, chunks=24)
    x, y = client.persist([x, y])  # the chunks stay on the workers' devices between steps
    w, wn = kd.zeros(6), np.zeros(6, np.float32)
    for _ in range(3):
        w = w - 0.5 * gradient(x, y, w).compute() / len(X)
        wn = wn - 0.5 * gradient(X, Y, wn) / len(X)
    assert isinstance(w, kd.Array)
    np.testing.assert_allclose(w.numpy(), wn, rtol=1e-4, atol=1e-6)


@kd.kernel
def _clamp(x: kd.f32[:], y: kd.f32[:], lo: kd.f32, hi: kd.f32):
    i = kd.global_id(0)
    y[i] = min(max(x[i], lo), hi)


def _clamp_block(block, lo, hi):
    out = kd.empty(block.size, kd.float32)
    _clamp[block.size](block.reshape(-1), out, lo, hi)
    return out.reshape(block.shape)


def test_map_blocks_with_a_custom_kernel(client):
    x = kdd.from_array(X, chunks=(24, 3))
    got = x.map_blocks(_clamp_block, -0.5, 0.5).compute()
    np.testing.assert_array_equal(got.numpy(), np.clip(X, -0.5, 0.5))


def _pinned_device(dask_worker):
    return dask_worker.kdsl_device


def _lazy_block(block):
    return block * 2 + 1  # a lazy kdsl array: Dask stores it as the task's result


def _stored_chunks_realised(dask_worker):
    chunks = [v for v in dask_worker.data.values() if isinstance(v, kd.Array)]
    return len(chunks), all(c._node.realized for c in chunks)


def test_the_preloaded_plugin_realises_stored_results(client):
    """Dask keeps what a task returned; a lazy chunk kept there would be recomputed by every later task. The
    plugin has each worker compute them in the background (kdsl.dask.realiser); flush waits for that."""
    assert set(client.run(_pinned_device).values()) == {0, 1}  # the preload registered DevicePlugin
    x = client.persist(kdd.from_array(X, chunks=(24, 3)).map_blocks(_lazy_block))
    wait(x)
    assert all(client.run(kdd.flush, timeout=60).values())
    stored = client.run(_stored_chunks_realised).values()
    assert sum(n for n, _ in stored) >= 4 and all(ok for _, ok in stored)
    np.testing.assert_allclose(x.compute().numpy(), X * 2 + 1, rtol=1e-6)
    del x


def test_the_plugin_keeps_each_workers_device(client):
    client.register_plugin(kdd.DevicePlugin())  # as for workers started by hand; these are pinned already
    assert sorted(client.run(_pinned_device).values()) == [0, 1]


def _die_once(block, marker):
    """Kill this worker process the first time it runs (a crashed worker); Dask reruns the task elsewhere."""
    if not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(1)
    return block * 3


def test_a_worker_dying_mid_computation_is_retried(client, tmp_path):
    x = kdd.from_array(X, chunks=(48, 6))
    marker = str(tmp_path / "died")
    # meta= given: without it Dask calls the function here once, on an empty chunk, to learn the output type
    got = x.map_blocks(_die_once, marker, meta=x._meta).sum(axis=0).compute()
    assert os.path.exists(marker)
    np.testing.assert_allclose(got.numpy(), (X * 3).sum(axis=0), rtol=1e-4)
    client.wait_for_workers(2, timeout=120)  # the nanny restarts the dead worker, pinned as before
    assert sorted(client.run(_worker_device).values()) == [("0", 0), ("1", 1)]
