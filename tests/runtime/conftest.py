"""Fixtures for the runtime tests: one Manager per session (tests/conftest.py fails any test that provokes a
validation error)."""

from __future__ import annotations

import pytest

import kdsl.kp as kp


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
