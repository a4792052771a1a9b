"""kd.shares_memory of the real and imaginary parts of one complex array: **kdsl said True for
`shares_memory(z.real, z.imag)`** (both views cover the same complex elements), where NumPy says False: the
parts are interleaved in memory and share no byte. Now each view's footprint also says which part of the
elements it covers; NumPy is the oracle on views of views, strided and transposed parts, empty and size-1."""

import numpy as np
import pytest

import kdsl as kd

PARTS = [lambda z: z.real, lambda z: z.imag, lambda z: z, lambda z: z.real[::2], lambda z: z.imag[1:],
         lambda z: z.real.T, lambda z: z.imag[..., 0], lambda z: z[1:].real, lambda z: z[:1].imag,
         lambda z: np.real(z)[-1:], lambda z: np.imag(z.T)[0], lambda z: z.real[0:0], lambda z: z[::2].imag[::-1],
         lambda z: z.imag.reshape(-1)[3:]]


def _pair(host, i, j, xp_array):
    return PARTS[i](xp_array), PARTS[j](xp_array), PARTS[i](host), PARTS[j](host)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("shape", [(4, 3), (4, 1), (6,)], ids=str)
@pytest.mark.parametrize("i", range(len(PARTS)))
@pytest.mark.parametrize("j", [0, 1, 2, 3, 4, 6, 11])
def test_parts_share_as_numpy_says(dtype, shape, i, j):
    host = (np.arange(24.0)[: np.prod(shape)] * (1 - 2j)).astype(dtype).reshape(shape)
    z = kd.asarray(host)
    x, y, hx, hy = _pair(host, i, j, z)
    want = np.shares_memory(hx, hy)
    assert kd.shares_memory(x, y) == want
    assert np.shares_memory(x, y) == want  # NumPy's function dispatches to kdsl's
    assert kd.may_share_memory(x, y) >= want
    np.testing.assert_array_equal(z.numpy(), host)  # the footprints write nothing into z


def test_parts_of_a_view_of_a_larger_complex_array():
    host = (np.arange(30.0) + 1j * np.arange(30.0)).reshape(5, 6)
    big = kd.asarray(host)
    cases = [(lambda b: b[1:, ::2].real, lambda b: b[1:, ::2].imag), (lambda b: b[1:, ::2].real, lambda b: b.imag),
             (lambda b: b[:, 1::2].real, lambda b: b[:, ::2].real), (lambda b: b[2].imag, lambda b: b.T[3].imag),
             (lambda b: b[2].real, lambda b: b.T[2]), (lambda b: b.real[:, 1:], lambda b: b.real[:, :2])]
    for f, g in cases:
        assert kd.shares_memory(f(big), g(big)) == np.shares_memory(f(host), g(host))


def test_a_zero_d_and_a_size_one_complex_array():
    for host in (np.array(1 + 2j), np.array([3 - 1j], np.complex64)):
        z = kd.asarray(host)
        assert kd.shares_memory(z.real, z.imag) == np.shares_memory(host.real, host.imag) is False
        assert kd.shares_memory(z.real, z) == np.shares_memory(host.real, host) is True


def test_writes_through_parts_still_reach_the_array():
    z = kd.asarray(np.array([1 + 1j, 2 + 2j, 3 + 3j]))
    re, im = z.real, z.imag
    assert not kd.shares_memory(re, im)
    re[0], im[2] = 10.0, -5.0
    assert z.tolist() == [10 + 1j, 2 + 2j, 3 - 5j]
    assert kd.shares_memory(z.real[:1], z[:1]) and not kd.shares_memory(z.real[:1], z.imag[:1])
