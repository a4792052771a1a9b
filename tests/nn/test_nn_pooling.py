"""The poolings' options against the NumPy references of nn_reference.py (direct loops from PyTorch's
definitions): ceil_mode with its rule for the last window, padding, dilation, count_include_pad, the 1-d
versions and adaptive average pooling; plus literal values printed by PyTorch, so the reference's own output-size
rule is checked too."""

import itertools

import nn_reference as ref
import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(5)


def rand(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def close(got, want, atol=1e-5):
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=atol)


GEOMETRIES = [((2, 2), None, (0, 0), (1, 1)), ((3, 3), (2, 2), (1, 1), (1, 1)), ((3, 2), (2, 3), (1, 1), (2, 1)),
              ((2, 3), (3, 1), (0, 1), (1, 2)), ((1, 1), (2, 2), (0, 0), (1, 1))]


@pytest.mark.parametrize("k,s,p,d", GEOMETRIES)
@pytest.mark.parametrize("ceil_mode", [False, True])
def test_max_pool2d_options(k, s, p, d, ceil_mode):
    x = rand(2, 3, 7, 6)
    x[1, 2, 6, 5] = 9.0  # the bottom-right corner: only a ceil-mode window can see it for stride 2, 3
    got = kd.nn.max_pool2d(kd.asarray(x), k, s, p, d, ceil_mode)
    close(got, ref.max_pool2d(x, k, s or k, p, d, ceil_mode))


@pytest.mark.parametrize("k,s,p", [((2, 2), None, (0, 0)), ((3, 3), (2, 2), (1, 1)), ((3, 2), (2, 3), (1, 1)),
                                   ((2, 3), (3, 2), (0, 1))])
@pytest.mark.parametrize("ceil_mode,include", list(itertools.product([False, True], [True, False])))
def test_avg_pool2d_options(k, s, p, ceil_mode, include):
    x = rand(2, 2, 7, 6)
    got = kd.nn.avg_pool2d(kd.asarray(x), k, s, p, ceil_mode, include)
    close(got, ref.avg_pool2d(x, k, s or k, p, ceil_mode, include))
    close(kd.nn.avg_pool2d(kd.asarray(x), k, s, p, ceil_mode, include, divisor_override=5),
          ref.avg_pool2d(x, k, s or k, p, ceil_mode, include, divisor_override=5))


def test_ceil_mode_values_printed_by_pytorch():
    # F.avg_pool2d(torch.ones(1, 1, 6, 6), 3, 2, 1, ceil_mode=True) printed [[.4444, .6667, .6667, .3333],
    # [.6667, 1, 1, .5], [.6667, 1, 1, .5], [.3333, .5, .5, .25]]: the last window is clipped to the padding
    # (2 wide) and holds one real pixel
    edge = np.array([2 / 3, 1.0, 1.0, 0.5])
    close(kd.nn.avg_pool2d(kd.ones((1, 1, 6, 6)), 3, 2, 1, ceil_mode=True)[0, 0], np.outer(edge, edge))
    # F.max_pool2d(torch.arange(4.).reshape(1, 1, 2, 2), 3, 2, ceil_mode=True) == [[[[3.]]]]
    x = kd.arange(4.0).reshape(1, 1, 2, 2)
    assert kd.nn.max_pool2d(x, 3, 2, ceil_mode=True).numpy().tolist() == [[[[3.0]]]]
    with pytest.raises(ValueError, match="output would be empty"):  # floor mode: "Output size is too small"
        kd.nn.max_pool2d(x, 3)
    # 5 wide, kernel 2, stride 2: ceil mode adds a third window starting at 4, inside the input
    assert kd.nn.max_pool2d(kd.ones((1, 1, 5, 5)), 2, ceil_mode=True).shape == (1, 1, 3, 3)
    # 5 wide, kernel 3, stride 2, padding 1: a fourth window would start at 6 - 1 = 5, in the right padding: none
    assert kd.nn.avg_pool2d(kd.ones((1, 1, 5, 5)), 3, 2, 1, ceil_mode=True).shape == (1, 1, 3, 3)


