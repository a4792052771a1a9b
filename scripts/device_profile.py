"""A pytest plugin that runs the tests under another device's plans and limits, on whatever device is here.

kdsl reads its launch policy and limits from the device (``kdsl.device.Device``); lavapipe's differ from a
GPU's (one invocation per reduction output, strided partials, 32 storage buffers, 64 KiB of shared memory). A
bug that only a GPU's plan reaches (the H200 found one: complex ``max`` taking the later of two NaNs through a
workgroup tree) can be found here first by giving lavapipe a GPU's policy. Results must not change; tests
that count kernels or tiles do fail under small limits, by design (fewer buffers: fewer fusions).

    KDSL_TEST_PROFILE=gpu python3 -m pytest -p device_profile tests/frontend    # (scripts/ on PYTHONPATH)

Profiles: ``gpu`` (a discrete GPU's plans: workgroup trees, wide grids, tiled matmuls), ``small`` (a mobile
GPU's limits: 4 storage buffers a kernel, 16 KiB of shared memory, no subgroup arithmetic), ``gpusmall`` (both).
"""

from __future__ import annotations

import os

import kdsl as kd

_GPU = {"max_groups": 65535, "matmul_tiles": True, "thread_outputs": 65536, "partials": 0, "reduce_groups": 1024,
        "matmul_lanes": 0}
_SMALL = {"max_buffers": 4, "max_shared_memory": 16384, "reduce_subgroup": 0, "scan_subgroups": False}
PROFILES = {"gpu": _GPU, "small": _SMALL, "gpusmall": _GPU | _SMALL}


def pytest_configure(config) -> None:
    """Set the profile named by ``KDSL_TEST_PROFILE`` on the default device before any test runs (each
    attribute change drops the device's cached policy, so plans are made afresh)."""
    name = os.environ.get("KDSL_TEST_PROFILE", "")
    if not name:
        return
    if name not in PROFILES:
        raise ValueError(f"KDSL_TEST_PROFILE={name!r} is not a profile; use one of {sorted(PROFILES)}")
    device = kd.device()
    for attribute, value in PROFILES[name].items():
        setattr(device, attribute, value)
