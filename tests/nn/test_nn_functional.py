"""kd.nn against the NumPy references of tests/nn/reference.py: several shapes and dtypes, size-1 and empty
axes, non-contiguous inputs, NaN/inf, and the errors bad input gets."""

import math

import nn_reference as ref
import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(0)


def rand(*shape, dtype=np.float32, scale=1.0):
    return (RNG.standard_normal(shape) * scale).astype(dtype)


def close(got, want, dtype=np.float32, **kw):
    tol = {np.float32: 1e-5, np.float64: 1e-6, np.float16: 2e-3}[dtype]
    np.testing.assert_allclose(got.numpy() if isinstance(got, kd.Array) else got, want, rtol=kw.get("rtol", tol),
                               atol=kw.get("atol", tol))


# ----- activations
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_erf_matches_math_erf(dtype):
    x = np.concatenate([np.linspace(-6, 6, 97), [0.0, -0.0, 1e-8, -1e-8, 30.0, -30.0]]).astype(dtype)
    close(kd.nn.erf(kd.asarray(x)), ref.erf(x), dtype, rtol=3e-7, atol=3e-7)


def test_erf_keeps_nan_and_infinities():
    got = kd.nn.erf(kd.asarray(np.array([np.nan, np.inf, -np.inf], np.float32))).numpy()
    assert np.isnan(got[0]) and got[1] == 1.0 and got[2] == -1.0


