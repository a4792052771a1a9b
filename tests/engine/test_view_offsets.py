"""View offsets in push constants (issue 9): a loop over ``X[i:i+b]`` builds its kernels once, and every offset
still reads the right elements (NumPy is the oracle)."""

import numpy as np
import pytest

import kdsl as kd
from kdsl import dtype as dt
from kdsl.codegen import vector
from kdsl.codegen.expr import ExprRenderer
from kdsl.engine.lowering import pushes_offset
from kdsl.engine.plan import plan
from kdsl.ir.expr import Expr
from kdsl.ir.kernels import Elementwise
from kdsl.ir.view import INDEX_LIMIT, View


def host(shape, seed, dtype=np.float32):
    return np.random.default_rng(seed).uniform(-4, 4, shape).astype(dtype)


def programs() -> int:
    return kd.stats()["programs"]


def test_mini_batch_loop_builds_its_programs_once():
    h = host((2000, 7), 0)
    x = kd.asarray(h)
    counts = []
    for i in range(0, 2000, 100):
        got = float((x[i:i + 100] * 2).sum())
        np.testing.assert_allclose(got, (h[i:i + 100] * 2).sum(dtype=np.float64), rtol=1e-5)
        counts.append(programs())
    assert len(set(counts[1:])) == 1 and counts[0] == counts[-1]  # nothing new after the first batch


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_two_d_slices_every_offset(dtype):
    h = host((40, 9), 1, dtype)
    x = kd.asarray(h)
    before = None
    for i in (0, 3, 17, 30):
        for j in (0, 2, 4):
            np.testing.assert_array_equal((x[i:i + 10, j:j + 3] * 3 + 1).numpy(), h[i:i + 10, j:j + 3] * 3 + 1)
            np.testing.assert_array_equal(x[i:i + 10, j:j + 3].sum(axis=0).numpy(),
                                          h[i:i + 10, j:j + 3].sum(axis=0))
        if before is None:
            before = programs()
    assert programs() == before


def test_negative_steps():
    h = host((64,), 2)
    x = kd.asarray(h)
    counts = []
    for i in (0, 5, 21, 40):
        np.testing.assert_array_equal((x[i + 20:i:-1] - 1).numpy(), h[i + 20:i:-1] - 1)
        np.testing.assert_array_equal((x[::-1][i:i + 9:2] * 2).numpy(), h[::-1][i:i + 9:2] * 2)
        counts.append(programs())
    assert len(set(counts)) == 1
    h2 = host((12, 10), 3)
    x2 = kd.asarray(h2)
    for i in (0, 1, 2):
        np.testing.assert_array_equal((x2[::-1, ::-2][i:i + 6, i:] + 0).numpy(), h2[::-1, ::-2][i:i + 6, i:])


def test_views_of_views_and_stacked_views():
    h = host((30, 8), 4)
    x = kd.asarray(h)
    for i in (0, 4, 9):
        np.testing.assert_array_equal((x[i:i + 20][2:12:3, 1:] * 2).numpy(), h[i:i + 20][2:12:3, 1:] * 2)
        # a reshape of a non-contiguous slice cannot compose: a second view over the first (a "remap")
        np.testing.assert_array_equal((x[i:i + 6, 1:5].reshape(-1)[i::3] + 1).numpy(),
                                      h[i:i + 6, 1:5].reshape(-1)[i::3] + 1)
        np.testing.assert_allclose((x[i:i + 6, 1:5].reshape(4, 6)[1:, i // 3:].T).sum(axis=1).numpy(),
                                   h[i:i + 6, 1:5].reshape(4, 6)[1:, i // 3:].T.sum(axis=1), rtol=1e-5)


def test_one_plan_serves_every_offset():
    x = kd.asarray(host((50,), 5))
    s1, s2 = plan([(x[3:13] * 2)._node]), plan([(x[17:27] * 2)._node])
    assert s1[0].kernel is s2[0].kernel
    assert 3 in s1[0].words.tolist() and 17 in s2[0].words.tolist()
    a_reshape = plan([(x.reshape(5, 10) * 2)._node])  # a view that cannot move keeps its literal offset 0
    assert a_reshape[0].words.size == 1


def test_unaligned_offsets_never_take_wide_loads():
    h = host((64,), 6)
    x = kd.asarray(h)
    for i in range(0, 9):
        np.testing.assert_array_equal((x[i:i + 32] * 2 + x[8:40]).numpy(), h[i:i + 32] * 2 + h[8:40])
    load = Expr("load", dt.float32, (), (1, View.contiguous((8,)), (0, False)))
    k = Elementwise((8,), dt.float32, View.contiguous((8,)), Expr("sin", dt.float32, (load,)), 1, 1)
    assert not vector.eligible(k)  # its alignment is unknown when the kernel is built


def test_out_of_push_space_bakes_the_offsets():
    h = host((200,), 7)
    x = kd.asarray(h)
    for i in (0, 3, 50):
        got = x[i:i + 10] * 1
        want = h[i:i + 10] * 1
        for k in range(1, 48):  # more distinct views than push words: the last ones are baked
            got = got + x[i + k:i + k + 10]
            want = want + h[i + k:i + k + 10]
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5)


def test_jit_replays_with_different_offsets():
    @kd.jit
    def f(a, b):
        return (a * 2 + b[1:5]).sum(axis=0)

    h = host((100, 4), 8)
    x = kd.asarray(h)
    counts = []
    for i in (0, 10, 33, 90):
        np.testing.assert_allclose(f(x[i:i + 4], x[i:i + 10]).numpy(),
                                   (h[i:i + 4] * 2 + h[i:i + 10][1:5]).sum(axis=0), rtol=1e-5)
        counts.append(programs())
    assert len(f.traces) == 1 and len(set(counts)) == 1


def test_offsets_past_int32_stay_literal_and_wide_views_compute_in_64_bits():
    assert not pushes_offset(View.contiguous((4,), INDEX_LIMIT + 1), 2 ** 32)
    assert pushes_offset(View.contiguous((4,), INDEX_LIMIT), 2 ** 32)
    v = View((3, 2 ** 30), (2 ** 30, 1), 0)  # spans past int32 once offset: 64-bit positions
    e = Expr("load", dt.float32, (), (1, v, (2, True)))
    r = ExprRenderer()
    r.value(e, v.shape, ("i", "j"))
    assert "int64_t(pc.w[2])" in r.lines[0]
