"""Every ```python block of the README and the guides runs as written (the docs are part of the API)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDES = ["README.md", "docs/runtime.md"]


def _blocks():
    for name in GUIDES:
        text = (ROOT / name).read_text()
        for i, block in enumerate(re.findall(r"```python\n(.*?)```", text, re.S)):
            yield pytest.param(name, block, id=f"{name}#{i}")


@pytest.mark.parametrize(("name", "block"), list(_blocks()))
def test_guide_block_runs(name, block, capsys):
    exec(compile(block, name, "exec"), {"__name__": "__doc_example__"})
