"""The disk cache of compiled SPIR-V is checked on every read.

Before: a truncated ``.spv`` broke its kernel for good ("invalid SPIR-V ... bad length", never recompiled), and a
file swapped for another kernel's made ``kd.sin`` return cosines. Now each file carries a digest of its cache key
and content; a file that fails it (or the SPIR-V checks) is recompiled and rewritten.
"""

from __future__ import annotations

import shutil
import uuid

import numpy as np
import pytest

import kdsl.kp as kp
from kdsl.runtime import compiler
from kdsl.runtime.spirv import check_spirv


def _source(fn: str) -> str:
    # A unique comment: this test's kernels are never in another test's memory cache.
    return f"""#version 450
// {uuid.uuid4()}
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer X {{ float x[]; }};
void main() {{ x[gl_GlobalInvocationID.x] = {fn}(x[gl_GlobalInvocationID.x]); }}"""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty disk cache, and a memory cache that forgets what the test compiled."""
    monkeypatch.setenv("KDSL_CACHE_DIR", str(tmp_path))
    keys_before = set(compiler._memory_cache)
    yield tmp_path
    for key in set(compiler._memory_cache) - keys_before:
        del compiler._memory_cache[key]


def _path(source: str):
    return compiler.cache_path(compiler._cache_key(source, *compiler.DEFAULT_TARGET))


def _from_disk(source: str) -> bytes:
    """compile_source as a new process would run it: memory cache empty, disk cache as it is."""
    compiler._memory_cache.pop(compiler._cache_key(source, *compiler.DEFAULT_TARGET), None)
    return kp.compile_source(source)


def _run(mgr, spirv: bytes, values) -> np.ndarray:
    t = mgr.tensor(values)
    algo = mgr.algorithm([t], spirv)
    mgr.sequence().record(kp.OpSyncDevice([t])).record(kp.OpAlgoDispatch(algo)).record(kp.OpSyncLocal([t])).eval()
    return t.data()


def test_truncated_cache_file_is_recompiled_and_rewritten(cache):
    source = _source("sin")
    good = kp.compile_source(source)
    path = _path(source)
    path.write_bytes(path.read_bytes()[:-6])  # e.g. a process killed half-way through an old non-atomic write
    rejected = compiler.stats["rejected"]
    again = _from_disk(source)
    assert again == good
    check_spirv(again)
    assert compiler.stats["rejected"] == rejected + 1
    assert _from_disk(source) == good and compiler.stats["rejected"] == rejected + 1  # the file was rewritten


def test_cache_file_swapped_for_another_kernels_is_not_trusted(cache, mgr):
    sin_source, cos_source = _source("sin"), _source("cos")
    sin_spirv, cos_spirv = kp.compile_source(sin_source), kp.compile_source(cos_source)
    assert sin_spirv != cos_spirv
    shutil.copyfile(_path(cos_source), _path(sin_source))  # a well-formed file, of the wrong kernel
    spirv = _from_disk(sin_source)
    assert spirv == sin_spirv
    x = np.array([0.0, 0.5, 1.0], np.float32)
    np.testing.assert_allclose(_run(mgr, spirv, x), np.sin(x), rtol=1e-5, atol=1e-6)


def test_raw_or_garbage_cache_files_are_recompiled(cache):
    source = _source("exp")
    good = kp.compile_source(source)
    path = _path(source)
    for content in (good, b"", b"\0" * 64, path.read_bytes()[:40]):  # old format (bare SPIR-V), empty, junk
        path.write_bytes(content)
        assert _from_disk(source) == good
    assert not list(cache.rglob("*.tmp"))  # atomic writes leave no temporary files behind
