"""Suite-wide rules: the Khronos validation layer is on, and any validation error fails the test that caused it."""

import os

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
