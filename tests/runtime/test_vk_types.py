"""Every Vulkan type the runtime names has its cffi layout worked out at import (``kdsl.runtime.vk.TYPES``): a
finaliser running kdsl work while a struct's layout was first being worked out failed (cffi does it lazily and
not re-entrantly; tests/engine/test_lifetimes_reliab17.py's start-up test)."""

import pathlib
import re

from kdsl.runtime import vk

ROOT = pathlib.Path(vk.__file__).resolve().parents[1]


def test_every_vulkan_type_named_in_kdsl_is_in_the_list():
    named = set()
    for path in ROOT.rglob("*.py"):
        named |= set(re.findall(r"\"(Vk[A-Za-z0-9_]+)", path.read_text()))
    missing = sorted(named - set(vk.TYPES))
    assert not missing, f"add these to kdsl.runtime.vk.TYPES: {missing}"
    assert len(set(vk.TYPES)) == len(vk.TYPES)


def test_the_listed_layouts_are_known():
    assert all(vk.ffi.sizeof(name) > 0 for name in vk.TYPES)
