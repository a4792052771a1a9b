"""Every ```python block of docs/sorting.md runs as written (the guide stays true to the code)."""

import re
import runpy
from pathlib import Path

import pytest

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "sorting.md"
BLOCKS = re.findall(r"```python\n(.*?)```", GUIDE.read_text(), re.S)


def test_the_guide_has_examples():
    assert BLOCKS


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_guide_block_runs(index, tmp_path):
    path = tmp_path / f"sorting_{index}.py"
    path.write_text(BLOCKS[index])
    runpy.run_path(str(path), run_name="__doc_example__")
