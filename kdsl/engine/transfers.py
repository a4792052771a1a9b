"""Host <-> device copies: :func:`upload` (a NumPy array into a realised node), :func:`download` (a buffer
into a new NumPy array) and :func:`to_numpy` (realise a node and read it; a view of realised data is read, not
copied on the GPU, unless it is a small part of a large base).

Example:
    >>> import kdsl as kd, numpy as np
    >>> node = upload(np.arange(3), kd.int32, kd.asarray([0]).device)
    >>> to_numpy(node)
    array([0, 1, 2], dtype=int32)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.device import runtime_module  # imported late there: building graphs must not need Vulkan
from kdsl.engine import readback, staging
from kdsl.engine.buffers import Buffer, allocate
from kdsl.engine.programs import stats
from kdsl.engine.realize import realize_nodes, realize_roots
from kdsl.engine.state import state
from kdsl.ir.graph import Node


def upload(data: np.ndarray, dtype: dt.DType, device: Any) -> Node:
    """A realised node holding a copy of ``data`` (converted to ``dtype``)."""
    arr = np.asarray(data, dtype=dtype.np, order="C")
    if arr.size == 0:
        return Node("buffer", (), dtype, arr.shape, buffer=Buffer(None, 0, dtype, device), device=device)
    rt = runtime_module()
    dst = allocate(device, arr.size, dtype)
    st = state(device)
    with st.lock:
        host, view = staging.take(st, arr.size, arr.dtype)
        try:
            view[...] = arr.reshape(-1)
            st.sequence().eval(rt.OpCopy([host, dst]))
        finally:
            staging.give(st, arr.size, arr.dtype, host)
    stats["uploads"] += 1
    return Node("buffer", (), dtype, arr.shape, buffer=Buffer(dst, arr.size, dtype, device), device=device)


def download(buf: Buffer) -> np.ndarray:
    """The flat contents of a buffer, as a new NumPy array."""
    tensor, size, np_dtype = buf.tensor, buf.size, buf.dtype.np
    if tensor is None:
        return np.empty(0, np_dtype)
    st = state(buf.device)
    with st.lock:
        host, view = staging.take(st, size, np_dtype)  # (a host tensor of this very dtype: no view or cast after)
        try:
            readback.copy_to_host(st, tensor, host)
            flat = view.copy()  # copied out before the tensor goes back to the cache
        finally:
            staging.give(st, size, np_dtype, host)
    stats["downloads"] += 1
    return flat


def to_numpy(node: Node) -> np.ndarray:
    """Realise ``node`` and copy it to the host. A view of realised data is read, not copied on the GPU."""
    if node.op == "buffer":  # realised data, the usual case: read it (an empty one has no tensor: np.empty)
        return download(node.buffer).reshape(node.shape)
    if node.size == 0:
        return np.empty(node.shape, node.dtype.np)
    if node.op == "view" and node.srcs[0].op == "const":
        return np.full(node.shape, node.srcs[0].arg, node.dtype.np)
    if node.op == "const":
        return np.full(node.shape, node.arg, node.dtype.np)
    if node.op == "view" and not _small_part(node):
        with state(node.device).lock:
            if node.op == "view":
                base = node.srcs[0]
                if not base.realized:
                    realize_roots([base])
                return _read_view(download(base.buffer), node.arg)
    if not node.realized:
        flat = _computed_and_downloaded(node)
        if flat is not None:
            return flat.reshape(node.shape)
        realize_nodes([node])
    return download(node.buffer).reshape(node.shape)


def _computed_and_downloaded(node: Node) -> np.ndarray | None:
    """The flat contents of the unrealised ``node``, computed and copied to the host in one submission (the
    batch ends with the copy into a staging tensor), or None where that is not possible (a result larger than
    the staging cache holds, a view, ``kd.profile()``): ``float(loss)``, ``if err < tol``, ``x.sum().item()``
    then wait for the device once, not twice."""
    np_dtype = node.dtype.np
    size = node.size
    if size * np_dtype.itemsize > staging.STAGING_BYTES:
        return None
    st = state(node.device)
    with st.lock:
        host, view = staging.take(st, size, np_dtype)
        try:
            if not realize_nodes([node], download=host):
                return None
            flat = view.copy()  # copied out before the tensor goes back to the cache
        finally:
            staging.give(st, size, np_dtype, host)
    stats["downloads"] += 1
    return flat


SMALL_PART_BYTES = 1 << 20  # a view of a base larger than this, covering at most a quarter of it, is copied
# out on the device first: ``x[-1].item()`` of a 1 GB array downloads 4 bytes, not the gigabyte


def _small_part(view: Node) -> bool:
    base = view.srcs[0]
    return base.size * base.dtype.itemsize > SMALL_PART_BYTES and 4 * view.size <= base.size


def _read_view(flat: np.ndarray, v: Any) -> np.ndarray:
    """The elements of view ``v`` of a downloaded flat buffer, as a new array."""
    item = flat.itemsize
    strided = np.lib.stride_tricks.as_strided(flat[v.offset:] if v.offset else flat, v.shape,
                                              tuple(s * item for s in v.strides), writeable=False)
    return np.array(strided, copy=True)
