"""kdsl's own APIs (autodiff, kd.jit, kd.nn, kd.optim, custom kernels) given bad input as users give it: no
NumPy oracle here, so each case asserts a clear TypeError/ValueError whose message names the argument and the
fix, never an internal error or a broadcast error from deep inside."""

import math

import numpy as np
import pytest

import kdsl as kd
from kdsl import nn, optim
from kdsl.frontend.kernels.raw import raw_kernel

X = kd.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
XI = kd.asarray(np.arange(6, dtype=np.int32).reshape(2, 3))
IMG, W4 = kd.ones((1, 4, 5, 5)), kd.ones((2, 4, 3, 3))
Q = kd.ones((1, 2, 4, 8))
SHADER = """#version 450
layout(local_size_x = 1) in;
layout(binding = 0) buffer Y { float y[]; };
void main() { y[0] = BODY; }"""


@kd.kernel
def _fill(x: kd.f32[:], v: kd.f32):
    x[kd.global_id(0)] = v


def _sq(a):
    return (a * a).sum()


def _update(opt, grads, params):
    return opt.update(grads, opt.init(params), params)


CASES = [
    ("grad-non-scalar", lambda: kd.grad(lambda a: a * 2)(X), ValueError, r"scalar.*\.sum\(\)"),
    ("grad-int-input", lambda: kd.grad(_sq)(XI), TypeError, r"int32.*astype\(kd\.float32\)"),
    ("grad-argnums-out-of-range", lambda: kd.grad(_sq, argnums=3)(X), ValueError, "argnums 3 is out of range"),
    ("grad-argnums-float", lambda: kd.grad(_sq, argnums=1.0)(X), TypeError, "argnums must be an int or a tuple"),
    ("grad-argnums-bool", lambda: kd.grad(_sq, argnums=True)(X), TypeError, "argnums must be an int or a tuple"),
    ("grad-argnums-tuple-of-str", lambda: kd.grad(_sq, argnums=("a",))(X), TypeError, "argnums must be an int"),
    ("grad-str-leaf", lambda: kd.grad(lambda t: _sq(t[0]))((X, "s")), TypeError, "is a str.*kd.asarray"),
    ("grad-returns-None", lambda: kd.grad(lambda a: None)(X), TypeError, "one scalar Array, got NoneType"),
    ("grad-returns-float", lambda: kd.grad(lambda a: 1.0)(X), TypeError, "must return kdsl Arrays"),
    ("grad-has_aux-not-a-pair", lambda: kd.grad(_sq, has_aux=True)(X), ValueError, r"pair \(output, aux\)"),
    ("vjp-cotangent-shape", lambda: kd.vjp(lambda a: a * 2, X)[1](kd.ones(3)), ValueError,
     r"cotangent has shape \(3,\) but its output has shape \(2, 3\)"),
    ("jvp-tangent-shape", lambda: kd.jvp(lambda a: a * 2, (X,), (kd.ones(3),)), ValueError, "shapes of its primal"),
    ("jvp-tangent-count", lambda: kd.jvp(lambda a: a * 2, (X,), (X, X)), ValueError, "1 primals but 2 tangents"),
    ("jvp-primals-not-a-tuple", lambda: kd.jvp(lambda a: a * 2, X, X), TypeError, r"kd.jvp\(f, \(x,\), \(t,\)\)"),
    ("jit-returns-str", lambda: kd.jit(lambda a: "s")(X), TypeError, "must return an Array.*returned str"),
    ("jit-returns-None", lambda: kd.jit(lambda a: None)(X), TypeError, "missing `return`"),
    ("grad-not-a-function", lambda: kd.grad(3), TypeError, "f must be a function, got int"),
    ("vjp-not-a-function", lambda: kd.vjp(3, X), TypeError, "f must be a function, got int"),
    ("jvp-not-a-function", lambda: kd.jvp(3, (X,), (X,)), TypeError, "f must be a function, got int"),
    ("jit-not-a-function", lambda: kd.jit(3), TypeError, "needs a function, got int"),
    ("vjp-cotangent-structure", lambda: kd.vjp(lambda a: (a, a), X)[1]((X,)), ValueError,
     r"structure of f's output \(2 arrays\)"),
    ("value_and_grad-non-scalar", lambda: kd.value_and_grad(lambda a: a)(X), ValueError, "scalar"),
    ("grad-complex-output", lambda: kd.grad(lambda a: (a * 1j).sum())(X), TypeError, "float output"),
    ("conv2d-weight-rank", lambda: nn.conv2d(IMG, kd.ones((2, 4, 3))), ValueError, r"weight \(C_out, C_in/groups"),
    ("conv2d-groups", lambda: nn.conv2d(IMG, W4, groups=3), ValueError, "groups=3 must divide C_in"),
    ("conv2d-in-channels", lambda: nn.conv2d(IMG, kd.ones((2, 3, 3, 3))), ValueError, "must be C_in / groups"),
    ("conv2d-negative-padding", lambda: nn.conv2d(IMG, W4, padding=-1), ValueError, "padding must be >= 0"),
    ("conv2d-stride-0", lambda: nn.conv2d(IMG, W4, stride=0), ValueError, "stride must be >= 1"),
    ("conv2d-kernel-too-big", lambda: nn.conv2d(IMG, kd.ones((2, 4, 7, 7))), ValueError, "larger than the padded"),
    ("conv2d-bias-shape", lambda: nn.conv2d(IMG, W4, bias=kd.ones(3)), ValueError, r"bias must have shape \(C_out,\)"),
    ("conv1d-bias-shape", lambda: nn.conv1d(kd.ones((1, 4, 5)), kd.ones((2, 4, 3)), bias=kd.ones((2, 1))),
     ValueError, r"bias must have shape \(C_out,\) = \(2,\)"),
    ("linear-in-features", lambda: nn.linear(kd.ones((2, 3)), kd.ones((4, 5))), ValueError, "in_features"),
    ("linear-bias-shape", lambda: nn.linear(kd.ones((2, 3)), kd.ones((4, 3)), kd.ones(5)), ValueError,
     r"bias must have shape \(out_features,\) = \(4,\)"),
    ("cross_entropy-float-labels", lambda: nn.cross_entropy(kd.ones((3, 4)), kd.asarray([0.0, 1.0, 2.0])),
     TypeError, "integer class indices"),
    ("cross_entropy-batch", lambda: nn.cross_entropy(kd.ones((3, 4)), kd.asarray([0, 1])), ValueError,
     r"needs a target of shape \(3,\)"),
    ("cross_entropy-reduction", lambda: nn.cross_entropy(kd.ones((3, 4)), kd.asarray([0, 1, 2]), reduction="x"),
     ValueError, "reduction must be one of"),
    ("embedding-float-indices", lambda: nn.embedding(kd.asarray([0.0]), kd.ones((5, 3))), TypeError, "integers"),
    ("embedding-1d-weight", lambda: nn.embedding(kd.asarray([0]), kd.ones(5)), ValueError, "weight must be 2-d"),
    ("attention-heads", lambda: nn.scaled_dot_product_attention(Q, kd.ones((1, 3, 4, 8)), kd.ones((1, 3, 4, 8))),
     ValueError, r"batch and head axes of query \(1, 2\), key \(1, 3\)"),
    ("attention-head-dim", lambda: nn.scaled_dot_product_attention(Q, kd.ones((1, 2, 4, 6)), Q), ValueError,
     r"key \(\.\.\., S, E\)"),
    ("attention-mask-shape", lambda: nn.scaled_dot_product_attention(Q, Q, Q, attn_mask=kd.ones((3, 3), dtype=bool)),
     ValueError, r"attn_mask of shape \(3, 3\) must broadcast to .* \(1, 2, 4, 4\)"),
    ("attention-dropout", lambda: nn.scaled_dot_product_attention(Q, Q, Q, dropout_p=1.5), ValueError, "dropout"),
    ("max_pool-kernel-0", lambda: nn.max_pool2d(IMG, 0), ValueError, "kernel_size must be >= 1"),
    ("layer_norm-shape", lambda: nn.layer_norm(X, (4,)), ValueError, "normalized_shape"),
    ("log_softmax-str-axis", lambda: nn.log_softmax(X, axis="x"), TypeError, "axis must be an int"),
    ("layer_norm-weight-shape", lambda: nn.layer_norm(X, (3,), weight=kd.ones(2)), ValueError,
     r"weight must have the normalized_shape \(3,\)"),
    ("layer_norm-bias-shape", lambda: nn.layer_norm(X, (3,), bias=kd.ones((2, 3))), ValueError,
     r"bias must have the normalized_shape"),
    ("rms_norm-weight-shape", lambda: nn.rms_norm(X, 3, weight=kd.ones(4)), ValueError, "normalized_shape"),
    ("cross_entropy-0d-input", lambda: nn.cross_entropy(kd.asarray(1.0), kd.asarray(0)), ValueError, "class axis"),
    ("cross_entropy-weight-shape", lambda: nn.cross_entropy(kd.ones((3, 4)), kd.asarray([0, 1, 2]), weight=kd.ones(3)),
     ValueError, r"one entry per class \(4\)"),
    ("cross_entropy-label_smoothing", lambda: nn.cross_entropy(kd.ones((3, 4)), kd.asarray([0, 1, 2]),
                                                               label_smoothing=1.5), ValueError, "label_smoothing"),
    ("dropout-str-key", lambda: nn.dropout(X, 0.5, True, "x"), TypeError, "key must be an int seed"),
    ("gelu-approximate", lambda: nn.gelu(X, approximate="x"), ValueError, "approximate must be"),
    ("avg_pool-padding", lambda: nn.avg_pool2d(kd.ones((1, 1, 4, 4)), 2, padding=2), ValueError, "half"),
    ("adaptive_avg_pool-0", lambda: nn.adaptive_avg_pool2d(kd.ones((1, 1, 4, 4)), 0), ValueError, ">= 1"),
    ("sgd-state-not-from-init", lambda: optim.sgd(0.1).update({"a": X}, {}, {"a": X}), ValueError,
     r"state must be what sgd.init\(params\) returned"),
    ("adam-state-not-from-init", lambda: optim.adam(0.1).update({"a": X}, {"step": 0}, {"a": X}), ValueError,
     r"state must be what adam.init\(params\) returned"),
    ("adam-negative-eps", lambda: optim.adam(eps=-1.0), ValueError, "must be >= 0"),
    ("sgd-negative-lr", lambda: optim.sgd(lr=-1.0), ValueError, "learning rate must be a float >= 0"),
    ("adam-negative-lr", lambda: optim.adam(lr=-1.0), ValueError, "learning rate must be a float >= 0"),
    ("adam-betas", lambda: optim.adam(betas=(1.5, 0.9)), ValueError, r"betas must be two floats in \[0, 1\)"),
    ("sgd-grads-tree", lambda: _update(optim.sgd(0.1), {"a": X}, {"a": X, "b": X}), ValueError, "differ in structure"),
    ("adam-grads-shape", lambda: _update(optim.adam(0.1), {"a": kd.ones(3)}, {"a": X}), ValueError,
     "grads must mirror params"),
    ("raw_kernel-glsl-syntax", lambda: raw_kernel(SHADER.replace("BODY", "1.0 +* 2"))(np.zeros(1, np.float32),
                                                                                       grid=1),
     kd.ShaderCompileError, r"syntax error(.|\n)*>> +4 \| void main"),
    ("raw_kernel-argument-count", lambda: raw_kernel(SHADER.replace("BODY", "1.0"))(*[np.zeros(1, np.float32)] * 2,
                                                                                   grid=1),
     TypeError, r"takes 1 array\(s\)"),
    ("raw_kernel-dtype", lambda: raw_kernel(SHADER.replace("BODY", "1.0"))(np.zeros(1, np.int32), grid=1),
     TypeError, "holds float32 but the array is int32"),
    ("elementwise-syntax", lambda: kd.elementwise("T x", "T z", "z = x +* 2", "f", xp=np), kd.KdslSyntaxError,
     r"unexpected '\*'"),
    ("elementwise-argument-count", lambda: kd.elementwise("T x, T y", "T z", "z = x + y", "add", xp=np)(X),
     TypeError, r"add takes 2 input\(s\) \(x, y\), got 1"),
    ("kernel-missing-argument", lambda: _fill(np.zeros(4, np.float32), grid=4), TypeError, "missing a required"),
    ("kernel-extra-argument", lambda: _fill(np.zeros(4, np.float32), 1.0, 2.0, grid=4), TypeError, "too many"),
    ("kernel-array-dtype", lambda: _fill(np.zeros(4, np.int32), 1.0, grid=4), TypeError,
     r"annotated kdsl.float32\[:\] but got a 1-d int32 array"),
    ("kernel-scalar-for-array", lambda: _fill(1.0, 1.0, grid=4), TypeError, "got the scalar 1.0"),
    ("kernel-negative-grid", lambda: _fill(np.zeros(4, np.float32), 1.0, grid=-1), TypeError, "non-negative"),
    ("kernel-no-grid", lambda: _fill(np.zeros(4, np.float32), 1.0), TypeError, "give the launch grid"),
    ("compute-syntax", lambda: kd.compute("y[i] = x[i] +* 2", x=np.ones(3)), kd.KdslSyntaxError, r"unexpected"),
]


