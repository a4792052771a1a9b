"""The background realiser (kdsl.dask.realiser): stored kdsl results are computed on one thread, in batches,
while Dask goes on; what reads them gets the same values as without it."""

import gc
import logging

import dask
import dask.array as da
import numpy as np
import pytest

import kdsl as kd
import kdsl.dask as kdd
from kdsl.dask import realiser as rl

RNG = np.random.default_rng(11)
X = RNG.standard_normal((12, 5)).astype(np.float32)


@pytest.fixture
def r():
    out = kdd.Realiser()
    yield out
    out.close()


def test_one_batch_computes_everything_queued(r):
    xs = [kd.asarray(X) * k + 1 for k in range(3)]
    r.put(xs[0])
    r.put((xs[1], "not an array"))  # the containers Dask's reductions return: a tuple, a dict
    r.put({"total": xs[2], "n": 3})
    assert r.flush(timeout=60)
    assert all(x._node.realized for x in xs)
    assert r.arrays == 3 and 1 <= r.batches <= 3
    for k, x in enumerate(xs):
        np.testing.assert_array_equal(x.numpy(), X * k + 1)


def test_nothing_to_do_for_realised_or_foreign_values(r):
    a = kd.asarray(X)
    r.put(a)
    r.put(X)
    r.put(None)
    assert r.flush(timeout=60) and r.arrays == 0 and r._thread is None  # no thread started for nothing


def test_a_result_dropped_before_its_turn_is_skipped(r):
    a = kd.asarray(X) + 1
    r.put(a)  # queued by weak reference: the realiser keeps nothing alive
    del a
    gc.collect()
    assert r.flush(timeout=60)
    assert r.arrays in (0, 1)  # computed only if its turn came before the del


def test_a_failure_is_logged_and_the_array_stays_lazy(r, monkeypatch, caplog):
    def boom(*arrays):
        raise MemoryError("out of device memory")

    a = kd.asarray(X) * 2
    monkeypatch.setattr(kd, "realize", boom)
    with caplog.at_level(logging.ERROR, logger="kdsl.dask.realiser"):
        r.put(a)
        assert r.flush(timeout=60)
    monkeypatch.undo()
    assert "failed" in caplog.text and not a._node.realized
    np.testing.assert_array_equal(a.numpy(), X * 2)  # the reader computes it (and would raise the error)


def test_the_realiser_thread_waits_without_polling(r, monkeypatch):
    import threading

    from kdsl.runtime import sequence_threads

    def blocking() -> bool:
        return getattr(threading.current_thread(), sequence_threads.BLOCKING_WAITS, False)

    seen = []
    realize = kd.realize
    monkeypatch.setattr(kd, "realize", lambda *a: (seen.append(blocking()), realize(*a)))
    a = kd.asarray(X) * 5
    r.put(a)
    assert r.flush(timeout=60) and seen == [True] and a._node.realized
    assert not blocking()  # (this thread's waits unchanged)


def test_close_finishes_the_queue_and_a_later_put_starts_again(r):
    a = kd.asarray(X) - 1
    r.put(a)
    r.close()
    assert a._node.realized and r._thread is None
    b = kd.asarray(X) - 2
    r.put(b)
    assert r.flush(timeout=60) and b._node.realized


def test_the_threaded_scheduler_computes_results_in_the_background():
    x = kdd.from_array(X, chunks=(4, 5))
    with dask.config.set(scheduler="threads"):
        y = dask.persist(x * 3 + 1)[0]
        total = (x * 2).sum(axis=0).compute()
    assert kdd.flush(timeout=60)
    chunks = dask.compute(*y.to_delayed().ravel(), scheduler="sync")
    assert all(c._node.realized for c in chunks) and total._node.realized
    np.testing.assert_array_equal(y.compute(scheduler="sync").numpy(), X * 3 + 1)
    np.testing.assert_allclose(total.numpy(), (X * 2).sum(axis=0), rtol=1e-5)


