"""Fixtures for the runtime tests: one Manager per session, and no validation error may pass unnoticed.

The validation layer is switched on (``KDSL_VALIDATION=1``) before kdsl is imported unless the caller chose
otherwise, and every test fails if the layer reported an error while it ran.
"""

from __future__ import annotations

import os

os.environ.setdefault("KDSL_VALIDATION", "1")

import pytest  # noqa: E402

import kdsl.kp as kp  # noqa: E402
from kdsl.runtime import validation  # noqa: E402


@pytest.fixture(scope="session")
def mgr():
    """The session's Manager on device 0 (lavapipe here), destroyed at the end."""
    manager = kp.Manager()
    yield manager
    manager.destroy()


@pytest.fixture(scope="session")
def props(mgr) -> dict:
    """``get_device_properties()`` of the session's device."""
    return mgr.get_device_properties()


@pytest.fixture(scope="session")
def features(props) -> set:
    """The session device's optional features (``"float64"``, ``"int8"``, ...)."""
    return set(props["features"])


@pytest.fixture(autouse=True)
def no_validation_errors():
    """Fail the test if the validation layer reported anything while it ran."""
    before = len(validation.errors())
    yield
    new = validation.errors()[before:]
    validation.clear()
    assert not new, "Vulkan validation errors:\n" + "\n".join(new)
