"""Files that code comments and docs cite must exist in the repository (a reader follows them)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
CITED = re.compile(r"\b((?:docs|benchmarks|examples|scripts|tests|kdsl)/[\w./-]+\.(?:md|py|sh|lark))\b"
                   r"|\b([A-Z_]+\.md)\b")
SOURCES = sorted([*ROOT.glob("kdsl/**/*.py"), *ROOT.glob("docs/*.md"), ROOT / "README.md"])


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_cited_files_exist(path):
    missing = []
    for m in CITED.finditer(path.read_text()):
        name = m.group(1) or m.group(2)
        if "NAME" in name:  # a placeholder ("python3 examples/NAME.py"), not a file
            continue
        if not (ROOT / name).exists() and not list(ROOT.glob(f"**/{name}")):
            missing.append(name)
    assert not missing, f"{path.relative_to(ROOT)} cites files that are not in the repository: {missing}"