def test_the_config_turns_it_off():
    x = kdd.from_array(X, chunks=(4, 5))
    with dask.config.set({"kdsl.background-realise": False}, scheduler="threads"):
        assert not rl.enabled()
        assert kdd.flush(timeout=60)  # (what an earlier test left queued would count below)
        before = rl.shared().arrays
        total = (x * 2).sum(axis=0).compute()
        assert kdd.flush(timeout=60) and rl.shared().arrays == before and not total._node.realized
    np.testing.assert_allclose(total.numpy(), (X * 2).sum(axis=0), rtol=1e-5)


def test_many_chunks_give_the_numpy_answer():
    """A longer chain of tasks racing the realiser: every chunk read while it may be being computed."""
    a = RNG.standard_normal((64, 6)).astype(np.float32)
    x = kdd.from_array(a, chunks=(4, 3))
    with dask.config.set(scheduler="threads"):
        got = (da.exp(x) - x).sum(axis=0, split_every=2).compute()
        mean = x.mean(axis=0).compute()  # dict partials (sum and count per chunk)
    np.testing.assert_allclose(got.numpy(), (np.exp(a) - a).sum(axis=0), rtol=1e-5)
    np.testing.assert_allclose(mean.numpy(), a.mean(axis=0), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("scheduler", ["sync", "threads"])
def test_a_result_read_by_one_task_stays_lazy_for_it(scheduler):
    """A tree reduction's partial sums are each read by one task: they are computed with it, in its submission,
    not each in one of its own; only the computation's result goes to the realiser."""
    a = RNG.standard_normal((40, 6)).astype(np.float32)
    x = kdd.from_array(a, chunks=(5, 6))  # 8 chunks: 8 uploads, 8 partial sums, 2 + 1 combining sums
    assert kdd.flush(timeout=60)
    before = rl.shared().arrays
    with dask.config.set(scheduler=scheduler):
        total = x.sum(axis=0, split_every=4).compute()
        again = (x * 2).persist()  # a persisted chunk is read by no task of its computation: computed
    assert kdd.flush(timeout=60)
    assert rl.shared().arrays - before == 1 + x.npartitions
    np.testing.assert_allclose(total.numpy(), a.sum(axis=0), rtol=1e-5)
    chunks = dask.compute(*again.to_delayed().ravel(), scheduler="sync")
    assert all(c._node.realized for c in chunks)


def test_a_result_read_once_over_enough_data_is_computed_in_the_background(monkeypatch):
    """kdsl.background-bytes: a partial sum over enough data starts on the device while Dask goes on."""
    a = RNG.standard_normal((40, 6)).astype(np.float32)
    x = kdd.from_chunks([kd.asarray(a[i:i + 10]) for i in range(0, 40, 10)])  # 4 chunks of 240 bytes
    given: list = []
    monkeypatch.setattr(rl, "_shared", type("Recorder", (), {"put": lambda self, v: given.append(v)})())
    # Dask's tasks: 4 partial sums (each reads 240 bytes), their sum (960), Dask's finalize (the result)
    for limit, queued in ((961, 1), (241, 2), (240, 6)):
        given.clear()
        with dask.config.set({"kdsl.background-bytes": limit}, scheduler="sync"):
            total = x.sum(axis=0, split_every=4).compute(optimize_graph=False)
        assert len(given) == queued and given[-1] is total, limit
        np.testing.assert_allclose(total.numpy(), a.sum(axis=0), rtol=1e-5)


def test_bytes_read_counts_each_computed_input_once():
    x, y = kd.asarray(X), kd.asarray(X[:4])
    assert rl.bytes_read((x * x + y.sum()) - x, 1 << 30) == X.nbytes + X[:4].nbytes
    assert rl.bytes_read(x[:2] * 2, 1 << 30) == X.nbytes  # a view reads from its whole buffer
    assert rl.bytes_read(x * 2, 100) >= 100 and rl.bytes_read([x, y, 3], 1 << 30) == 0  # computed: nothing to do


def test_read_once_reads_the_local_schedulers_state():
    state = {"dependents": {"a": {"b"}, "b": {"c", "d"}, "c": set()}}
    assert rl.read_once("a", state) and not rl.read_once("b", state) and not rl.read_once("c", state)
    assert not rl.read_once("a", None) and not rl.read_once("z", state)  # unknown: computed, as before
