"""kd.fft's derivatives (kdsl.fft.derivatives) against central finite differences in float64: every transform,
odd and even lengths, n= / s= padding and cropping, axes and norms."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import kdsl as kd
from tests.autodiff.autodiff_check import check_grad

RNG = np.random.default_rng(1717)
NORMS = [None, "ortho", "forward"]


def parts(y):
    return kd.stack([kd.real(y), kd.imag(y)])


def cplx(x):
    """A complex input built from a real one (both parts depend on it, differently)."""
    return x * (1 - 0.5j) + kd.flip(x, axis=-1) * 0.25j


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("m,n", [(6, None), (5, None), (6, 4), (5, 9), (7, 8)])
@pytest.mark.parametrize("name", ["fft", "ifft"])
def test_complex_transforms(name, m, n, norm):
    fn = getattr(kd.fft, name)
    x = RNG.standard_normal((2, m))
    check_grad(lambda x: parts(fn(cplx(x), n=n, norm=norm)), x)
    check_grad(lambda x: parts(fn(x, n=n, axis=0, norm=norm)), x)  # a real input: the real part


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("m,n", [(6, None), (5, None), (6, 5), (5, 8), (3, 1), (2, None)])
def test_rfft_and_ihfft(m, n, norm):
    x = RNG.standard_normal((m, 3))
    check_grad(lambda x: parts(kd.fft.rfft(x, n=n, axis=0, norm=norm)), x)
    check_grad(lambda x: parts(kd.fft.ihfft(x.T, n=n, norm=norm)), x)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("m,n", [(4, None), (4, 7), (5, 6), (6, 4), (3, 2)])
@pytest.mark.parametrize("name", ["irfft", "hfft"])
def test_irfft_and_hfft(name, m, n, norm):
    fn = getattr(kd.fft, name)
    x = RNG.standard_normal((2, m))
    check_grad(lambda x: fn(cplx(x), n=n, norm=norm), x)
    check_grad(lambda x: fn(x.T, n=n, axis=0, norm=norm), x)  # real input (the imaginary parts zero)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("s,axes", [(None, None), ((5, 2), (0, 1)), (None, (0,)), ((3, 4), (1, 0)),
                                    (None, (2, 0))])
@pytest.mark.parametrize("name", ["fftn", "ifftn"])
def test_nd_complex_transforms(name, s, axes, norm):
    fn = getattr(kd.fft, name)
    check_grad(lambda x: parts(fn(cplx(x), s=s, axes=axes, norm=norm)), RNG.standard_normal((3, 4, 2)))


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("s", [None, (4, 3)])
@pytest.mark.parametrize("name", ["fft2", "ifft2"])
def test_2d_complex_transforms(name, s, norm):
    fn = getattr(kd.fft, name)
    check_grad(lambda x: parts(fn(cplx(x), s=s, norm=norm)), RNG.standard_normal((2, 3, 5)))


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("s,axes", [(None, None), ((4, 5), (0, 1)), ((5, 3), (1, 0)), (None, (2, 0, 1))])
def test_rfftn_and_irfftn(s, axes, norm):
    x = RNG.standard_normal((3, 4, 3))
    check_grad(lambda x: parts(kd.fft.rfftn(x, s=s, axes=axes, norm=norm)), x)
    check_grad(lambda x: kd.fft.irfftn(cplx(x), s=s, axes=axes, norm=norm), x)


@pytest.mark.parametrize("norm", NORMS)
def test_rfft2_and_irfft2(norm):
    x = RNG.standard_normal((2, 4, 5))
    check_grad(lambda x: parts(kd.fft.rfft2(x, norm=norm)), x)
    check_grad(lambda x: kd.fft.irfft2(cplx(x), s=(4, 6), norm=norm), x)


def test_spectral_loss_and_round_trip():
    x = RNG.standard_normal(16)
    check_grad(lambda x: kd.abs(kd.fft.rfft(x)).sum(), x)
    check_grad(lambda x: kd.fft.irfft(kd.fft.rfft(x) * kd.asarray(np.linspace(0, 1, 9))), x)
    # irfft(rfft(x)) is x: the chain's gradient is the identity's
    g = kd.grad(lambda x: (kd.fft.irfft(kd.fft.rfft(x), n=16) * kd.asarray(np.arange(16.0))).sum())(kd.asarray(x))
    np.testing.assert_allclose(g.numpy(), np.arange(16.0), atol=1e-12)


def test_long_transforms_along_their_projections():
    x = RNG.standard_normal(300)  # Bluestein (300 = 2^2 3 5^2 is Stockham; 301 = 7 * 43 is not)
    check_grad(lambda x: parts(kd.fft.fft(kd.concatenate([x, x[:1]]))), x)
    check_grad(lambda x: kd.fft.irfft(cplx(x), n=512), x)


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_long_convolutions_go_through_the_fft_derivatives(mode):
    a, v = RNG.standard_normal(50), RNG.standard_normal(40)  # past DIRECT_LIMIT: rfft products
    check_grad(lambda a, v: kd.convolve(a, v, mode=mode), a, v)
    check_grad(lambda a, v: kd.correlate(a, v * (1 + 1j), mode=mode).imag, a, v)


def test_float32_gradients():
    x = RNG.standard_normal((3, 8))
    f = lambda x: kd.abs(kd.fft.rfft2(x, norm="ortho")).sum()  # noqa: E731
    g32 = kd.grad(f)(kd.asarray(x.astype(np.float32)))
    assert g32.dtype == kd.float32
    np.testing.assert_allclose(g32.numpy(), kd.grad(f)(kd.asarray(x)).numpy(), rtol=2e-4, atol=2e-5)


def test_second_derivative_through_fft():
    x = kd.asarray(RNG.standard_normal(6))
    f = lambda x: (kd.abs(kd.fft.fft(x)) ** 2).sum()  # Parseval: 6 * sum(x^2); gradient 12 x; Hessian 12 I  # noqa
    np.testing.assert_allclose(kd.grad(f)(x).numpy(), 12 * x.numpy(), rtol=1e-10)
    h = kd.grad(lambda x: (kd.grad(f)(x) * kd.asarray(np.arange(6.0))).sum())(x)
    np.testing.assert_allclose(h.numpy(), 12 * np.arange(6.0), rtol=1e-10, atol=1e-10)


def test_vjp_with_a_complex_primal():
    z = RNG.standard_normal(5) + 1j * RNG.standard_normal(5)
    c = RNG.standard_normal(5) + 1j * RNG.standard_normal(5)
    _, back = kd.vjp(lambda z: kd.fft.fft(z), kd.asarray(z))
    np.testing.assert_allclose(back(kd.asarray(c))[0].numpy(), 5 * np.fft.ifft(c), rtol=1e-10)  # F^H c


def test_values_and_warnings_unchanged():
    x = RNG.standard_normal((4, 6))
    np.testing.assert_allclose(kd.fft.rfftn(kd.asarray(x), axes=(0, 1)).numpy(), np.fft.rfftn(x), atol=1e-10)
    with pytest.warns(DeprecationWarning) as record:  # through the derivative wrapper, while tracing too
        kd.grad(lambda x: kd.abs(kd.fft.fftn(x, s=(4, 6))).sum())(kd.asarray(x))
    assert {w.filename for w in record} == {__file__}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kd.grad(lambda x: kd.abs(kd.fft.fftn(x, s=(4, 6), axes=(0, 1))).sum())(kd.asarray(x))


@pytest.mark.parametrize("name,part", [("conj", kd.conj),
                                       ("parts", lambda z: kd.complex_from_parts(kd.real(z), -z.imag)),
                                       ("sign", kd.sign), ("angle", lambda z: kd.angle(z) * (1 + 0j))])
def test_complex_parts_read_by_a_transform(name, part):
    # the transform's kernels realise the node (it becomes a "buffer"): its rule must not go by node.op
    check_grad(lambda x: parts(kd.fft.fft(part(x * (1 + 1j) + 0.5j), 8)), RNG.standard_normal(6))


def test_a_jitted_spectral_fit_replays_its_fft_gradients():
    target = kd.asarray(np.abs(np.fft.rfft(RNG.standard_normal(16))))

    def loss(w):
        return ((kd.abs(kd.fft.rfft(w)) - target) ** 2).mean()

    @kd.jit
    def step(w):
        value, g = kd.value_and_grad(loss)(w)
        return value, w - 0.05 * g

    w = kd.asarray(RNG.standard_normal(16))
    first, w = step(w)
    for _ in range(20):
        last, w = step(w)
    assert float(last) < 0.1 * float(first)
    np.testing.assert_allclose(kd.jit(kd.grad(loss))(w).numpy(), kd.grad(loss)(w).numpy(), rtol=1e-12)
