"""Idle pipelines are kept in an LRU whose size the user sets (``kdsl.runtime.set_pipeline_cache_size``, the
Manager's ``pipeline_cache_size`` or ``KDSL_PIPELINE_CACHE``): thousands of distinct shaders stay bounded."""

from __future__ import annotations

import numpy as np
import pytest

import kdsl.kp as kp
import kdsl.runtime as rt
from kdsl.runtime import vk

# One shader, a distinct pipeline per specialization value: thousands of pipelines without thousands of compiles.
_SPEC = kp.compile_source("""#version 450
layout(local_size_x = 1) in;
layout(constant_id = 0) const uint K = 0;
layout(set = 0, binding = 0) buffer X { uint x[]; };
void main() { x[0] = K; }""")


def test_thousands_of_distinct_pipelines_stay_within_the_bound():
    base = vk.live_objects().get("VkPipeline", 0)  # other Managers' (the session's) pipelines
    mgr = kp.Manager(pipeline_cache_size=8)
    t = mgr.tensor_t(np.zeros(1, np.uint32))
    seq = mgr.sequence()
    peak = 0
    for k in range(1000):
        algo = mgr.algorithm([t], _SPEC, spec_consts=np.array([k], np.uint32))
        if k % 300 == 0:  # and they work
            seq.eval(kp.OpAlgoDispatch(algo)).eval(kp.OpSyncLocal([t]))
            assert t.data()[0] == k
        algo.destroy()
        peak = max(peak, vk.live_objects().get("VkPipeline", 0) - base)
    assert peak <= 8 + 1  # the idle bound and the one in use
    assert len(mgr._ctx.pipelines.idle) == 8
    mgr.set_pipeline_cache_size(2)
    assert len(mgr._ctx.pipelines.idle) == 2
    mgr.destroy()


def test_process_wide_size_and_environment_variable(monkeypatch):
    monkeypatch.delenv("KDSL_PIPELINE_CACHE", raising=False)
    assert rt.pipeline_cache_size() == 64
    rt.set_pipeline_cache_size(3)
    try:
        mgr = kp.Manager()
        t = mgr.tensor_t(np.zeros(1, np.uint32))
        for k in range(10):
            mgr.algorithm([t], _SPEC, spec_consts=np.array([k], np.uint32)).destroy()
        assert len(mgr._ctx.pipelines.idle) == 3
        mgr.destroy()
    finally:
        rt.set_pipeline_cache_size(None)
    with pytest.raises(ValueError, match="non-negative int"):
        rt.set_pipeline_cache_size(-1)
    monkeypatch.setenv("KDSL_PIPELINE_CACHE", "5")
    assert rt.pipeline_cache_size() == 5
    monkeypatch.setenv("KDSL_PIPELINE_CACHE", "many")
    with pytest.raises(ValueError, match="KDSL_PIPELINE_CACHE must be a non-negative int, got 'many'"):
        rt.pipeline_cache_size()
