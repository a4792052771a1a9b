"""Every docstring example in the DSL's modules runs and prints what it says."""

import doctest
import importlib
import pkgutil

import pytest

import kdsl

# Every module of the package (new modules are covered without editing this list); kdsl.kp needs no Vulkan
# at import time either, so nothing here is skipped.
MODULES = ["kdsl"] + sorted(m.name for m in pkgutil.walk_packages(kdsl.__path__, "kdsl."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
