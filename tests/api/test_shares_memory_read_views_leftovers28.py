"""``np.shares_memory`` / ``np.may_share_memory`` of kdsl arrays and their read-through views (``diagonal``,
``broadcast_to``, ``sliding_window_view``, ``as_strided(writeable=False)``: later writes into the source show in
them, as NumPy's views) against NumPy's answers. kdsl said False for all of them, so a defensive
``if np.may_share_memory(view, src): view = view.copy()`` skipped the copy and the view changed with ``src``."""

import numpy as np
import pytest

import kdsl as kd

SOURCE = np.arange(24.0).reshape(4, 6)

VIEWS = {
    "diagonal": lambda m, a: m.diagonal(a),
    "diagonal_offset": lambda m, a: m.diagonal(a, 2),
    "diagonal_of_slice": lambda m, a: m.diagonal(a[1:, ::2]),
    "broadcast_row": lambda m, a: m.broadcast_to(a[1], (3, 6)),
    "broadcast_whole": lambda m, a: m.broadcast_to(a, (2, 4, 6)),
    "windows": lambda m, a: m.lib.stride_tricks.sliding_window_view(a, 2, axis=1),
    "windows_part": lambda m, a: m.lib.stride_tricks.sliding_window_view(a, (2, 2))[1:, :1],
    "strided_readonly": lambda m, a: m.lib.stride_tricks.as_strided(a, (3, 2), (48, 16), writeable=False),
    "slice_of_diagonal": lambda m, a: m.diagonal(a)[2:],
}
OTHERS = {
    "whole": lambda a: a,
    "row0": lambda a: a[0],
    "row3_tail": lambda a: a[3, 4:],
    "col5": lambda a: a[:, 5],
    "corner": lambda a: a[0, 1:3],
    "transposed": lambda a: a.T,
    "evens": lambda a: a.reshape(-1)[::2],
    "empty": lambda a: a[:0],
}


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("other", list(OTHERS))
def test_sharing_answers_match_numpy(view, other):
    host = SOURCE.copy()
    a = kd.asarray(SOURCE).copy()
    hv, kv = VIEWS[view](np, host), VIEWS[view](kd, a)
    ho, ko = OTHERS[other](host), OTHERS[other](a)
    assert kd.shares_memory(kv, ko) == np.shares_memory(hv, ho)
    assert np.shares_memory(ko, kv) == np.shares_memory(ho, hv)
    assert kd.may_share_memory(kv, ko) == np.may_share_memory(hv, ho)


def test_two_read_views_of_one_source():
    host, a = SOURCE.copy(), kd.asarray(SOURCE).copy()
    pairs = [(lambda m, x: m.diagonal(x), lambda m, x: m.broadcast_to(x[0], (2, 6))),
             (lambda m, x: m.diagonal(x, 1), lambda m, x: m.diagonal(x))]
    for f, g in pairs:
        assert kd.shares_memory(f(kd, a), g(kd, a)) == np.shares_memory(f(np, host), g(np, host))


def test_defensive_copy_keeps_the_old_values():
    for m in (np, kd):
        src = m.asarray(SOURCE).copy()
        row = m.broadcast_to(src[0], (2, 6))
        if m.may_share_memory(row, src):
            row = row.copy()
        src[...] = -1
        np.testing.assert_array_equal(np.asarray(row), np.broadcast_to(SOURCE[0], (2, 6)))


def test_unrelated_and_written_views_share_nothing():
    a = kd.asarray(SOURCE).copy()
    b = kd.broadcast_to(a[0], (2, 6))
    assert not kd.may_share_memory(kd.diagonal(a), kd.asarray(SOURCE))
    b[...] = 5.0  # kdsl lets a broadcast be written: it holds its own values from then on
    assert not kd.may_share_memory(b, a) and not kd.shares_memory(b, a)


@pytest.mark.parametrize("view", ["diagonal", "diagonal_offset", "broadcast_row", "broadcast_whole", "windows",
                                  "strided_readonly", "slice_of_diagonal"])
def test_base_owndata_and_byte_bounds_of_read_views(view):
    """``.base`` was None and ``flags.owndata`` True for these views (NumPy: the source, False)."""
    host, a = SOURCE.copy(), kd.asarray(SOURCE).copy()
    hv, kv = VIEWS[view](np, host), VIEWS[view](kd, a)
    assert kv.base is not None and kv.flags.owndata == hv.flags.owndata
    if hv.base is host or hv.base is not None and hv.base.base is host:  # NumPy's sliding windows: a helper array
        assert kv.base is a
    bounds = np.lib.array_utils.byte_bounds
    h0, k0 = bounds(host)[0], kd.lib.array_utils.byte_bounds(a)[0]
    assert [b - h0 for b in bounds(hv)] == [b - k0 for b in kd.lib.array_utils.byte_bounds(kv)]
