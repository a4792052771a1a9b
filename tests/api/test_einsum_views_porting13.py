"""``np.einsum('ii->i', a)[:] = 0`` (Stack Overflow's way to set a diagonal), ``np.einsum('ij->ji', a)[0] = v``:
NumPy returns a writeable view of the one operand when labels are only permuted or repeated (nothing summed);
kdsl returned a copy, so the write was lost silently. Now the same view: writes reach the operand both ways."""

import numpy as np
import pytest

import kdsl as kd

SPECS = [("ii->i", (4, 4)), ("ij->ji", (3, 5)), ("ij", (3, 5)), ("ji", (3, 5)), ("ij->ij", (2, 3)),
         ("...ii->...i", (2, 3, 3)), ("iij->ji", (3, 3, 4)), ("ijk->kij", (2, 3, 4)), ("iji->ij", (3, 2, 3)),
         ("i...i->...i", (3, 2, 3)), ("ii->i", (1, 1)), ("ii->i", (0, 0))]


def _write(v, step):
    """Writes NumPy users make into such a view: a slice, an element, an in-place operator."""
    if v.size == 0:
        v[...] = 1
    elif step == 0:
        v[...] = -1
    elif step == 1:
        v[(0,) * v.ndim] = 50
    elif v.dtype == bool:
        v ^= True
    else:
        v *= 3


@pytest.mark.parametrize("spec,shape", SPECS)
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_])
@pytest.mark.parametrize("step", [0, 1, 2])
def test_view_writes_reach_operand(spec, shape, dtype, step):
    h = (np.arange(int(np.prod(shape))) % 7).astype(dtype).reshape(shape)
    a = kd.asarray(h)
    hv, kv = np.einsum(spec, h), kd.einsum(spec, a)
    assert kv.shape == hv.shape
    _write(hv, step)
    _write(kv, step)
    np.testing.assert_array_equal(a.numpy(), h)
    np.testing.assert_array_equal(kv.numpy(), hv)


@pytest.mark.parametrize("spec,shape", SPECS[:9])
def test_operand_writes_show_in_view(spec, shape):
    h = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    a = kd.asarray(h)
    hv, kv = np.einsum(spec, h), kd.einsum(spec, a)
    h[...] = h * 2 + 1
    a[...] = a * 2 + 1
    np.testing.assert_array_equal(kv.numpy(), hv)
    assert kd.shares_memory(a, kv) == np.shares_memory(h, hv)


def test_zero_the_diagonal_of_a_transposed_operand():
    h = np.arange(16.0).reshape(4, 4)
    a = kd.asarray(h)
    np.einsum("ii->i", h.T)[:] = 0
    kd.einsum("ii->i", a.T)[:] = 0
    np.testing.assert_array_equal(a.numpy(), h)


@pytest.mark.parametrize("spec", ["ii", "ii->", "ij->i", "ij->j", "iij->j"])
def test_sums_stay_new_arrays(spec):
    shape = (3, 3, 2) if spec.startswith("iij") else (3, 3)
    h = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    a = kd.asarray(h)
    r = kd.einsum(spec, a)
    np.testing.assert_allclose(r.numpy(), np.einsum(spec, h))
    assert not kd.may_share_memory(r, a)


def test_out_and_other_dtype_stay_copies():
    a = kd.arange(9.0).reshape(3, 3)
    out = kd.zeros(3)
    kd.einsum("ii->i", a, out=out)[...] = 7
    assert a.tolist()[0][0] == 0.0
    b = kd.einsum("ij->ji", a, dtype=kd.float64)
    b[0, 1] = 5
    assert a.tolist()[1][0] == 3.0


def test_mismatched_repeated_axes_raise_as_numpy():
    with pytest.raises(ValueError):
        np.einsum("ii->i", np.ones((1, 3)))
    with pytest.raises(ValueError):
        kd.einsum("ii->i", kd.ones((2, 3)))
