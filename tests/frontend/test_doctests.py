"""Every docstring example in the DSL's modules runs and prints what it says."""

import doctest
import importlib

import pytest

MODULES = ["kdsl", "kdsl.dtype", "kdsl.device", "kdsl.codegen.glsl", "kdsl.codegen.helpers", "kdsl.codegen.expr",
           "kdsl.codegen.ops", "kdsl.codegen.elementwise", "kdsl.codegen.reduce", "kdsl.codegen.matmul",
           "kdsl.codegen.scan", "kdsl.codegen.view", "kdsl.codegen.vector", "kdsl.frontend.graph",
           "kdsl.frontend.array",
           "kdsl.frontend.ops", "kdsl.frontend.movement", "kdsl.frontend.schedule", "kdsl.frontend.realize",
           "kdsl.frontend.creation", "kdsl.frontend.math", "kdsl.frontend.reductions", "kdsl.frontend.linalg",
           "kdsl.frontend.shape_ops", "kdsl.frontend.indexing", "kdsl.frontend.random", "kdsl.frontend.explain",
           "kdsl.frontend.plan", "kdsl.frontend.jit"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
