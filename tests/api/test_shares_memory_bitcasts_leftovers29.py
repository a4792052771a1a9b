"""kd.shares_memory of bit-cast views (``a.view(dtype)``), byte by byte as NumPy's: **a bit-cast of a view to
another itemsize (`x[2:].view(np.uint32)`) made shares_memory raise "could not broadcast input array"**, and
two bit-casts of one array (`x.view(np.uint32)[::2]` and `[1::2]`: the low and high halves of int64 data)
said True where NumPy says False. The footprint of each view is now kept in bytes (footprints.py)."""

import numpy as np
import pytest

import kdsl as kd

VIEWS = [
    lambda x: x, lambda x: x[2:], lambda x: x[1::2], lambda x: x.view(np.uint32)[::2],
    lambda x: x.view(np.uint32)[1::2], lambda x: x.view(np.uint32)[3:6], lambda x: x[2:].view(np.uint32)[::2],
    lambda x: x[2:].view(np.uint16)[1::4], lambda x: x.view(np.uint16)[2::4], lambda x: x.view(np.float64)[-1:],
    lambda x: x.view(np.uint8)[5::8], lambda x: x.view(np.uint16).reshape(4, 8)[:, 2:4].view(np.uint32),
    lambda x: x.view(np.uint32)[4:8].view(np.int64),
    lambda x: x.reshape(4, 2).T[1].view(np.float64), lambda x: x.view(np.int32)[::-2],
]


@pytest.mark.parametrize("i", range(len(VIEWS)))
@pytest.mark.parametrize("j", range(len(VIEWS)))
def test_bitcast_views_share_as_numpy_says(i, j):
    host = np.arange(8, dtype=np.int64) * 0x100000001
    x = kd.asarray(host)
    want = np.shares_memory(VIEWS[i](host), VIEWS[j](host))
    assert kd.shares_memory(VIEWS[i](x), VIEWS[j](x)) == want
    assert kd.may_share_memory(VIEWS[i](x), VIEWS[j](x)) >= want
    np.testing.assert_array_equal(x.numpy(), host)  # the footprints write nothing into x


@pytest.mark.parametrize("dtype,target", [("float32", np.uint16), ("complex64", np.float32),
                                          ("complex64", np.uint16), ("int16", np.uint8), ("uint8", np.uint16)])
def test_other_dtypes_and_parts_of_bitcasts(dtype, target):
    host = np.arange(24).astype(dtype).reshape(4, 6)
    x = kd.asarray(host)
    views = [lambda a: a.view(target)[:, ::2], lambda a: a.view(target)[:, 1::2], lambda a: a[:, 1:3],
             lambda a: a[1:].view(target)[:, 1::2]]
    if dtype.startswith("complex"):
        views += [lambda a: a.real, lambda a: a.imag[:, 1:]]
    for f in views:
        for g in views:
            assert kd.shares_memory(f(x), g(x)) == np.shares_memory(f(host), g(host))


def test_overlapping_windows_or_their_bytes_together():
    """Two windows read one element through different halves: both halves count (the bytes ORed, not the
    last window's)."""
    host = np.arange(6, dtype=np.int64)
    x = kd.asarray(host)
    pick = lambda w: w.view(np.uint32)[:, ::3]  # noqa: E731  window element 0's low half, element 1's high half
    got = pick(kd.lib.stride_tricks.sliding_window_view(x, 3))
    want = pick(np.lib.stride_tricks.sliding_window_view(host, 3))
    for other in (lambda a: a.view(np.uint32)[2::2], lambda a: a.view(np.uint32)[3::2], lambda a: a[5:]):
        assert kd.shares_memory(got, other(x)) == np.shares_memory(want, other(host))