@pytest.mark.parametrize(("call", "error", "words"), [pytest.param(c, e, w, id=i) for i, c, e, w in CASES])
def test_kdsl_api_misuse_fails_clearly(call, error, words):
    with pytest.raises(error, match=words):
        call()


@pytest.mark.parametrize("labels", [[0, 1, 4], [0, -3, 2]])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_cross_entropy_label_out_of_range_is_nan_not_a_smaller_loss(labels, reduction):
    """A label outside [0, classes) cannot be checked without a read back each step; its loss is NaN, so the
    mistake shows (it used to pick no class and cost nothing)."""
    logits = kd.asarray(np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32))
    assert math.isnan(float(nn.cross_entropy(logits, kd.asarray(labels), reduction=reduction)))
    per = nn.cross_entropy(logits, kd.asarray(labels), reduction="none").numpy()
    bad = [k for k, y in enumerate(labels) if not 0 <= y < 4]
    assert np.isnan(per[bad]).all() and np.isfinite(np.delete(per, bad)).all()


def test_optimizers_take_numpy_parameters():
    """NumPy arrays' ``device`` is the string 'cpu', which init took for a kdsl device ("no device named like
    'cpu'"); the state now lives on the default device."""
    params = {"w": np.ones((2, 3), np.float32)}
    for opt in (optim.sgd(0.1, momentum=0.9), optim.adam(0.1)):
        new, _ = opt.update({"w": np.ones((2, 3), np.float32)}, opt.init(params), params)
        assert new["w"].shape == (2, 3) and np.all(new["w"].numpy() < 1.0)


def test_cross_entropy_ignore_index_outside_the_classes_still_costs_nothing():
    logits = kd.asarray(np.ones((3, 4), np.float32))
    loss = nn.cross_entropy(logits, kd.asarray([0, -100, 1]), reduction="none").numpy()
    np.testing.assert_allclose(loss, [math.log(4), 0.0, math.log(4)], rtol=1e-6)
