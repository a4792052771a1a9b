"""Loops whose arrays change length every step (``a = kd.append(a, v)``, ``kd.concatenate((a, row))``,
``x[i:] * 2``) compile a bounded number of kernels, not one per length (kdsl/engine/size_generic.py), and every
result is still NumPy's; fixed-shape kernels keep their sizes baked in."""

from collections import OrderedDict

import numpy as np
import pytest

import kdsl as kd
from kdsl.engine import size_generic
from kdsl.engine.plan import plan


@pytest.fixture(autouse=True)
def fresh_sizes(monkeypatch):
    """Each test starts with no size remembered (another test's loop would make its kernels generic early)."""
    monkeypatch.setattr(size_generic, "_seen", OrderedDict())
    monkeypatch.setattr(size_generic, "_coarse", OrderedDict())


def programs() -> int:
    return kd.stats()["programs"]


@pytest.mark.parametrize("realize", [False, True])
def test_fifty_appends_compile_a_few_kernels(realize):
    want, a = np.zeros(0, np.float32), kd.asarray(np.zeros(0, np.float32))
    before = programs()
    for i in range(50):
        a, want = kd.append(a, i * 0.5), np.append(want, np.float32(i * 0.5))
        if realize:
            kd.realize(a)
    got = a.numpy()
    # the first lengths baked (a lone piece, then STREAK - 1 joins), then the size-generic kernels: the copy of
    # ``a`` and the store of the appended number (a push constant since it is no uploaded buffer)
    assert programs() - before <= size_generic.STREAK + 2
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_rows_joined_onto_a_matrix():
    rows = np.arange(24, dtype=np.int32).reshape(8, 3)
    a, want = kd.asarray(rows[:1]), rows[:1]
    before = programs()
    for k in range(1, 8):
        a, want = kd.concatenate((a, kd.asarray(rows[k:k + 1]))), np.concatenate((want, rows[k:k + 1]))
        b = kd.vstack((a, rows[k]))
        np.testing.assert_array_equal(b.numpy(), np.vstack((want, rows[k])))
    assert programs() - before <= 2 * size_generic.STREAK  # concatenate's and vstack's: the first lengths baked
    np.testing.assert_array_equal(a.numpy(), want)
    h = kd.hstack((kd.asarray(np.ones(3, np.int8)), a[:, 0]))  # mixed dtypes: NumPy's promotion
    np.testing.assert_array_equal(h.numpy(), np.hstack((np.ones(3, np.int8), want[:, 0])))
    assert h.dtype == np.int32


@pytest.mark.parametrize("dtype", [np.complex64, np.bool_, np.float16])
def test_appends_of_other_dtypes(dtype):
    host = (np.arange(12) % 3 + 1j * np.arange(12)).astype(dtype) if dtype is np.complex64 else \
        (np.arange(12) % 3).astype(dtype)
    a, want = kd.asarray(host[:2]), host[:2]
    for i in range(2, 12):
        a, want = kd.append(a, kd.asarray(host[i:i + 1])), np.append(want, host[i:i + 1])
        np.testing.assert_array_equal(a.numpy(), want)
    assert a.dtype == want.dtype


def test_suffix_products_share_kernels_and_match_numpy():
    h = np.linspace(-3, 3, 300, dtype=np.float32)
    x = kd.asarray(h)
    before = programs()
    for i in (1, 2, 5, 40, 43, 120, 299):  # lengths on both sides of a 256-element bound
        np.testing.assert_array_equal((x[i:] * 2 + 1).numpy(), h[i:] * 2 + 1)
        got, want = (x[i:] + np.float64(0.5)).numpy(), h[i:] + np.float64(0.5)  # mixed: a cast in the kernel
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    # per expression: the first lengths baked, then the 512 and 256 bounds (a length-1 broadcast: its own kernel)
    assert programs() - before <= 2 * (size_generic.STREAK + 2)


def test_non_flat_inputs_and_broadcasts_stay_right():
    h = np.arange(400, dtype=np.float32).reshape(40, 10)
    x = kd.asarray(h)
    before = programs()
    for i in range(1, 36, 4):  # only the leading axis changes: it alone is read from the push word
        np.testing.assert_array_equal((x[i:, ::2] - x[i:, 1::2]).numpy(), h[i:, ::2] - h[i:, 1::2])  # strided
        np.testing.assert_array_equal((x[i:] * x[0]).numpy(), h[i:] * h[0])  # a broadcast row
        np.testing.assert_array_equal((x[i:] + kd.asarray(np.float32(2))).numpy(), h[i:] + np.float32(2))  # 0-d
    assert programs() - before <= 3 * (size_generic.STREAK + 1)  # per expression: 2 lengths baked, 2 bounds
    for j in (1, 3, 5):  # the inner axis changing: one kernel per shape, still NumPy's values
        np.testing.assert_array_equal((x[:, j:] * 2).numpy(), h[:, j:] * 2)


