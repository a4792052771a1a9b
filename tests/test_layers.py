"""The layer rules of docs/architecture.md, read from the imports of every module (top-level and inside
functions alike): each package imports only the layers below it."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "kdsl"
# layer -> the kdsl layers it may import (its own modules always)
ALLOWED = {
    "kdsl.dtype": set(),
    "kdsl.errors": set(),
    "kdsl.exceptions": set(),  # kd.exceptions: numpy.exceptions' classes, re-exported
    "kdsl.pytree": set(),
    "kdsl.runtime": {"kdsl.dtype"},
    "kdsl.ir": {"kdsl.dtype"},
    "kdsl.codegen": {"kdsl.ir", "kdsl.dtype"},
    "kdsl.device": {"kdsl.dtype", "kdsl.runtime"},
    "kdsl.engine": {"kdsl.ir", "kdsl.codegen", "kdsl.runtime", "kdsl.device", "kdsl.dtype"},
    "kdsl.frontend.array": {"kdsl.ir", "kdsl.engine", "kdsl.device", "kdsl.dtype", "kdsl.pytree"},
    "kdsl.frontend.kernels": {"kdsl.codegen", "kdsl.runtime", "kdsl.engine", "kdsl.device", "kdsl.dtype"},
    "kdsl.frontend.lang": {"kdsl", "kdsl.dtype"},  # the public API only (``import kdsl``, ``kd.dtype``)
    "kdsl.dask": {"kdsl", "kdsl.dtype"},  # the public API only, like kdsl.frontend.lang
    # autodiff differentiates graph nodes (ir) and builds the cotangents with the array API's modules
    "kdsl.autodiff": {"kdsl.frontend.array", "kdsl.ir", "kdsl.dtype", "kdsl.pytree"},
    "kdsl.fft": {"kdsl", "kdsl.dtype"},  # the public API only: its kernels are kd.raw_kernels
    # the public API only: its kernels are kd.raw_kernel GLSL, its recorded plans kdsl.kp Algorithms and Sequences
    "kdsl.linalg": {"kdsl", "kdsl.dtype", "kdsl.kp"},
    "kdsl.polynomial": {"kdsl"},  # kd.polynomial: the public API only (fits and roots need kd.linalg)
    # kd.nn, kd.optim and the models: the public API only, and the model code may use kd.nn
    "kdsl.nn": {"kdsl"},
    "kdsl.optim": {"kdsl"},
    "kdsl.testing": {"kdsl"},  # kd.testing: NumPy's assertions on the public API's arrays
    "kdsl.typing": {"kdsl"},  # kd.typing: numpy.typing's names, NDArray on the public API's kd.ndarray
    "kdsl.ma": {"kdsl"},  # kd.ma: NumPy's masked arrays on the public API
    "kdsl.models": {"kdsl", "kdsl.nn"},
}


def _layer(module: str) -> str | None:
    return next((layer for layer in sorted(ALLOWED, key=len, reverse=True)
                 if module == layer or module.startswith(layer + ".")), None)


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, name: str) -> list[str]:
    out = []
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            out += [f"{base}.{a.name}" if base == "kdsl" else base for a in node.names]
    return [m for m in out if m == "kdsl" or m.startswith("kdsl.")]


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_imports_follow_the_layers(path):
    name = _module_name(path)
    layer = _layer(name)
    if layer is None:  # kdsl/__init__.py (with its kdsl/namespace_*.py) and kdsl/kp.py assemble the public API
        assert name in ("kdsl", "kdsl.kp", "kdsl.frontend") or name.startswith("kdsl.namespace_"), \
            f"{name} belongs to no layer: add it to ALLOWED and docs/architecture.md"
        return
    bad = []
    for imported in _imports(path, name):
        target = _layer(imported) or imported
        if target in (layer, "kdsl.errors") or target in ALLOWED[layer]:
            continue
        public_api_layers = ("kdsl.frontend.lang", "kdsl.dask", "kdsl.nn", "kdsl.optim", "kdsl.models", "kdsl.testing",
                             "kdsl.typing", "kdsl.ma")
        if layer in public_api_layers and imported == "kdsl":
            continue
        bad.append(imported)
    assert not bad, f"{name} ({layer}) imports {bad}; it may import only {sorted(ALLOWED[layer])}"
