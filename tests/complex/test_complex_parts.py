"""``a.real`` / ``a.imag`` as NumPy's writable views and assignable attributes (``z.imag[1] = 5`` wrote
nothing; ``z.real = x`` raised AttributeError), against NumPy on complex64/complex128, 1-d, 2-d and strided
arrays; real arrays' ``real`` is the array itself and their ``imag`` cannot be set."""

import numpy as np
import pytest

import kdsl as kd

EDITS = {
    "imag_item": lambda m, z: z.imag.__setitem__(-1, 5),
    "real_slice": lambda m, z: z.real.__setitem__(slice(None, None, 2), -1),
    "real_iadd": lambda m, z: z.real.__iadd__(2),
    "imag_imul": lambda m, z: z.imag.__imul__(-1),
    "set_real": lambda m, z: setattr(z, "real", m.arange(z.shape[-1])),
    "set_imag_scalar": lambda m, z: setattr(z, "imag", 0),
    "set_real_part_of_complex": lambda m, z: setattr(z, "real", z.imag),
    "imag_from_real": lambda m, z: z.imag.__setitem__(Ellipsis, z.real * 2),
    "mask": lambda m, z: z.real.__setitem__(z.real > 0, 0.5),
}


def _data(shape, dtype):
    rng = np.random.default_rng(7)
    return (rng.normal(size=shape) + 1j * rng.normal(size=shape)).astype(dtype)


@pytest.mark.parametrize("edit", EDITS)
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("shape", [(5,), (3, 4), (1, 1)])
@pytest.mark.parametrize("strided", [False, True])
def test_writes_into_parts_reach_the_array(edit, dtype, shape, strided):
    host = _data(shape[:-1] + (2 * shape[-1],), dtype)
    base = kd.asarray(host)
    want, got = (host[..., ::2], base[..., ::2]) if strided else (host[..., : shape[-1]], base[..., : shape[-1]])
    before_re, before_im = want.real, want.imag  # views taken before the write see it (shared memory)
    got_re, got_im = got.real, got.imag
    EDITS[edit](np, want)
    EDITS[edit](kd, got)
    assert got.dtype.name == dtype
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(got_re.numpy(), before_re, rtol=1e-6)
    np.testing.assert_allclose(got_im.numpy(), before_im, rtol=1e-6)
    np.testing.assert_allclose(base.numpy(), host, rtol=1e-6)  # the writes reached the base through the view


def test_parts_of_views_write_through_to_the_base():
    want = _data((3, 4), "complex64")
    got = kd.asarray(want.copy())
    want.T.imag[1, 0] = 7
    got.T.imag[1, 0] = 7
    want[1].real[:] = 3
    got[1].real[:] = 3
    np.testing.assert_allclose(got.numpy(), want)


def test_real_arrays():
    x, h = kd.arange(4.0), np.arange(4.0)
    x.real = 5
    h.real = 5
    x.real[1] = -1
    h.real[1] = -1
    np.testing.assert_array_equal(x.numpy(), h)
    np.testing.assert_array_equal(x.imag.numpy(), h.imag)
    with pytest.raises(TypeError, match="imaginary part"):
        x.imag = 1
    assert kd.real(kd.asarray([1 + 2j])).tolist() == [1.0]  # the function stays a value


def test_functions_real_and_imag_are_the_views():
    """``np.real(z)`` is ``z.real`` (a view): ``np.imag(z)[mask] = 0`` wrote nothing (kd.imag gave a copy)."""
    host = _data((6,), "complex64")
    z = kd.asarray(host)
    np.imag(host)[host.real > 0] = 0
    kd.imag(z)[z.real > 0] = 0
    np.real(host)[::2] *= 3
    kd.real(z)[::2] *= 3
    np.testing.assert_allclose(z.numpy(), host, rtol=1e-6)
    x = kd.asarray([1.0, 2.0])
    kd.real(x)[0] = 5  # a real array is its own real part, as NumPy's
    assert x.tolist() == [5.0, 2.0] and kd.imag(x).tolist() == [0.0, 0.0]
    assert kd.real(3 + 4j).item() == 3.0 and kd.imag([1j, 2]).tolist() == [1.0, 0.0]
