"""A bit-cast view (``.view(dtype)``) of a view that only reads through its source (``broadcast_to``,
``diagonal``, ``sliding_window_view``) made from a temporary: **later writes into the source did not show in
it** (it held the temporary weakly, and lost the link once the temporary was gone), where NumPy's view shows
them. It now holds that view, as it holds a slice; the result still fuses into one kernel."""

import gc
import re

import numpy as np
import pytest

import kdsl as kd

READ_VIEWS = {
    "broadcast_to": (lambda xp, x: xp.broadcast_to(x, (2,) + x.shape), (6,)),
    "diagonal": (lambda xp, x: xp.diagonal(x), (4, 4)),
    "sliding_window": (lambda xp, x: (np.lib.stride_tricks.sliding_window_view if xp is np
                                      else kd.lib.stride_tricks.sliding_window_view)(x, 3), (7,)),
}


@pytest.mark.parametrize("name", READ_VIEWS)
@pytest.mark.parametrize("dtype,target", [("int64", np.uint32), ("float32", np.int32), ("int32", np.uint8),
                                          ("uint16", np.int16), ("float64", np.int64), ("int16", np.uint32)])
def test_writes_into_the_source_show_in_the_bitcast(name, dtype, target):
    make, shape = READ_VIEWS[name]
    host = np.arange(np.prod(shape)).astype(dtype).reshape(shape)
    x = kd.asarray(host)
    try:
        want = make(np, host).view(target)
    except ValueError as error:  # NumPy refuses this view (a strided or too short last axis): so does kdsl
        with pytest.raises(ValueError, match=re.escape(str(error).rstrip("."))):
            make(kd, x).view(target)
        return
    got = make(kd, x).view(target)
    gc.collect()  # the temporary read view is gone (it was only held weakly)
    host.reshape(-1)[1] = 100
    x.reshape(-1)[1] = 100
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got.numpy(), want)


def test_the_bitcast_of_a_broadcast_still_fuses():
    x = kd.arange(6, dtype=kd.int64)
    before = kd.stats()["kernels"]
    (kd.broadcast_to(x * 2, (3, 6)).view(np.uint32) & 1).numpy()
    assert kd.stats()["kernels"] - before == 1
