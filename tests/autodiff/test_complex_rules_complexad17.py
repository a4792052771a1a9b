"""kd.grad through complex intermediates (PyTorch's convention): every rule that sees complex values, checked
against central finite differences in float64, plus kd.vjp with complex primals and cotangents."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import kdsl as kd
from tests.autodiff.autodiff_check import check_grad

RNG = np.random.default_rng(17)
C = 0.3 + 0.4j  # maps x in [0.5, 1.5] into the upper half plane, away from every branch cut
D = 0.2 + 0.1j


def parts(y):
    """A complex result as real numbers (both parts: every output element and direction is checked)."""
    return kd.stack([kd.real(y), kd.imag(y)])


def z_of(x):
    return x * C + D


HOLOMORPHIC = ["exp", "exp2", "log", "log2", "log10", "log1p", "expm1", "sqrt", "square", "reciprocal", "sin",
               "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh"]


@pytest.mark.parametrize("name", HOLOMORPHIC)
def test_holomorphic_unary_functions(name):
    fn = getattr(kd, name)
    check_grad(lambda x: parts(fn(z_of(x))), RNG.uniform(0.5, 1.5, 5))


@pytest.mark.parametrize("name,f", [
    ("abs", lambda x: kd.abs(z_of(x) - 0.5)),
    ("angle", lambda x: kd.angle(z_of(x) - 0.5)),
    ("real-imag", lambda x: kd.real(z_of(x) ** 2) * kd.imag(z_of(x[::-1]) ** 3)),
    ("conj", lambda x: parts(kd.conj(z_of(x)) * z_of(x[::-1]))),
    ("sign", lambda x: parts(kd.sign(z_of(x) - 0.5))),
    ("from-parts", lambda x: parts(kd.exp(kd.complex_from_parts(x, x[::-1] * 2)))),
    ("cast-to-complex", lambda x: parts(x.astype(kd.complex128) * C)),
    ("mul", lambda x: parts(z_of(x) * kd.conj(z_of(x[::-1])) * x)),
    ("div", lambda x: parts(z_of(x) / z_of(x[::-1] + 1))),
    ("pow-array", lambda x: parts(z_of(x) ** z_of(x[::-1]))),
    ("pow-int", lambda x: parts(z_of(x) ** 3)),
    ("pow-complex-const", lambda x: parts(z_of(x) ** (0.5 + 1.5j))),
    ("where", lambda x: parts(kd.where(x > 1, z_of(x), z_of(x) * 2j))),
])
def test_complex_elementwise_rules(name, f):
    check_grad(f, RNG.uniform(0.5, 1.5, 6))


def test_complex_to_real_cast_keeps_the_real_part():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        check_grad(lambda x: (z_of(x) ** 2).astype(kd.float64), RNG.uniform(0.5, 1.5, 4))


@pytest.mark.parametrize("shape,axis", [((6,), None), ((3, 4), 0), ((3, 4), 1), ((2, 3, 2), (0, 2))])
@pytest.mark.parametrize("op", ["sum", "prod", "mean"])
def test_complex_reductions(shape, axis, op):
    check_grad(lambda x: parts(getattr(kd, op)(z_of(x), axis=axis)), RNG.uniform(0.5, 1.5, shape))


def test_complex_prod_with_a_zero():
    x = np.array([0.5, -D.real / C.real, 1.5])  # z = x C + D is 0 where C x = -D: C is not real, so use parts
    check_grad(lambda x: parts(kd.prod(kd.complex_from_parts(x, x - x[1]))), x)


@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
@pytest.mark.parametrize("axis", [0, 1])
def test_complex_scans(op, axis):
    check_grad(lambda x: parts(getattr(kd, op)(z_of(x), axis=axis)), RNG.uniform(0.5, 1.5, (3, 4)))


@pytest.mark.parametrize("shapes", [((3, 4), (4, 2)), ((2, 3, 4), (4, 5)), ((4,), (4, 3))])
def test_complex_matmul(shapes):
    a, b = (RNG.uniform(0.5, 1.5, s) for s in shapes)
    check_grad(lambda a, b: parts(z_of(a) @ (b * 1j - z_of(b) ** 2)), a, b)


def test_complex_matmul_with_a_real_operand_and_vdot():
    a, b = RNG.uniform(0.5, 1.5, (3, 4)), RNG.uniform(0.5, 1.5, (4, 2))
    check_grad(lambda a, b: parts(z_of(a) @ b), a, b)
    check_grad(lambda a, b: parts(kd.vdot(z_of(a), z_of(a[::-1]) * b.sum())), a, b)


@pytest.mark.parametrize("name,f", [
    ("views", lambda x: parts(z_of(x)[::-1, 1:].T.reshape(-1)[::2])),
    ("concatenate", lambda x: parts(kd.concatenate([z_of(x), kd.conj(z_of(x))[:1]]))),
    ("take", lambda x: parts(kd.take(z_of(x), kd.asarray([2, 0, 2]), axis=0))),
    ("fancy", lambda x: parts(z_of(x)[kd.asarray([1, 1, 0]), kd.asarray([0, 2, 3])])),
    ("mask", lambda x: parts(z_of(x)[x > 1])),
    ("sort", lambda x: parts(kd.sort(z_of(x), axis=1))),
    ("setitem", lambda x: parts(_assigned(z_of(x)))),
])
def test_complex_movement_and_indexing(name, f):
    check_grad(f, RNG.uniform(0.5, 1.5, (3, 4)))


def _assigned(z):
    z = z * 1.0
    z[1] = z[0] * 2j
    return z


def test_long_complex_scatter_add_keeps_the_imaginary_part():
    # a target axis past the dense one-hot form: the sorted or atomic scatter-add, real and imaginary apart
    x = RNG.uniform(0.5, 1.5, 600)
    idx = kd.asarray(RNG.integers(0, 600, 900))
    w = RNG.standard_normal(900)
    g = kd.grad(lambda x: kd.real(kd.sum(z_of(x)[idx] ** 2 * w)))(kd.asarray(x)).numpy()
    z = x * C + D
    want = np.zeros(600)
    np.add.at(want, idx.numpy(), np.real(2 * z[idx.numpy()] * C * w))
    np.testing.assert_allclose(g, want, rtol=1e-9, atol=1e-12)


def test_float32_through_complex64():
    x = RNG.uniform(0.5, 1.5, 8)
    f = lambda x: kd.abs(kd.exp(x * C) * x).sum()  # noqa: E731
    g32 = kd.grad(f)(kd.asarray(x.astype(np.float32)))
    assert g32.dtype == kd.float32
    np.testing.assert_allclose(g32.numpy(), kd.grad(f)(kd.asarray(x)).numpy(), rtol=1e-5)


def test_cast_between_complex_dtypes():
    x = RNG.uniform(0.5, 1.5, 5)
    g = kd.grad(lambda x: kd.abs(z_of(x).astype(kd.complex64).astype(kd.complex128)).sum())(kd.asarray(x))
    z = x * C + D
    np.testing.assert_allclose(g.numpy(), np.real(z / np.abs(z) * np.conj(C)), rtol=1e-6)


def test_vjp_takes_complex_primals_and_cotangents():
    z = np.array([1 + 2j, -0.5 + 1j, 3 - 1j])
    c = np.array([0.5 - 1j, 2 + 0j, 1j])
    y, back = kd.vjp(lambda z: z * z + kd.conj(z), kd.asarray(z))
    (ct,) = back(kd.asarray(c))
    # PyTorch's convention: holomorphic z*z gives c * conj(2 z); conj(z) gives conj(c)
    np.testing.assert_allclose(ct.numpy(), c * np.conj(2 * z) + np.conj(c), rtol=1e-12)
    assert ct.dtype == kd.complex128 and y.dtype == kd.complex128


def test_vjp_of_a_real_input_with_a_complex_output_is_the_real_part():
    x = np.array([0.5, 1.0, 2.0])
    c = np.array([1 + 1j, -2j, 0.5 + 0j])
    _, back = kd.vjp(lambda x: kd.exp(x * 1j), kd.asarray(x))
    np.testing.assert_allclose(back(kd.asarray(c))[0].numpy(), np.real(c * np.conj(1j * np.exp(1j * x))))


def test_jvp_through_complex_values():
    x, t = RNG.uniform(0.5, 1.5, 4), RNG.standard_normal(4)
    f = lambda x: kd.abs(kd.sin(z_of(x)))  # noqa: E731
    _, tangent = kd.jvp(f, (kd.asarray(x),), (kd.asarray(t),))
    eps = 1e-6
    want = (f(kd.asarray(x + eps * t)).numpy() - f(kd.asarray(x - eps * t)).numpy()) / (2 * eps)
    np.testing.assert_allclose(tangent.numpy(), want, rtol=1e-6, atol=1e-9)


def test_grad_keeps_requiring_real_inputs_and_a_real_output():
    with pytest.raises(TypeError, match="complex64.*real float inputs.*kd.vjp"):
        kd.grad(lambda z: kd.abs(z).sum())(kd.asarray([1 + 1j]))
    with pytest.raises(TypeError, match="real float output.*kd.abs"):
        kd.grad(lambda x: (x * 1j).sum())(kd.asarray([1.0]))
    _, back = kd.vjp(lambda x: x * 2, kd.asarray([1.0]))
    with pytest.raises(TypeError, match="cotangent has dtype complex64 but its output is real"):
        back(kd.asarray([1j]))


def _graph_ops(a):
    seen, stack, out = set(), [a._node], []
    while stack:
        n = stack.pop()
        if n.id in seen:
            continue
        seen.add(n.id)
        out.append((n.op, n.dtype))
        stack.extend(n.srcs)
    return out


@pytest.mark.parametrize("f", [lambda x: (x * x[::-1] / (x + 1)).sum(), lambda x: (x @ x.T).sum(),
                               lambda x: kd.prod(x ** 2.5, axis=0).sum(), lambda x: kd.cumprod(x, axis=1).sum()])
def test_real_gradients_get_no_complex_node(f):
    g = kd.grad(f)(kd.asarray(RNG.uniform(0.5, 1.5, (3, 3))))
    assert not any(op in ("conj", "real", "imag", "complex") or d.is_complex for op, d in _graph_ops(g))


def test_rules_not_made_complex_correct_still_raise():
    with pytest.raises(NotImplementedError, match="'floor' through complex values"):
        from kdsl.autodiff import tape
        from kdsl.ir.graph import Node
        x = kd.asarray([1.0, 2.0])
        with tape.recording() as saved:
            xi = tape.as_input(x, set())
            z = xi * 1j
            y = kd.real(kd.Array(Node("floor", (z._node,), z.dtype, z.shape)))
            t = tape.Tape.build([y._node], [xi._node], saved)
        tape.backward(t, {y._node.id: kd.ones(2)})


@pytest.mark.parametrize("op", ["maximum", "minimum"])
def test_extremum_realised_inside_the_function(op):
    # a node realised in f is a "buffer" by the backward pass: the rule must not read which op from it
    def f(x):
        y = getattr(kd, op)(x, x[::-1] * 0.5)
        float(y.sum())
        return (y * kd.asarray([1.0, 2.0, 3.0, 4.0])).sum()
    check_grad(f, np.array([1.0, 3.0, 2.5, -1.0]))


@pytest.mark.parametrize("part", [kd.conj, kd.angle, kd.sign, kd.real, kd.imag])
def test_complex_parts_realised_inside_the_function(part):
    def f(x):
        y = part(z_of(x) - 0.5)
        float(kd.abs(y).sum())
        return parts(y * 1.0)
    check_grad(f, RNG.uniform(0.5, 1.5, 4))