@pytest.mark.parametrize("approximate", ["none", "tanh"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_gelu(approximate, dtype):
    x = rand(3, 7, dtype=dtype, scale=3)
    close(kd.nn.gelu(kd.asarray(x), approximate=approximate), ref.gelu(x, approximate), dtype)


def test_gelu_rejects_an_unknown_approximation():
    with pytest.raises(ValueError, match="'none' or 'tanh'"):
        kd.nn.gelu(kd.ones(2), approximate="fast")


def test_relu_silu_leaky_relu_with_nan_and_inf():
    x = np.array([-2.0, -0.0, 0.0, 1.5, np.inf, -np.inf, np.nan], np.float32)
    got = kd.nn.relu(kd.asarray(x)).numpy()
    np.testing.assert_array_equal(got, ref.relu(x))
    close(kd.nn.silu(kd.asarray(x[:4])), ref.silu(x[:4]))
    close(kd.nn.leaky_relu(kd.asarray(x[:4]), 0.2), np.where(x[:4] > 0, x[:4], 0.2 * x[:4]))


@pytest.mark.parametrize("shape,axis", [((5,), 0), ((3, 4), -1), ((3, 4), 0), ((2, 1, 6), 1), ((2, 3, 5), 2)])
def test_softmax_and_log_softmax(shape, axis):
    x = rand(*shape, scale=4)
    close(kd.nn.softmax(kd.asarray(x), axis=axis), ref.softmax(x, axis))
    close(kd.nn.log_softmax(kd.asarray(x), axis=axis), ref.log_softmax(x, axis), atol=1e-5)


def test_softmax_of_huge_logits_and_a_non_contiguous_view():
    x = rand(4, 6, scale=1000)
    close(kd.nn.softmax(kd.asarray(x).T, axis=0), ref.softmax(x.T, 0))
    lsm = kd.nn.log_softmax(kd.asarray(np.array([[1e4, 0.0]], np.float32))).numpy()
    assert np.isfinite(lsm).all()


def test_softmax_bad_axis():
    with pytest.raises(ValueError, match="out of bounds"):
        kd.nn.softmax(kd.ones((2, 3)), axis=2)


# ----- linear, embedding
@pytest.mark.parametrize("xshape", [(5,), (4, 5), (2, 3, 5), (1, 1, 5)])
def test_linear(xshape):
    x, w, b = rand(*xshape), rand(3, 5), rand(3)
    close(kd.nn.linear(kd.asarray(x), kd.asarray(w), kd.asarray(b)), x @ w.T + b)
    close(kd.nn.linear(kd.asarray(x), kd.asarray(w)), x @ w.T)


def test_linear_shape_errors():
    with pytest.raises(ValueError, match="in_features"):
        kd.nn.linear(kd.ones((2, 4)), kd.ones((3, 5)))
    with pytest.raises(ValueError, match="2-d"):
        kd.nn.linear(kd.ones((2, 4)), kd.ones(4))


def test_embedding():
    w = rand(10, 4)
    ids = np.array([[0, 9, 3], [3, 3, 1]], np.int32)
    close(kd.nn.embedding(kd.asarray(ids), kd.asarray(w)), w[ids])
    with pytest.raises(TypeError, match="integers"):
        kd.nn.embedding(kd.asarray([1.0]), kd.asarray(w))


# ----- normalisation
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,n", [((4, 6), 1), ((2, 3, 5), 2), ((1, 7), 1)])
def test_layer_norm(shape, n, dtype):
    x = rand(*shape, dtype=dtype) * 3 + 1
    w, b = rand(*shape[-n:], dtype=dtype), rand(*shape[-n:], dtype=dtype)
    close(kd.nn.layer_norm(kd.asarray(x), shape[-n:], kd.asarray(w), kd.asarray(b)), ref.layer_norm(x, n, w, b),
          dtype, atol=1e-5)
    close(kd.nn.layer_norm(kd.asarray(x), shape[-n:], eps=1e-3), ref.layer_norm(x, n, eps=1e-3), dtype, atol=1e-5)


def test_rms_norm():
    x, w = rand(3, 8), rand(8)
    close(kd.nn.rms_norm(kd.asarray(x), 8, kd.asarray(w)), ref.rms_norm(x, 1, w))
    close(kd.nn.rms_norm(kd.asarray(x), (8,), eps=0.5), ref.rms_norm(x, 1, eps=0.5))


def test_norm_shape_errors():
    with pytest.raises(ValueError, match="trailing axes"):
        kd.nn.layer_norm(kd.ones((2, 3)), (2,))
    with pytest.raises(ValueError, match="trailing axes"):
        kd.nn.rms_norm(kd.ones((2, 3)), (1, 2, 3))


# ----- dropout
def test_dropout_is_keyed_scaled_and_off_in_eval():
    x = kd.ones((64, 64))
    a, b = kd.nn.dropout(x, 0.25, key=5).numpy(), kd.nn.dropout(x, 0.25, key=5).numpy()
    np.testing.assert_array_equal(a, b)
    assert set(np.unique(a).tolist()) == {0.0, np.float32(1 / 0.75)}
    assert abs((a == 0).mean() - 0.25) < 0.03
    assert not np.array_equal(a, kd.nn.dropout(x, 0.25, key=6).numpy())
    rng = kd.random.default_rng(1)
    assert not np.array_equal(kd.nn.dropout(x, 0.5, key=rng).numpy(), kd.nn.dropout(x, 0.5, key=rng).numpy())
    assert kd.nn.dropout(x, 0.5, training=False) is x
    assert float(kd.nn.dropout(x, 1.0).sum()) == 0.0


def test_dropout_bad_arguments():
    with pytest.raises(ValueError, match="between 0 and 1"):
        kd.nn.dropout(kd.ones(2), 1.5)
    with pytest.raises(TypeError, match="int seed"):
        kd.nn.dropout(kd.ones(2), 0.5, key="seed")


# ----- losses
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("smoothing", [0.0, 0.1])
def test_cross_entropy(reduction, smoothing):
    x, t = rand(6, 5, scale=3), RNG.integers(0, 5, 6).astype(np.int32)
    close(kd.nn.cross_entropy(kd.asarray(x), kd.asarray(t), reduction=reduction, label_smoothing=smoothing),
          ref.cross_entropy(x, t, reduction=reduction, label_smoothing=smoothing), atol=1e-5)


def test_cross_entropy_spatial_and_ignore_index():
    x, t = rand(2, 4, 3, 3), RNG.integers(0, 4, (2, 3, 3)).astype(np.int64)
    t[0, 0, 0] = t[1, 2, 1] = -100
    close(kd.nn.cross_entropy(kd.asarray(x), kd.asarray(t)), ref.cross_entropy(x, t), atol=1e-5)
    close(kd.nn.cross_entropy(kd.asarray(x), kd.asarray(t), reduction="none"),
          ref.cross_entropy(x, t, reduction="none"), atol=1e-5)
    u = np.array([2, 7, 7], np.int32)  # a custom ignore_index
    y = rand(3, 3)
    close(kd.nn.cross_entropy(kd.asarray(y), kd.asarray(u), ignore_index=7), ref.cross_entropy(y, u, 7), atol=1e-5)


def test_nll_loss_of_log_probs():
    x, t = rand(4, 3), np.array([0, 2, 1, 1], np.int32)
    logp = ref.log_softmax(x, axis=1)
    close(kd.nn.nll_loss(kd.asarray(logp), kd.asarray(t)), -logp[np.arange(4), t].mean())


def test_cross_entropy_errors():
    with pytest.raises(ValueError, match="target of shape"):
        kd.nn.cross_entropy(kd.ones((4, 3)), kd.asarray([0, 1]))
    with pytest.raises(TypeError, match="integer class indices"):
        kd.nn.cross_entropy(kd.ones((2, 3)), kd.ones(2))
    with pytest.raises(ValueError, match="reduction"):
        kd.nn.cross_entropy(kd.ones((2, 3)), kd.asarray([0, 1]), reduction="avg")


def test_binary_cross_entropy_and_with_logits():
    p = np.array([0.0, 0.2, 0.5, 0.9, 1.0], np.float32)
    t = np.array([0.0, 1.0, 0.5, 1.0, 0.0], np.float32)
    close(kd.nn.binary_cross_entropy(kd.asarray(p), kd.asarray(t), reduction="none"), ref.binary_cross_entropy(p, t))
    close(kd.nn.binary_cross_entropy(kd.asarray(p), kd.asarray(t)), ref.binary_cross_entropy(p, t).mean())
    x = np.array([-30.0, -2.0, 0.0, 3.0, 40.0], np.float32)
    close(kd.nn.binary_cross_entropy_with_logits(kd.asarray(x), kd.asarray(t), reduction="sum"),
          ref.bce_with_logits(x, t).sum(), atol=1e-4)
    pw = np.array([1.0, 2.0, 3.0, 0.5, 1.0], np.float32)
    close(kd.nn.binary_cross_entropy_with_logits(kd.asarray(x), kd.asarray(t), "none", kd.asarray(pw)),
          ref.bce_with_logits(x, t, pw), atol=1e-4)
    with pytest.raises(ValueError, match="target shape"):
        kd.nn.binary_cross_entropy(kd.ones(3), kd.ones(2))


def test_mse_loss():
    a, b = rand(3, 4), rand(3, 4)
    close(kd.nn.mse_loss(kd.asarray(a), kd.asarray(b)), ((a - b) ** 2).mean())
    close(kd.nn.mse_loss(kd.asarray(a), kd.asarray(b), "sum"), ((a - b) ** 2).sum(), atol=1e-4)
    close(kd.nn.mse_loss(kd.asarray(a), kd.asarray(b), "none"), (a - b) ** 2)


# ----- attention
@pytest.mark.parametrize("causal", [False, True])
def test_attention(causal):
    q, k, v = rand(2, 3, 5, 4), rand(2, 3, 6, 4), rand(2, 3, 6, 7)
    close(kd.nn.scaled_dot_product_attention(kd.asarray(q), kd.asarray(k), kd.asarray(v), is_causal=causal),
          ref.sdpa(q, k, v, causal=causal))


def test_attention_masks_and_scale():
    q, k, v = rand(2, 4, 8), rand(2, 5, 8), rand(2, 5, 3)
    mask = RNG.random((2, 4, 5)) > 0.3
    mask[:, :, 0] = True  # no fully masked row (that is NaN in both)
    close(kd.nn.scaled_dot_product_attention(kd.asarray(q), kd.asarray(k), kd.asarray(v), kd.asarray(mask)),
          ref.sdpa(q, k, v, mask))
    add = rand(4, 5)
    close(kd.nn.scaled_dot_product_attention(kd.asarray(q), kd.asarray(k), kd.asarray(v), kd.asarray(add),
                                             scale=0.5), ref.sdpa(q, k, v, add, scale=0.5))
    with pytest.raises(ValueError, match="not both"):
        kd.nn.scaled_dot_product_attention(kd.asarray(q), kd.asarray(k), kd.asarray(v), kd.asarray(mask),
                                           is_causal=True)
    with pytest.raises(ValueError, match="query"):
        kd.nn.scaled_dot_product_attention(kd.asarray(q), kd.asarray(k[..., :3]), kd.asarray(v))


# ----- convolution and pooling
CONV_CASES = [  # (N, C, H, W), (Cout, kh, kw), stride, padding (t, b, l, r), dilation, groups
    ((2, 3, 7, 6), (4, 3, 3), (1, 1), (0, 0, 0, 0), (1, 1), 1),
    ((1, 4, 8, 8), (6, 3, 2), (2, 1), (1, 1, 0, 0), (1, 2), 2),
    ((2, 2, 5, 5), (2, 1, 1), (1, 1), (0, 0, 0, 0), (1, 1), 1),
    ((1, 4, 6, 7), (4, 3, 3), (2, 2), (1, 1, 1, 1), (1, 1), 4),  # depthwise
    ((1, 1, 1, 1), (1, 1, 1), (1, 1), (0, 0, 0, 0), (1, 1), 1),
]


@pytest.mark.parametrize("xs,ws,stride,pad,dil,groups", CONV_CASES)
def test_conv2d(xs, ws, stride, pad, dil, groups):
    x = rand(*xs)
    w = rand(ws[0], xs[1] // groups, ws[1], ws[2])
    b = rand(ws[0])
    got = kd.nn.conv2d(kd.asarray(x), kd.asarray(w), kd.asarray(b), stride, (pad[0], pad[2]), dil, groups)
    close(got, ref.conv2d(x, w, b, stride, pad, dil, groups), atol=1e-4)


def test_conv2d_same_valid_unbatched_and_non_contiguous():
    x, w = rand(2, 5, 6), rand(3, 2, 4, 3)
    xt = np.ascontiguousarray(np.swapaxes(x, 1, 2))
    close(kd.nn.conv2d(kd.asarray(x).swapaxes(1, 2), kd.asarray(w), padding="same"),
          ref.conv2d(xt[None], w, padding=(1, 2, 1, 1))[0], atol=1e-4)
    close(kd.nn.conv2d(kd.asarray(xt), kd.asarray(w), padding="valid"), ref.conv2d(xt[None], w)[0], atol=1e-4)


def test_conv2d_float64():
    x, w = rand(1, 2, 5, 5, dtype=np.float64), rand(3, 2, 2, 2, dtype=np.float64)
    close(kd.nn.conv2d(kd.asarray(x), kd.asarray(w), stride=2, padding=1), ref.conv2d(x, w, None, (2, 2),
          (1, 1, 1, 1)), np.float64)


def test_conv1d():
    x, w, b = rand(2, 4, 9), rand(6, 2, 3), rand(6)
    got = kd.nn.conv1d(kd.asarray(x), kd.asarray(w), kd.asarray(b), stride=2, padding=1, dilation=2, groups=2)
    want = ref.conv2d(x[:, :, None], w[:, :, None], b, (1, 2), (0, 0, 1, 1), (1, 2), 2)[:, :, 0]
    close(got, want, atol=1e-4)
    close(kd.nn.conv1d(kd.asarray(x[0]), kd.asarray(w[:, :, :1].repeat(2, 1)[:, :4]), padding="same"),
          ref.conv2d(x[:1, :, None], w[:, :, None, :1].repeat(2, 1)[:, :4])[0, :, 0], atol=1e-4)


def test_conv_errors():
    with pytest.raises(ValueError, match="groups"):
        kd.nn.conv2d(kd.ones((1, 3, 4, 4)), kd.ones((2, 3, 1, 1)), groups=2)
    with pytest.raises(ValueError, match="larger than the padded input"):
        kd.nn.conv2d(kd.ones((1, 1, 2, 2)), kd.ones((1, 1, 3, 3)))
    with pytest.raises(ValueError, match="strided"):
        kd.nn.conv2d(kd.ones((1, 1, 4, 4)), kd.ones((1, 1, 3, 3)), stride=2, padding="same")
    with pytest.raises(TypeError, match="pair of ints"):
        kd.nn.conv2d(kd.ones((1, 1, 4, 4)), kd.ones((1, 1, 3, 3)), stride=(1, 2, 3))
    with pytest.raises(ValueError, match=r"\(N, C, H, W\)"):
        kd.nn.conv2d(kd.ones((4, 4)), kd.ones((1, 1, 3, 3)))


@pytest.mark.parametrize("k,s,p,d", [((2, 2), (2, 2), (0, 0), (1, 1)), ((3, 3), (1, 2), (1, 1), (1, 1)),
                                     ((3, 2), (2, 1), (1, 0), (2, 1))])
def test_max_pool2d(k, s, p, d):
    x = rand(2, 3, 7, 6)
    x[0, 0, 1, 1] = np.inf
    want = ref.pool2d(x, k, s, p, lambda w: w.max(axis=(2, 3)), -np.inf, d)
    close(kd.nn.max_pool2d(kd.asarray(x), k, s, p, d), want)


def test_max_pool2d_nan_and_int():
    x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    x[0, 0, 0, 0] = np.nan
    got = kd.nn.max_pool2d(kd.asarray(x), 2).numpy()
    assert np.isnan(got[0, 0, 0, 0]) and got[0, 0, 1, 1] == 15
    xi = np.arange(-8, 8, dtype=np.int32).reshape(1, 4, 4)
    np.testing.assert_array_equal(kd.nn.max_pool2d(kd.asarray(xi), 3, 1, 1).numpy(),
                                  ref.pool2d(xi[None], (3, 3), (1, 1), (1, 1), lambda w: w.max(axis=(2, 3)),
                                             -2 ** 31)[0])


@pytest.mark.parametrize("include", [True, False])
def test_avg_pool2d(include):
    x = rand(2, 2, 5, 6)
    k, s, p = (3, 2), (2, 2), (1, 1)
    want = (ref.pool2d(x, k, s, p, lambda w: w.mean(axis=(2, 3)), 0.0) if include
            else ref.avg_pool2d_exclude_pad(x, k, s, p))
    close(kd.nn.avg_pool2d(kd.asarray(x), k, s, p, count_include_pad=include), want)
    close(kd.nn.avg_pool2d(kd.asarray(x), 2, divisor_override=3),
          ref.pool2d(x, (2, 2), (2, 2), (0, 0), lambda w: w.sum(axis=(2, 3)), 0.0) / 3)


def test_pool_errors():
    with pytest.raises(ValueError, match="at most half"):
        kd.nn.max_pool2d(kd.ones((1, 1, 4, 4)), 2, padding=2)
    with pytest.raises(TypeError, match="floating"):
        kd.nn.avg_pool2d(kd.ones((1, 1, 4, 4), dtype=kd.int32), 2)
    with pytest.raises(ValueError, match="4-d|\\(N, C, H, W\\)"):
        kd.nn.max_pool2d(kd.ones(4), 2)


def test_unfold_matches_the_windows():
    x = rand(1, 2, 4, 5)
    got = kd.nn.unfold(kd.asarray(x), (2, 3), padding=1, stride=(2, 1)).numpy()
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    cols = [xp[0, :, i:i + 2, j:j + 3].reshape(-1) for i in range(0, 5, 2) for j in range(0, 5)]
    np.testing.assert_array_equal(got[0], np.stack(cols, axis=1))
    assert math.prod(got.shape) == 2 * 6 * 15


def test_sigmoid_and_tanh():
    x = rand(5, scale=4)
    close(kd.nn.sigmoid(kd.asarray(x)), 1 / (1 + np.exp(-x)))
    close(kd.nn.tanh(kd.asarray(x)), np.tanh(x))


@pytest.mark.skipif("float16" not in kd.device().features, reason="the device has no float16 arithmetic")
def test_float16_inputs():
    x, w = rand(4, 8, dtype=np.float16), rand(3, 8, dtype=np.float16)
    x32, w32 = x.astype(np.float32), w.astype(np.float32)
    for got, want in ((kd.nn.gelu(kd.asarray(x)), ref.gelu(x32)), (kd.nn.softmax(kd.asarray(x)), ref.softmax(x32)),
                      (kd.nn.layer_norm(kd.asarray(x), 8), ref.layer_norm(x32, 1)),
                      (kd.nn.linear(kd.asarray(x), kd.asarray(w)), x32 @ w32.T)):
        assert got.dtype == kd.float16
        np.testing.assert_allclose(got.numpy().astype(np.float32), want, rtol=1e-2, atol=1e-2)


def test_empty_batches():
    x = kd.zeros((0, 4))
    assert kd.nn.relu(x).shape == (0, 4)
    assert kd.nn.softmax(x, axis=-1).shape == (0, 4)
    assert kd.nn.linear(x, kd.ones((3, 4))).shape == (0, 3)
    assert kd.nn.layer_norm(x, 4).shape == (0, 4)
    assert float(kd.nn.mse_loss(x, x, reduction="sum")) == 0.0
