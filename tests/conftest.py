"""Suite-wide rules: the Khronos validation layer is on, and any validation error fails the test that caused it."""

import os
import signal

os.environ.setdefault("KDSL_VALIDATION", "1")
# scikit-learn's array API dispatch (tests/ecosystem) needs SciPy's, which reads this when SciPy is first imported.
os.environ.setdefault("SCIPY_ARRAY_API", "1")

import pytest  # noqa: E402

import kdsl as kd  # noqa: E402
from kdsl.runtime import validation  # noqa: E402


@pytest.fixture(autouse=True)
def _no_validation_errors():
    validation.clear()
    yield
    found = validation.errors()
    validation.clear()
    if found:
        pytest.fail("Vulkan validation errors:\n" + "\n\n".join(found), pytrace=False)


@pytest.fixture(autouse=True)
def _sigint_left_as_found():
    """A test that changes how SIGINT is handled (its handler, or the main thread's signal mask) restores it:
    the Ctrl-C test (tests/runtime/test_sequence.py) and a developer's Ctrl-C rely on it. Two system calls per
    test. (A suite started as a background job of a non-interactive shell begins with SIGINT ignored: that is
    the state to keep, not an error.)"""
    before = signal.getsignal(signal.SIGINT), signal.pthread_sigmask(signal.SIG_BLOCK, [])
    yield
    after = signal.getsignal(signal.SIGINT), signal.pthread_sigmask(signal.SIG_BLOCK, [])
    if after != before:
        signal.signal(signal.SIGINT, before[0])
        signal.pthread_sigmask(signal.SIG_SETMASK, before[1])
        pytest.fail(f"the test left SIGINT's handler and signal mask changed: {before} -> {after} (restored now)",
                    pytrace=False)


@pytest.fixture(params=["subgroups", "shared"])
def scan_path(request, monkeypatch):
    """Runs a scan test with subgroup arithmetic (where the device has it) and with the shared-memory fallback
    (tests/cumulative, tests/masks)."""
    dev = kd.device()
    if request.param == "shared":
        monkeypatch.setattr(dev, "scan_subgroups", False)
    elif not dev.scan_subgroups:
        pytest.skip("this device has no subgroup arithmetic in compute shaders")
    return request.param


@pytest.fixture
def small_budget(monkeypatch):
    """A loop budget of 300 iterations: short arrays take the multi-level paths (block totals scanned again,
    tests/cumulative, tests/codegen)."""
    dev = kd.device()
    monkeypatch.setattr(dev, "loop_budget", 300)
    return dev


@pytest.fixture(params=["device", "gpu"])
def policy(request):
    """The device's own reduction policy, or a GPU's (1024 workgroups per long pass, one invocation per output
    only from 65 536 outputs, workgroup trees instead of strided partials): tests/frontend's reductions."""
    dev = kd.device()
    saved = dev.partials, dev.thread_outputs, dev.reduce_groups
    if request.param == "gpu":
        dev.partials, dev.thread_outputs, dev.reduce_groups = 0, 65536, 1024
    yield request.param
    dev.partials, dev.thread_outputs, dev.reduce_groups = saved


@pytest.fixture
def download_sizes(monkeypatch):
    """The sizes of the arrays read back by ``kd.Array.numpy`` while the test runs (a list it appends to)."""
    sizes = []
    numpy_of = kd.Array.numpy

    def recording(self, *args, **kwargs):
        sizes.append(self.size)
        return numpy_of(self, *args, **kwargs)

    monkeypatch.setattr(kd.Array, "numpy", recording)
    return sizes


@pytest.fixture
def fake_coopmat(monkeypatch):
    """The current (lavapipe) device, claiming an NVIDIA GPU's cooperative-matrix shapes (float16 16 x 16 x 16
    with float32 or float16 accumulators, 16 x 8 x 16), subgroups of 32 and 48 KiB of shared memory: the
    scheduler then plans the coopmat kernels (tests/mlperf, tests/nn), whose GLSL compiles here."""
    def shape(m, n, k, c="float32"):
        return {"m": m, "n": n, "k": k, "a": "float16", "b": "float16", "c": c, "result": c, "saturating": False,
                "scope": "subgroup"}
    dev = kd.device()
    monkeypatch.setattr(dev, "coopmat_shapes", (shape(16, 16, 16, "float16"), shape(16, 16, 16), shape(16, 8, 16)))
    monkeypatch.setattr(dev, "subgroup_size", 32)
    monkeypatch.setattr(dev, "max_shared_memory", 49152)
    monkeypatch.setattr(dev, "features", dev.features | {"cooperative_matrix", "float16", "subgroup_shuffle"})
    monkeypatch.setattr(dev, "matmul_tiles", True)
    return dev


@pytest.fixture
def coopmat_refused(fake_coopmat, monkeypatch):
    """``fake_coopmat``, whose driver then fails to build any cooperative-matrix pipeline (as a driver that lists
    the shapes but cannot compile a kernel would): the kernels must fall back to their scalar versions."""
    manager = fake_coopmat.manager
    real = manager.algorithm

    def refuse(tensors, spirv, **kw):
        if b"SPV_KHR_cooperative_matrix" in bytes(spirv):
            raise RuntimeError("vkCreateComputePipelines failed (simulated)")
        return real(tensors, spirv, **kw)

    monkeypatch.setattr(manager, "algorithm", refuse)
    return fake_coopmat
