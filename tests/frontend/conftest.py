"""Fixtures shared by tests/frontend."""

import pytest

import kdsl as kd


@pytest.fixture(params=["device", "gpu"])
def policy(request):
    """The device's own reduction policy, or a GPU's (1024 workgroups per long pass, one invocation per output
    only from 65 536 outputs, workgroup trees instead of strided partials)."""
    dev = kd.device()
    saved = dev.partials, dev.thread_outputs, dev.reduce_groups
    if request.param == "gpu":
        dev.partials, dev.thread_outputs, dev.reduce_groups = 0, 65536, 1024
    yield request.param
    dev.partials, dev.thread_outputs, dev.reduce_groups = saved
