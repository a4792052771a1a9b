"""Algorithm: spec and push constants of every dtype, workgroups, accessors, update_bindings, destroy."""

from __future__ import annotations

import numpy as np
import pytest
from rt_glsl import ADD_PUSH, GLOBAL_IDS, MULTIPLY, constants_kernel, spirv
from rt_util import needs

import kdsl.kp as kp

CONSTANT_DTYPES = ["float32", "int32", "uint32", "float64"]
# Two values per dtype that are exact in that dtype and wrong in any narrower or differently signed one.
VALUES = {"float32": [1.5, -2.25], "int32": [-3, 2_000_000_000], "uint32": [7, 4_000_000_000],
          "float64": [1 / 3, -1e300]}
OTHER_VALUES = {"float32": [0.125, 1e30], "int32": [-2_000_000_000, 11], "uint32": [3_000_000_001, 0],
                "float64": [np.pi, 2.0**-1000]}


@pytest.mark.parametrize("push", CONSTANT_DTYPES)
@pytest.mark.parametrize("spec", CONSTANT_DTYPES)
def test_spec_and_push_constant_dtypes(mgr, features, spec, push):
    """Every spec dtype x push dtype reaches the shader bit-exact, and a push override replaces it."""
    if "float64" in (spec, push):
        needs(features, "float64")
    spec_values = np.array(VALUES[spec], dtype=spec)
    push_values = np.array(VALUES[push], dtype=push)
    out_s, out_p = mgr.tensor_t(np.zeros(2, spec)), mgr.tensor_t(np.zeros(2, push))
    algo = mgr.algorithm([out_s, out_p], spirv(constants_kernel(np.dtype(spec), np.dtype(push))),
                         workgroup=(1, 1, 1), spec_consts=spec_values, push_consts=push_values)
    mgr.sequence().record(kp.OpAlgoDispatch(algo)).record(kp.OpSyncLocal([out_s, out_p])).eval()
    np.testing.assert_array_equal(out_s.data(), spec_values)
    np.testing.assert_array_equal(out_p.data(), push_values)

    override = np.array(OTHER_VALUES[push], dtype=push)
    mgr.sequence().record(kp.OpAlgoDispatch(algo, override)).record(kp.OpSyncLocal([out_p])).eval()
    np.testing.assert_array_equal(out_p.data(), override)


def test_constant_lists_are_float32(mgr):
    """Kompute converts Python lists of constants to float32."""
    out_s, out_p = mgr.tensor_t(np.zeros(2, np.float32)), mgr.tensor_t(np.zeros(2, np.float32))
    algo = mgr.algorithm([out_s, out_p], spirv(constants_kernel(np.dtype("float32"), np.dtype("float32"))),
                         workgroup=(1, 1, 1), spec_consts=[2, 0.5], push_consts=[-1, 3.25])
    mgr.sequence().record(kp.OpAlgoDispatch(algo)).record(kp.OpSyncLocal([out_s, out_p])).eval()
    np.testing.assert_array_equal(out_s.data(), [2, 0.5])
    np.testing.assert_array_equal(out_p.data(), [-1, 3.25])


MIXED_PUSH = """
#version 450
layout(local_size_x = 1) in;
layout(push_constant) uniform P { float f; int i; uint u; };
layout(set = 0, binding = 0) buffer F { float fs[]; };
layout(set = 0, binding = 1) buffer I { int is[]; };
layout(set = 0, binding = 2) buffer U { uint us[]; };
void main() { fs[0] = f; is[0] = i; us[0] = u; }
"""


def test_mixed_push_block_packed_as_uint32_words(mgr):
    """A push block of float, int and uint fields is given as raw uint32 words."""
    words = np.concatenate([np.array([2.5], np.float32).view(np.uint32), np.array([-7], np.int32).view(np.uint32),
                            np.array([0xFFFF_FFF0], np.uint32)])
    f, i, u = mgr.tensor_t(np.zeros(1, np.float32)), mgr.tensor_t(np.zeros(1, np.int32)), \
        mgr.tensor_t(np.zeros(1, np.uint32))
    algo = mgr.algorithm([f, i, u], spirv(MIXED_PUSH), workgroup=(1, 1, 1), push_consts=words)
    mgr.sequence().record(kp.OpAlgoDispatch(algo)).record(kp.OpSyncLocal([f, i, u])).eval()
    assert (f.data()[0], i.data()[0], u.data()[0]) == (2.5, -7, 0xFFFF_FFF0)


def test_default_workgroup_is_first_tensor_size(mgr):
    a = np.arange(1, 8, dtype=np.float32)
    ta, tb, tc = mgr.tensor_t(a), mgr.tensor_t(a[::-1].copy()), mgr.tensor_t(np.zeros_like(a))
    algo = mgr.algorithm([ta, tb, tc], spirv(MULTIPLY))
    assert tuple(algo.get_workgroup()) == (7, 1, 1)
    (mgr.sequence().record(kp.OpSyncDevice([ta, tb])).record(kp.OpAlgoDispatch(algo))
     .record(kp.OpSyncLocal([tc])).eval())
    np.testing.assert_array_equal(tc.data(), a * a[::-1])


