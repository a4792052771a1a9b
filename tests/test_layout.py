"""The test tree has no packages, so pytest imports every test module by its basename: two modules with one
name in different folders make collection fail. Catch that here, with a clear message."""

from collections import Counter
from pathlib import Path


def test_test_module_names_are_unique():
    names = Counter(p.name for p in Path(__file__).parent.rglob("test_*.py"))
    assert not [n for n, c in names.items() if c > 1], f"rename one of each: {[n for n, c in names.items() if c > 1]}"
