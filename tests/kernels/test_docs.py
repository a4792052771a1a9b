"""Every ```python block of docs/kernels.md runs as written, from a real file (kernels need their source)."""

import re
import runpy
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "kernels.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def test_the_guide_has_a_block_per_form():
    text = "\n".join(BLOCKS)
    for form in ("@kd.kernel", "kd.compute(", "kd.elementwise(", "kd.reduction(", "kd.raw_kernel(",
                 "kd.shared(", "kd.atomic_add(", "@kd.func"):
        assert form in text, form


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_doc_block_runs(index, tmp_path):
    path = tmp_path / f"kernels_doc_{index}.py"
    path.write_text(BLOCKS[index])
    runpy.run_path(str(path), run_name="__doc_example__")
