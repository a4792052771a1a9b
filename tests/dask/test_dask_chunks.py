"""Dask arrays made from kdsl arrays already on the device (kdsl.dask.from_chunks) and the chunk size that
from_array's "auto" aims at (kdsl.dask.chunk_bytes), checked against NumPy."""

import dask
import numpy as np
import pytest

import kdsl as kd
import kdsl.dask as kdd
from kdsl.dask import chunks as kchunks

RNG = np.random.default_rng(5)
PARTS = [RNG.standard_normal((n, 3, 2)).astype(np.float32) for n in (4, 1, 5)]


def test_from_chunks_keeps_each_array_as_a_chunk_of_the_concatenation():
    arrays = [kd.asarray(p) for p in PARTS]
    x = kdd.from_chunks(arrays)
    assert x.chunks == ((4, 1, 5), (3,), (2,)) and isinstance(x._meta, kd.Array) and x.dtype == np.float32
    graph = dict(x.__dask_graph__())
    assert all(any(v is a for v in graph.values()) for a in arrays)  # the very objects: nothing copied or read back
    whole = np.concatenate(PARTS)
    with dask.config.set(scheduler="sync"):
        np.testing.assert_allclose(x.sum(axis=0).compute().numpy(), whole.sum(axis=0), rtol=1e-5)
        np.testing.assert_array_equal(kdd.to_numpy(x[3:6]).compute(), whole[3:6])


def test_from_chunks_computes_lazy_arrays_once():
    lazy = [kd.asarray(p) * 2 for p in PARTS]
    assert not any(a._node.realized for a in lazy)
    x = kdd.from_chunks(lazy)
    assert all(a._node.realized for a in lazy)
    with dask.config.set(scheduler="sync"):
        np.testing.assert_allclose(x.max(axis=0).compute().numpy(), np.concatenate(PARTS).max(axis=0) * 2)


@pytest.mark.parametrize("bad, error", [
    ([], TypeError), ([PARTS[0]], TypeError), ([kd.ones(3), kd.ones(())], ValueError),
    ([kd.ones((2, 3)), kd.ones((2, 4))], ValueError), ([kd.ones(2), kd.ones(2, dtype=kd.int32)], ValueError),
])
def test_from_chunks_refuses_what_does_not_concatenate(bad, error):
    with pytest.raises(error, match="from_chunks"):
        kdd.from_chunks(bad)


def test_chunk_bytes_reads_the_device():
    info = kd.device().info
    assert kdd.chunk_bytes() == min(info["max_storage_buffer_range"], info["device_memory"] // 8)
    assert kdd.chunk_bytes(kd.devices()[-1]) > 0


def test_auto_chunks_stay_within_chunk_bytes(monkeypatch):
    a = RNG.standard_normal((200, 16)).astype(np.float32)  # 12 800 bytes
    assert kdd.from_array(a).numblocks == (1, 1)  # far below any device's limit: one chunk, one task
    monkeypatch.setattr(kchunks, "chunk_bytes", lambda device=None: 2048)
    x = kdd.from_array(a)
    assert x.npartitions > 1 and max(x.chunks[0]) * max(x.chunks[1]) * 4 <= 2048
    assert kdd.from_array(a, chunks=(50, 16)).chunks == ((50,) * 4, (16,))  # explicit chunks as given
    with dask.config.set(scheduler="sync"):
        np.testing.assert_allclose(x.sum(axis=0).compute().numpy(), a.sum(axis=0), rtol=1e-5)