def test_empty_and_zero_d_pieces():
    a = kd.asarray(np.zeros(0, np.int64))
    for i in range(4):
        a = kd.concatenate((a, kd.asarray(np.zeros(0, np.int64)), kd.asarray(np.array([i, i], np.int64))))
    np.testing.assert_array_equal(a.numpy(), np.repeat(np.arange(4), 2))
    np.testing.assert_array_equal(kd.append(kd.asarray(np.float32(3)), 4.0).numpy(), np.append(np.float32(3), 4.0))
    assert kd.append(kd.asarray(np.zeros(0, np.float32)), []).shape == (0,)


def test_fixed_shapes_keep_their_sizes_baked():
    x = kd.asarray(np.arange(10, dtype=np.float32))
    for _ in range(3):
        y = kd.append(x, 1.0) * 3
        steps = plan([y._node])
        assert all(getattr(s.kernel, "size_word", None) is None for s in steps)
        kd.realize(y)
    np.testing.assert_array_equal(y.numpy(), np.append(np.arange(10, dtype=np.float32), 1) * 3)


def test_a_cached_plan_replays_a_generic_kernel_with_its_own_length():
    h = np.arange(20, dtype=np.float32)
    x = kd.asarray(h)
    for _ in range(2):  # the second pass runs the cached plans: each length's count rebuilt from the plan
        for i in (3, 6, 9, 14):
            np.testing.assert_array_equal((x[:i] - 1).numpy(), h[:i] - 1)
    steps = plan([(x[:9] - 1)._node])
    assert steps[0].kernel.size_word is not None and steps[0].words[-1] == 9


def test_prefix_reductions_share_a_kernel():
    h = np.arange(1, 121, dtype=np.float32).reshape(40, 3) / 7
    x, hi = kd.asarray(h), np.arange(40, dtype=np.int32)
    xi = kd.asarray(hi)
    before = programs()
    s = 0.0
    for i in range(1, 40):
        s += float(x[:i].sum())
        assert int(xi[:i].sum()) == hi[:i].sum()  # integers: exact
        np.testing.assert_allclose(float(x[i:].mean()), h[i:].mean(dtype=np.float64), rtol=1e-6)  # an epilogue
    np.testing.assert_allclose(s, sum(h[:i].sum(dtype=np.float64) for i in range(1, 40)), rtol=1e-6)
    # per reduction: the first lengths baked, then a generic kernel (a GPU's plan: one run of lengths folded by
    # one invocation, one by workgroups, each with its lengths baked first and a generic kernel per bound)
    runs = 1 if kd.device().partials else 3
    assert programs() - before <= 3 * runs * (size_generic.STREAK + 1)
    assert float(x[:0].sum()) == 0.0 and int(xi[:1].max()) == 0


def test_size_one_axes():
    col, row = kd.asarray(np.zeros((0, 1), np.int32)), kd.asarray(np.zeros((1, 0), np.float32))
    want_col, want_row = np.zeros((0, 1), np.int32), np.zeros((1, 0), np.float32)
    for i in range(6):
        piece = np.full((1, 1), i, np.int32)
        col, want_col = kd.concatenate((col, kd.asarray(piece))), np.concatenate((want_col, piece))
        row, want_row = kd.hstack((row, kd.asarray(piece * 0.5))), np.hstack((want_row, piece * 0.5))
    np.testing.assert_array_equal(col.numpy(), want_col)
    np.testing.assert_array_equal(row.numpy(), want_row)
    assert (col.dtype, row.dtype) == (want_col.dtype, want_row.dtype)


def test_a_vec4_device_grows_generic_kernels_too(monkeypatch):
    """Where fixed shapes get vec4 kernels (GPUs), a growing loop still switches to the size-generic kernel."""
    monkeypatch.setattr(kd.device(), "vector_width", 4)
    h = np.arange(1024, dtype=np.float32) / 100
    arrays = [kd.asarray(h[:n]) for n in range(64, 704, 128)]  # whole buffers of whole quads: vec4 lengths
    before = programs()
    for x in arrays:
        np.testing.assert_array_equal((x * 2 + 1).numpy(), h[:x.size] * 2 + 1)
    assert programs() - before <= size_generic.STREAK + 2
    y = kd.asarray(h[:256]) * 3 - 1  # another expression, one length: vec4 as before
    assert plan([y._node])[0].kernel.vec == 4


def test_rows_against_a_lazy_row_share_a_kernel():
    """``x[:i] * kd.arange(5)``: the row is an expression broadcast along the rows (a remap over an index), the
    same at every length; a remap whose source grows with the rows (``arange(i * 5).reshape(i, 5)``) keeps a
    kernel per length but its values."""
    host = np.random.default_rng(4).uniform(-1, 1, (40, 5)).astype(np.float32)
    x = kd.asarray(host)
    before = programs()
    for i in range(2, 30):
        np.testing.assert_allclose((x[:i] * kd.arange(5) - kd.arange(5)[::-1]).numpy(),
                                   host[:i] * np.arange(5) - np.arange(5)[::-1], rtol=1e-6)
    assert programs() - before <= size_generic.STREAK + 1
    for i in range(2, 8):
        np.testing.assert_allclose((x[i:] + kd.arange((40 - i) * 5).reshape(40 - i, 5)).numpy(),
                                   host[i:] + np.arange((40 - i) * 5).reshape(40 - i, 5), rtol=1e-6)
