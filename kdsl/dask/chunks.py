"""kdsl arrays as the chunks of ``dask.array``: registration, and conversion to and from NumPy chunks.

Dask runs NumPy's functions on each chunk; on kdsl chunks NumPy's dispatch protocols (``__array_ufunc__``,
``__array_function__``) send them to kdsl, so elementwise math, the partial sums and maxima of Dask's tree
reductions (``np.sum(chunk, axis=..., keepdims=True)``), ``matmul``/``tensordot``, slicing and the
``np.concatenate`` of ``rechunk`` all run on the device that holds the chunk. :func:`register` adds what the
protocols do not reach: the chunk type (so ``dask_array + kdsl_array`` works) and Dask's own per-type lookups.
Importing :mod:`kdsl.dask` calls it; every worker imports it when it unpickles kdsl's worker plugin or runs the
``preload`` of :class:`~kdsl.dask.LocalVulkanCluster`.

Example:
    >>> import numpy as np, dask, kdsl.dask as kdd
    >>> x = kdd.from_array(np.arange(12, dtype=np.float32).reshape(3, 4), chunks=2)
    >>> type(x._meta).__name__, x.chunks
    ('Array', ((2, 1), (2, 2)))
    >>> total = (x * 2).sum(axis=0)
    >>> with dask.config.set(scheduler="threads"):
    ...     type(total.compute()).__name__, kdd.to_numpy(total).compute().tolist()
    ('Array', [24.0, 30.0, 36.0, 42.0])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import dask.array as da
import numpy as np
from dask.array.chunk_types import register_chunk_type
from dask.array.dispatch import (
    concatenate_lookup,
    empty_lookup,
    take_lookup,
    tensordot_lookup,
    to_numpy_dispatch,
)
from dask.sizeof import sizeof
from dask.tokenize import normalize_token, tokenize

import kdsl as kd
from kdsl.dask.realiser import TaskResults

_registered = False


def register() -> None:
    """Make kdsl arrays a chunk type Dask knows (idempotent; importing :mod:`kdsl.dask` calls it)."""
    global _registered
    if _registered:
        return
    register_chunk_type(kd.Array)
    concatenate_lookup.register(kd.Array, kd.concatenate)
    tensordot_lookup.register(kd.Array, kd.tensordot)
    take_lookup.register(kd.Array, kd.take)
    empty_lookup.register(kd.Array, kd.empty)
    to_numpy_dispatch.register(kd.Array, _chunk_to_numpy)
    # Dask's scheduler weighs moving a chunk by its size: without this it sees a few dozen bytes (the Python
    # object) and steals tasks across workers freely, shipping gigabytes of device data through the host.
    sizeof.register(kd.Array, lambda a: int(a.nbytes))
    # Dask names what it builds from an array (da.from_array, a kdsl argument of map_blocks) by a token of it;
    # left to itself it pickles the array: reads all of it back from the device, twice.
    normalize_token.register(kd.Array, _token)
    TaskResults().register()  # the threaded scheduler computes stored results in the background too
    _registered = True


def _token(a: kd.Array) -> tuple[Any, ...]:
    """What names ``a`` for Dask: its graph node (a new one whenever ``a`` changes, e.g. by ``a[i] = v``; the
    same one once computed), shape, dtype and device - never its data, which would have to be read back.

    >>> import kdsl as kd
    >>> a = kd.ones(3)
    >>> _token(a) == _token(a), _token(a) == _token(kd.ones(3))
    (True, False)
    """
    return "kdsl.Array", a._node.id, a.shape, a.dtype.name, a.device.index


def _chunk_to_numpy(chunk: Any, **kwargs: Any) -> np.ndarray:
    return chunk.numpy() if isinstance(chunk, kd.Array) else np.asarray(chunk, **kwargs)


def _chunk_from_numpy(chunk: Any) -> kd.Array:
    # Runs where the chunk is computed: a Dask worker's current device (the one it is pinned to).
    return kd.asarray(chunk)


def meta(ndim: int, dtype: Any) -> kd.Array:
    """An empty kdsl array of ``ndim`` dimensions: Dask's ``meta`` for an array of kdsl chunks.

    >>> meta(2, "float32").shape
    (0, 0)
    """
    return kd.empty((0,) * ndim, dtype=np.dtype(dtype))  # np.dtype reads a kdsl DType's .dtype


def from_numpy(x: da.Array) -> da.Array:
    """The Dask array ``x`` (NumPy chunks) with each chunk moved to a kdsl device (where it is computed).

    >>> import dask.array as da
    >>> type(from_numpy(da.ones((4, 4), chunks=2))._meta).__name__
    'Array'
    """
    if not isinstance(x, da.Array):
        raise TypeError(f"from_numpy takes a dask.array.Array, got {type(x).__name__}; for a NumPy array use "
                        "kdsl.dask.from_array(x, chunks=...)")
    return da.map_blocks(_chunk_from_numpy, x, dtype=x.dtype, meta=meta(x.ndim, x.dtype))


def chunk_bytes(device: kd.Device | None = None) -> int:
    """The chunk size in bytes that :func:`from_array`'s ``chunks="auto"`` aims at on ``device`` (default: this
    thread's current one): as large as one kdsl array may be there (``maxStorageBufferRange``), and at most an
    eighth of the device's memory, leaving room for several chunks and their temporaries. Every chunk is a Dask
    task, and each task costs Dask a fixed amount of host time, so on a GPU large chunks are what makes Dask's
    share small (Dask's own default, 128 MiB, suits host memory).

    >>> import kdsl as kd
    >>> info = kd.device().info
    >>> chunk_bytes() == min(info["max_storage_buffer_range"], info["device_memory"] // 8)
    True
    """
    info = (device if device is not None else kd.device()).info
    return max(1, min(int(info["max_storage_buffer_range"]), int(info["device_memory"]) // 8))


def from_array(x: Any, chunks: Any = "auto") -> da.Array:
    """A Dask array of kdsl chunks from a NumPy array (or a kdsl array, read once) cut into ``chunks``.

    The NumPy data goes into the task graph; each chunk is copied to its worker's device when computed.
    ``chunks="auto"`` makes chunks of up to :func:`chunk_bytes` (Dask's other chunk specifications as in
    ``da.from_array``).

    >>> import numpy as np
    >>> from_array(np.zeros((3, 4), np.float32)).chunks   # small: one chunk
    ((3,), (4,))
    """
    host = x.numpy() if isinstance(x, kd.Array) else np.asarray(x)
    if isinstance(chunks, str) and chunks == "auto":
        chunks = da.core.normalize_chunks("auto", host.shape, limit=chunk_bytes(), dtype=host.dtype)
    return from_numpy(da.from_array(host, chunks=chunks))


def from_chunks(chunks: Sequence[kd.Array]) -> da.Array:
    """A Dask array whose chunks are the kdsl arrays ``chunks``, one after the other along the first axis (as
    ``np.concatenate(chunks)``): each stays where it is, on its device - nothing is copied or read back, as
    :func:`from_array` of a kdsl array would. Lazy ones are computed first (one submission per device), since
    a lazy chunk would be computed again by every computation that reads it. They must agree in dtype and in
    every axis but the first.

    >>> import kdsl as kd
    >>> x = from_chunks([kd.ones((2, 3)), kd.zeros((1, 3))])
    >>> x.chunks, x.sum(axis=0).compute(scheduler="sync").tolist()
    (((2, 1), (3,)), [2.0, 2.0, 2.0])
    """
    chunks = list(chunks)
    if not chunks or not all(isinstance(c, kd.Array) for c in chunks):
        raise TypeError("from_chunks takes a non-empty sequence of kdsl arrays")
    first = chunks[0]
    if first.ndim == 0 or any(c.ndim == 0 or c.shape[1:] != first.shape[1:] or c.dtype != first.dtype
                              for c in chunks):
        raise ValueError("from_chunks needs arrays of at least one dimension that agree in dtype and in every "
                         f"axis but the first; got {[(c.shape, c.dtype.name) for c in chunks]}")
    kd.realize(*[c for c in chunks if not c._node.realized])
    name = "kdsl-chunks-" + tokenize(*chunks)
    rest = (0,) * (first.ndim - 1)
    graph = {(name, i, *rest): c for i, c in enumerate(chunks)}
    sizes = (tuple(c.shape[0] for c in chunks), *((n,) for n in first.shape[1:]))
    return da.Array(graph, name, chunks=sizes, meta=meta(first.ndim, first.dtype))


def to_numpy(x: da.Array) -> da.Array:
    """The Dask array ``x`` with NumPy chunks (copied off the device where each is computed): ``.compute()``
    then returns a NumPy array.

    >>> import dask, dask.array as da
    >>> with dask.config.set(scheduler="sync"):
    ...     type(to_numpy(from_numpy(da.ones(3, chunks=2))).compute()).__name__
    'ndarray'
    """
    if not isinstance(x, da.Array):
        raise TypeError(f"to_numpy takes a dask.array.Array, got {type(x).__name__}")
    return da.map_blocks(_chunk_to_numpy, x, dtype=np.dtype(x.dtype), meta=np.empty((0,) * x.ndim, np.dtype(x.dtype)))
