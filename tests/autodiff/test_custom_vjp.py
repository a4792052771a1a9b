"""kd.custom_vjp (JAX's jax.custom_vjp): a function with its own backward, for what autodiff cannot walk (custom
kernels); the guard that raises where a custom kernel reads a traced value; the bit-level functions whose
derivatives would otherwise be lost (cbrt, fabs, copysign, nextafter, ldexp, frexp, fmod, modf)."""

import numpy as np
import pytest
from autodiff_check import check_grad

import kdsl as kd

RNG = np.random.default_rng(12)

_CUBE = kd.raw_kernel("""
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { double x[]; };
layout(set = 0, binding = 1) buffer Y { double y[]; };
layout(push_constant) uniform P { uint n; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n) y[i] = x[i] * x[i] * x[i];
}""")


def _cube_kernel(x):
    y = kd.empty_like(x)
    _CUBE(x, y, x.size, grid=x.size)
    return y


@kd.custom_vjp
def cube(x):
    return _cube_kernel(x)


cube.defvjp(lambda x: (_cube_kernel(x), x), lambda x, g: (3 * x * x * g,))


def test_a_custom_kernel_gets_its_derivative():
    x = RNG.standard_normal(7)
    check_grad(cube, x)
    np.testing.assert_allclose(cube(kd.asarray(x)).numpy(), x ** 3)  # outside a gradient: the plain function


def test_a_custom_kernel_without_one_raises_with_the_fix():
    x = kd.asarray(RNG.standard_normal(5))
    with pytest.raises(NotImplementedError, match=r"a custom kernel \(@kd.kernel, kd.raw_kernel\).*kd.custom_vjp"):
        kd.grad(lambda v: _cube_kernel(v).sum())(x)
    # a kernel on data that does not depend on the input is fine
    c = kd.asarray(RNG.standard_normal(5))
    np.testing.assert_allclose(kd.grad(lambda v: (v * _cube_kernel(c)).sum())(x).numpy(), c.numpy() ** 3)


def test_pytrees_several_outputs_and_keyword_arguments():
    @kd.custom_vjp
    def scaled_pair(p, scale=1.0):
        return {"s": (p["a"] * p["b"]).sum() * scale, "d": p["a"] - p["b"]}

    def fwd(p, scale=1.0):
        return scaled_pair.fun(p, scale=scale), (p, scale)

    def bwd(res, g):
        p, scale = res
        return ({"a": g["s"] * scale * p["b"] + g["d"], "b": g["s"] * scale * p["a"] - g["d"]},)

    scaled_pair.defvjp(fwd, bwd)
    a, b = RNG.standard_normal(4), RNG.standard_normal(4)
    check_grad(lambda u, v: scaled_pair({"a": u, "b": v}, scale=2.0)["s"], a, b)
    check_grad(lambda u, v: scaled_pair({"a": u, "b": v})["d"], a, b)
    check_grad(lambda u, v: scaled_pair({"a": u, "b": v})["d"] * scaled_pair({"a": u, "b": v})["s"], a, b)


def test_misuse_is_a_clear_error():
    @kd.custom_vjp
    def f(x):
        return x * 2

    with pytest.raises(TypeError, match="defvjp"):
        f(kd.asarray([1.0]))
    f.defvjp(lambda x: (x * 2, None), lambda res, g: 2 * g)  # not a tuple
    with pytest.raises(TypeError, match="tuple of 1 cotangents"):
        kd.grad(lambda x: f(x).sum())(kd.asarray([1.0]))


@pytest.mark.parametrize("name,f", [
    ("cbrt", lambda x: kd.cbrt(x)), ("fabs", lambda x: kd.fabs(x)),
    ("copysign", lambda x: kd.copysign(x, x[::-1])), ("nextafter", lambda x: kd.nextafter(x, 0.0)),
    ("ldexp", lambda x: kd.ldexp(x, kd.asarray([1, -2, 3, 0, 5, -1]))), ("frexp", lambda x: kd.frexp(x * 3)[0]),
    ("fmod", lambda x: kd.fmod(x * 5, x[::-1] + 3)), ("modf", lambda x: kd.modf(x * 3)[0])])
def test_functions_computed_on_the_bits_keep_their_derivative(name, f):
    x = RNG.uniform(0.1, 2.0, 6) * np.array([1, -1, 1, -1, 1, 1])  # (no zeros or integers: smooth points)
    check_grad(f, x)


def test_float32_cbrt_gradient():
    g = kd.grad(lambda x: kd.cbrt(x).sum())(kd.asarray(np.array([8.0, -27.0], np.float32)))
    np.testing.assert_allclose(g.numpy(), [1 / 12, 1 / 27], rtol=1e-6)


@pytest.mark.parametrize("f,want", [(lambda x: kd.abs(x * (1 + 2j)).sum(), lambda x: np.sqrt(5) * np.sign(x)),
                                    (lambda x: kd.real(x.astype(kd.complex64) ** 2).sum(), lambda x: 2 * x)],
                         ids=["abs-of-complex", "real-of-complex"])
def test_complex_intermediates_are_differentiated_not_a_silent_zero(f, want):
    x = kd.asarray([0.5, -1.5], dtype=kd.float32)
    np.testing.assert_allclose(kd.grad(f)(x).numpy(), want(x.numpy()), rtol=1e-6)
    assert kd.grad(lambda v: f(kd.stop_gradient(v)) + v.sum())(x).tolist() == [1.0, 1.0]