def test_zero_y_and_z_mean_one(mgr):
    t = [mgr.tensor_t(np.zeros(4, np.uint32)) for _ in range(3)]
    algo = mgr.algorithm(t, spirv(GLOBAL_IDS), workgroup=(2, 0, 0))
    assert tuple(algo.get_workgroup()) == (2, 1, 1)


@pytest.mark.parametrize("workgroup", [(3, 1, 1), (2, 3, 1), (1, 2, 4), (3, 2, 2)])
def test_three_dimensional_workgroups(mgr, workgroup):
    """Each invocation writes its global id; the grid must be workgroup * local size (2, 1, 1)."""
    gx, gy, gz = workgroup[0] * 2, workgroup[1], workgroup[2]
    n = gx * gy * gz
    xs, ys, zs = (mgr.tensor_t(np.full(n, 99, np.uint32)) for _ in range(3))
    algo = mgr.algorithm([xs, ys, zs], spirv(GLOBAL_IDS), workgroup=workgroup)
    (mgr.sequence().record(kp.OpSyncDevice([xs, ys, zs])).record(kp.OpAlgoDispatch(algo))
     .record(kp.OpSyncLocal([xs, ys, zs])).eval())
    z, y, x = np.meshgrid(np.arange(gz), np.arange(gy), np.arange(gx), indexing="ij")
    np.testing.assert_array_equal(xs.data(), x.ravel())
    np.testing.assert_array_equal(ys.data(), y.ravel())
    np.testing.assert_array_equal(zs.data(), z.ravel())


def test_accessors_return_what_was_given(mgr):
    t = mgr.tensor_t(np.zeros(2, np.float32))
    algo = mgr.algorithm([t], spirv(ADD_PUSH), workgroup=(2, 1, 1), push_consts=np.array([4.5], np.float32))
    assert algo.is_init()
    assert list(algo.get_mem_objects()) == [t]
    assert tuple(algo.get_workgroup()) == (2, 1, 1)
    np.testing.assert_array_equal(algo.get_push_constants(), [4.5])
    assert len(algo.get_specialization_constants()) == 0


def test_update_bindings_reuses_the_pipeline(mgr):
    a = np.arange(4, dtype=np.float32)
    first = [mgr.tensor_t(a), mgr.tensor_t(a + 1), mgr.tensor_t(np.zeros(4, np.float32))]
    second = [mgr.tensor_t(a * 2), mgr.tensor_t(a - 3), mgr.tensor_t(np.zeros(4, np.float32))]
    algo = mgr.algorithm(first, spirv(MULTIPLY))
    mgr.sequence().record(kp.OpSyncDevice(first + second)).eval()
    mgr.sequence().record(kp.OpAlgoDispatch(algo)).record(kp.OpSyncLocal([first[2]])).eval()
    algo.update_bindings(second)
    assert list(algo.get_mem_objects()) == second
    mgr.sequence().record(kp.OpAlgoDispatch(algo)).record(kp.OpSyncLocal([second[2]])).eval()
    np.testing.assert_array_equal(first[2].data(), a * (a + 1))
    np.testing.assert_array_equal(second[2].data(), (a * 2) * (a - 3))


def test_update_bindings_with_wrong_count_raises(mgr):
    t = [mgr.tensor_t(np.zeros(2, np.float32)) for _ in range(3)]
    algo = mgr.algorithm(t, spirv(MULTIPLY))
    with pytest.raises((RuntimeError, ValueError)):
        algo.update_bindings(t[:2])


def test_destroy_is_idempotent_and_dispatch_then_raises(mgr):
    t = mgr.tensor_t(np.zeros(2, np.float32))
    algo = mgr.algorithm([t], spirv(ADD_PUSH), push_consts=[1.0])
    algo.destroy()
    algo.destroy()
    assert not algo.is_init()
    with pytest.raises(RuntimeError):
        mgr.sequence().record(kp.OpAlgoDispatch(algo))


def test_algorithm_with_spec_constant_defaults(mgr):
    """Without spec_consts the shader's default values are used."""
    source = """
#version 450
layout(local_size_x = 1) in;
layout(constant_id = 0) const int k = 42;
layout(set = 0, binding = 0) buffer B { int b[]; };
void main() { b[0] = k; }
"""
    t = mgr.tensor_t(np.zeros(1, np.int32))
    algo = mgr.algorithm([t], spirv(source), workgroup=(1, 1, 1))
    mgr.sequence().record(kp.OpAlgoDispatch(algo)).record(kp.OpSyncLocal([t])).eval()
    assert t.data()[0] == 42
