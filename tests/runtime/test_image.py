"""Image: 2-D storage images of 1, 2 and 4 channels, every image dtype, imageLoad/imageStore kernels."""

from __future__ import annotations

import numpy as np
import pytest
from rt_glsl import spirv

import kdsl.kp as kp

IMAGE_DTYPES = ["float32", "int32", "uint32", "int16", "uint16", "int8", "uint8"]
_BITS = {"float32": "32f", "int32": "32i", "uint32": "32ui", "int16": "16i", "uint16": "16ui", "int8": "8i",
         "uint8": "8ui"}
_PREFIX = {"f": ("", "vec4"), "i": ("i", "ivec4"), "u": ("u", "uvec4")}
_CHANNELS = {1: "r", 2: "rg", 4: "rgba"}
W, H = 4, 3


def image_kernel(dtype: str, channels: int) -> str:
    """out(x, y) = a(x, y) * b(x, y) + (x + 10 y) + (0, 1, 2, 3) per channel; bindings a, b, out."""
    fmt = _CHANNELS[channels] + _BITS[dtype]
    prefix, vec = _PREFIX[np.dtype(dtype).kind]
    decl = "\n".join(f"layout(set = 0, binding = {i}, {fmt}) uniform {prefix}image2D {name};"
                     for i, name in enumerate(("a", "b", "o")))
    return f"""
#version 450
layout(local_size_x = 1, local_size_y = 1) in;
{decl}
void main() {{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    {vec} v = imageLoad(a, p) * imageLoad(b, p) + {vec}(p.x + 10 * p.y) + {vec}(0, 1, 2, 3);
    imageStore(o, p, v);
}}
"""


def image_data(dtype: str, channels: int) -> tuple[np.ndarray, np.ndarray]:
    """Two W x H x channels inputs, flattened, whose results fit in every dtype (no overflow to define)."""
    n = W * H * channels
    signed = np.dtype(dtype).kind != "u"
    a = (np.arange(n) % 7) - (3 if signed else 0)
    b = (np.arange(n) % 5) + (-2 if signed else 1)
    if dtype == "float32":
        return (a + 0.5).astype(np.float32), (b * 0.25).astype(np.float32)
    return a.astype(dtype), b.astype(dtype)


def image_oracle(a: np.ndarray, b: np.ndarray, channels: int) -> np.ndarray:
    y, x = np.meshgrid(np.arange(H), np.arange(W), indexing="ij")
    offset = (x + 10 * y)[:, :, None] + np.arange(channels)[None, None, :]
    return (a.reshape(H, W, channels) * b.reshape(H, W, channels) + offset.astype(a.dtype)).ravel()


@pytest.mark.parametrize("channels", [1, 2, 4])
@pytest.mark.parametrize("dtype", IMAGE_DTYPES)
def test_image_kernel(mgr, dtype, channels):
    a, b = image_data(dtype, channels)
    ia, ib = mgr.image_t(a, W, H, channels), mgr.image_t(b, W, H, channels)
    io = mgr.image_t(np.zeros_like(a), W, H, channels)
    algo = mgr.algorithm([ia, ib, io], spirv(image_kernel(dtype, channels)), workgroup=(W, H, 1))
    (mgr.sequence().record(kp.OpSyncDevice([ia, ib, io])).record(kp.OpAlgoDispatch(algo))
     .record(kp.OpSyncLocal([io])).eval())
    assert io.data().dtype == np.dtype(dtype)
    np.testing.assert_array_equal(io.data(), image_oracle(a, b, channels))


def test_image_is_float32_by_default(mgr):
    img = mgr.image([1, 2, 3, 4], 2, 2, 1)
    assert img.data().dtype == np.float32
    assert img.data_type() == kp.DataTypes.float
    assert img.size() == 4
    assert isinstance(img, kp.Memory)


@pytest.mark.parametrize("memory", ["device", "host"])
def test_image_sync_round_trip(mgr, memory):
    a = np.arange(W * H * 2, dtype=np.float32)
    img = mgr.image_t(a.copy(), W, H, 2, getattr(kp.MemoryTypes, memory))
    mgr.sequence().eval(kp.OpSyncDevice([img]))
    if memory == "device":
        img.data()[:] = 0
    mgr.sequence().eval(kp.OpSyncLocal([img]))
    np.testing.assert_array_equal(img.data(), a)


def test_image_copy(mgr):
    a = np.arange(W * H, dtype=np.uint32)
    src, dst = mgr.image_t(a, W, H, 1), mgr.image_t(np.zeros_like(a), W, H, 1)
    mgr.sequence().record(kp.OpSyncDevice([src])).record(kp.OpCopy([src, dst])).eval()
    dst.data()[:] = 0
    mgr.sequence().eval(kp.OpSyncLocal([dst]))
    np.testing.assert_array_equal(dst.data(), a)


def test_tensor_to_image_to_tensor_copy(mgr):
    a = np.arange(W * H, dtype=np.float32) - 4
    tensor, img = mgr.tensor_t(a), mgr.image_t(np.zeros_like(a), W, H, 1)
    back = mgr.tensor_t(np.zeros_like(a), kp.MemoryTypes.host)
    (mgr.sequence().record(kp.OpSyncDevice([tensor])).record(kp.OpCopy([tensor, img]))
     .record(kp.OpCopy([img, back])).eval())
    np.testing.assert_array_equal(back.data(), a)


@pytest.mark.parametrize("channels", [0, 3, 5])
def test_unsupported_channel_count_raises(mgr, channels):
    with pytest.raises(RuntimeError):
        mgr.image_t(np.zeros(W * H * max(channels, 1), np.float32), W, H, channels)


def test_data_size_must_match_image_size(mgr):
    with pytest.raises(RuntimeError):
        mgr.image_t(np.zeros(W * H * 2 - 1, np.float32), W, H, 2)


def test_unsupported_image_dtype_raises(mgr):
    with pytest.raises(RuntimeError):
        mgr.image_t(np.zeros(W * H, np.float64), W, H, 1)


def test_image_destroy_is_idempotent(mgr):
    img = mgr.image_t(np.zeros(4, np.int32), 2, 2, 1)
    img.destroy()
    img.destroy()
    assert not img.is_init()
    with pytest.raises(RuntimeError):
        img.data()
