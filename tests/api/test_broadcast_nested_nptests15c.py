"""``kd.broadcast`` of broadcast objects counts their operands as NumPy's (``numiter``, ``iters`` and the
elements of each step hold one entry per array; kdsl counted a nested broadcast as one operand), and more than
64 arrays, nested ones included, is NumPy's ValueError with NumPy's message."""

import numpy as np
import pytest

import kdsl as kd

SHAPES = [(6, 7), (5, 6, 1), (7,), (5, 1, 7)]


def _nestings(mod, arrs):
    return [mod.broadcast(*arrs),
            mod.broadcast(mod.broadcast(*arrs[:0]), mod.broadcast(*arrs[0:])),
            mod.broadcast(mod.broadcast(*arrs[:1]), mod.broadcast(*arrs[1:])),
            mod.broadcast(mod.broadcast(*arrs[:2]), mod.broadcast(*arrs[2:])),
            mod.broadcast(arrs[0], mod.broadcast(*arrs[1:-1]), arrs[-1])]


@pytest.mark.parametrize("nesting", range(5))
def test_nested_as_numpy(nesting):
    host = [np.arange(np.prod(s), dtype=np.float32).reshape(s) for s in SHAPES]
    want = _nestings(np, host)[nesting]
    got = _nestings(kd, [kd.asarray(h) for h in host])[nesting]
    assert (got.shape, got.ndim, got.nd, got.numiter, got.size) == (want.shape, want.ndim, want.nd, want.numiter,
                                                                     want.size)
    assert len(got.iters) == len(want.iters)
    for _ in range(3):
        assert [float(v) for v in next(got)] == [float(v) for v in next(want)]
    assert got.index == want.index


def test_empty_and_scalars():
    assert kd.broadcast(kd.broadcast()).numiter == np.broadcast(np.broadcast()).numiter == 0
    got = kd.broadcast(kd.broadcast(kd.zeros((0, 1)), 1.0), kd.ones(3)[::2])
    want = np.broadcast(np.broadcast(np.zeros((0, 1)), 1.0), np.ones(3)[::2])
    assert (got.shape, got.numiter, got.size) == (want.shape, want.numiter, want.size)


@pytest.mark.parametrize("counts", [(65,), (33, 33), (32, 32), (64,)])
def test_operand_limit(counts):
    def build(mod, a):
        parts = [mod.broadcast(*[a] * n) for n in counts]
        return mod.broadcast(*parts)
    try:
        want = build(np, np.empty(2))
    except ValueError as err:
        with pytest.raises(ValueError) as got:
            build(kd, kd.zeros(2))
        assert str(got.value) == str(err)
    else:
        assert build(kd, kd.zeros(2)).numiter == want.numiter
