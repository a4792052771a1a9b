"""Every ```python block of the README and the guides runs as written, from a real file (kernels need their
source), so the docs stay true to the code."""

import re
import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The README and every guide under docs/ (a new guide is covered without editing this list).
GUIDES = ["README.md"] + sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))


def blocks(name: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", (ROOT / name).read_text(), re.S)


def test_the_kernel_guide_has_a_block_per_form():
    text = "\n".join(blocks("docs/kernels.md"))
    for form in ("@kd.kernel", "kd.compute(", "kd.elementwise(", "kd.reduction(", "kd.raw_kernel(",
                 "kd.shared(", "kd.atomic_add(", "@kd.func"):
        assert form in text, form


@pytest.mark.parametrize(("name", "index"), [(name, i) for name in GUIDES for i in range(len(blocks(name)))])
def test_guide_block_runs(name, index, tmp_path):
    path = tmp_path / f"{Path(name).stem}_{index}.py"
    path.write_text(blocks(name)[index])
    runpy.run_path(str(path), run_name="__doc_example__")
