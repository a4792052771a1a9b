"""KDSL_VALIDATION: the Khronos validation layer's errors are collected by kdsl (not printed) and reported.

Each case runs in a subprocess, so the deliberately provoked error never reaches the session's fixture.
The error is provoked with a raw Vulkan call on the runtime's own device (a zero-sized buffer,
VUID-VkBufferCreateInfo-size-00912), because the runtime itself refuses every misuse before Vulkan sees it.
"""

from __future__ import annotations

import json

import pytest
from rt_util import run_python

from kdsl.runtime.instance import available_layers
from kdsl.runtime.validation import VALIDATION_LAYER

needs_layer = pytest.mark.skipif(VALIDATION_LAYER not in available_layers(),
                                 reason="the Khronos validation layer is not installed here")

PROVOKE = """
import json
import kdsl.kp as kp
from kdsl.runtime import validation
from kdsl.runtime.vk import ffi, lib, vulkan

mgr = kp.Manager()
device = mgr._ctx.device  # the runtime's VkDevice (private: only a test reaches for it)
info = ffi.new("VkBufferCreateInfo*")
info.sType = vulkan.VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO
info.size = 0  # invalid: VUID-VkBufferCreateInfo-size-00912
info.usage = vulkan.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT
out = ffi.new("VkBuffer*")
result = lib.vkCreateBuffer(device, info, ffi.NULL, out)
if result == 0 and out[0] != ffi.NULL:
    lib.vkDestroyBuffer(device, out[0], ffi.NULL)
found = validation.errors()
validation.clear()
print(json.dumps({"enabled": validation.enabled(), "errors": found, "after_clear": validation.errors()}))
mgr.destroy()
"""


def run(env: dict) -> tuple[dict, str]:
    out = run_python(PROVOKE, env=env).stdout
    lines = out.strip().splitlines()
    return json.loads(lines[-1]), "\n".join(lines[:-1])


@needs_layer
def test_provoked_error_is_collected():
    result, printed = run({"KDSL_VALIDATION": "1"})
    assert result["enabled"]
    assert any("00912" in e for e in result["errors"]), result["errors"]
    assert result["after_clear"] == []
    assert "00912" not in printed, "the layer's message must be collected, not printed to stdout"


def test_no_layer_without_the_variable():
    result, _ = run({"KDSL_VALIDATION": "0"})
    assert not result["enabled"]
    assert result["errors"] == []


@needs_layer
def test_clean_program_reports_nothing():
    out = run_python("""
import json, runpy
from kdsl.runtime import validation
runpy.run_path('examples/end_to_end.py', run_name='__main__')
print(json.dumps(validation.errors()))
""", env={"KDSL_VALIDATION": "1"}).stdout
    assert json.loads(out.strip().splitlines()[-1]) == []