def test_unbatched_int_and_nan_in_ceil_mode():
    xi = np.arange(-20, 15, dtype=np.int32).reshape(1, 5, 7)
    np.testing.assert_array_equal(kd.nn.max_pool2d(kd.asarray(xi), 2, ceil_mode=True).numpy(),
                                  ref.max_pool2d(xi[None].astype(np.float64), (2, 2), (2, 2), (0, 0),
                                                 ceil_mode=True)[0].astype(np.int32))
    x = rand(1, 1, 5, 5)
    x[0, 0, 4, 4] = np.nan
    got = kd.nn.max_pool2d(kd.asarray(x), 2, ceil_mode=True).numpy()
    assert np.isnan(got[0, 0, 2, 2]) and not np.isnan(got[0, 0, :2, :2]).any()


@pytest.mark.parametrize("ceil_mode", [False, True])
def test_pool1d(ceil_mode):
    x = rand(2, 3, 9)
    x4 = x[:, :, None, :]
    for k, s, p, d in ((2, None, 0, 1), (3, 2, 1, 1), (2, 3, 1, 2), ((3,), (2,), (1,), (1,))):
        kk, ss, pp, dd = (v[0] if isinstance(v, tuple) else v for v in (k, s, p, d))
        want = ref.max_pool2d(x4, (1, kk), (1, ss or kk), (0, pp), (1, dd), ceil_mode)[:, :, 0]
        close(kd.nn.max_pool1d(kd.asarray(x), k, s, p, d, ceil_mode), want)
        if dd == 1:
            for include in (True, False):
                want = ref.avg_pool2d(x4, (1, kk), (1, ss or kk), (0, pp), ceil_mode, include)[:, :, 0]
                close(kd.nn.avg_pool1d(kd.asarray(x), k, s, p, ceil_mode, include), want)
    close(kd.nn.max_pool1d(kd.asarray(x[0]), 2), x[0, :, :8].reshape(3, 4, 2).max(axis=2))  # unbatched


def test_pool1d_errors():
    with pytest.raises(ValueError, match=r"\(N, C, L\)"):
        kd.nn.max_pool1d(kd.ones((1, 1, 4, 4)), 2)
    with pytest.raises(TypeError, match="1-tuple"):
        kd.nn.avg_pool1d(kd.ones((1, 1, 4)), (2, 2))
    with pytest.raises(ValueError, match="at most half"):
        kd.nn.max_pool1d(kd.ones((1, 1, 8)), 2, padding=2)


@pytest.mark.parametrize("shape,size", [((2, 3, 7, 5), (3, 2)), ((1, 2, 4, 4), 1), ((2, 1, 5, 9), (None, 4)),
                                        ((3, 3, 3), (5, 7)), ((1, 1, 6, 6), 6)])
def test_adaptive_avg_pool2d(shape, size):
    x = rand(*shape)
    sizes = (size, size) if isinstance(size, int) else tuple(n if s is None else s
                                                                 for s, n in zip(size, shape[-2:], strict=True))
    close(kd.nn.adaptive_avg_pool2d(kd.asarray(x), size), ref.adaptive_avg_pool(x, sizes))


def test_adaptive_avg_pool1d_float64_and_errors():
    x = RNG.standard_normal((2, 3, 10))
    got = kd.nn.adaptive_avg_pool1d(kd.asarray(x), 4)
    assert got.dtype == kd.float64
    np.testing.assert_allclose(got.numpy(), ref.adaptive_avg_pool(x, (4,)), rtol=1e-12)
    with pytest.raises(ValueError, match=">= 1"):
        kd.nn.adaptive_avg_pool2d(kd.ones((1, 1, 4, 4)), 0)
    with pytest.raises(TypeError, match="floating"):
        kd.nn.adaptive_avg_pool1d(kd.ones((1, 4), dtype=kd.int32), 2)
    with pytest.raises(ValueError, match=r"\(N, C, H, W\)"):
        kd.nn.adaptive_avg_pool2d(kd.ones(4), 2)
