"""``kd.show_config`` / ``kd.show_runtime``: kdsl's configuration and runtime as NumPy's ``np.show_config`` and
``np.show_runtime`` report NumPy's (a port's first lines are often ``print(np.__version__); np.show_config()``)."""

from __future__ import annotations

import re
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from kdsl.device import devices

_MODES = ("stdout", "dicts")


def package_version() -> str:
    """kdsl's version: pyproject.toml's, its one source. A source tree (a checkout, imported through
    ``PYTHONPATH=.`` or installed editable) reads it from its own pyproject.toml, so a version bumped there shows
    without reinstalling (the installed metadata of an editable install keeps the version of its install); an
    installed wheel, with no pyproject.toml beside it, reads its metadata (written from pyproject.toml).

    >>> import re
    >>> bool(re.fullmatch(r"\\d+\\.\\d+\\.\\d+.*", package_version()))
    True
    """
    source = _source_tree_version(Path(__file__).resolve().parents[3] / "pyproject.toml")
    if source is not None:
        return source
    try:
        return metadata.version("kdsl")
    except metadata.PackageNotFoundError:
        return "0+unknown"


def _source_tree_version(project: Path) -> str | None:
    """The version in ``project`` (a pyproject.toml) when it is kdsl's own, else None."""
    if not project.is_file():
        return None
    text = project.read_text()
    if not re.search(r'^name = "kdsl"$', text, re.M):
        return None
    found = re.search(r'^version = "([^"]+)"$', text, re.M)
    return found.group(1) if found else None


def _device(d: Any) -> dict[str, Any]:
    info = d.info
    return {"name": d.name, "type": info.get("device_type"), "vulkan api version": info.get("api_version"),
            "subgroup size": info.get("subgroup_size"), "features": sorted(d.features)}


def config() -> dict[str, Any]:
    """The sections ``show_config`` prints: kdsl's version, Python's, NumPy's and each Vulkan device's limits."""
    return {
        "kdsl": {"version": package_version()},
        "Python Information": {"path": sys.executable, "version": sys.version.split()[0]},
        "Build Dependencies": {"numpy": {"version": np.__version__}},
        "Devices": {str(d.index): _device(d) for d in devices()},
    }


def _lines(section: dict[str, Any], indent: int = 0) -> list[str]:
    out = []
    for key, value in section.items():
        if isinstance(value, dict):
            out += [" " * indent + f"{key}:", *_lines(value, indent + 2)]
        else:
            shown = ", ".join(map(str, value)) if isinstance(value, list) else value
            out.append(" " * indent + f"{key}: {shown}")
    return out


def show_config(mode: str = "stdout") -> dict[str, Any] | None:
    """Prints kdsl's configuration (``mode='stdout'``) or returns it as nested dicts (``mode='dicts'``), as
    NumPy's ``show_config``: kdsl's version, Python's, NumPy's and each Vulkan device (name, type, subgroup size,
    optional features). Any other mode raises NumPy's AttributeError.

    >>> import kdsl as kd
    >>> list(kd.show_config(mode="dicts"))
    ['kdsl', 'Python Information', 'Build Dependencies', 'Devices']
    """
    if mode not in _MODES:
        raise AttributeError(f"Invalid `mode`, use one of: {', '.join(_MODES)}")
    if mode == "dicts":
        return config()
    print("\n".join(_lines(config())))
    return None


def show_runtime() -> None:
    """Prints the runtime as NumPy's ``show_runtime`` does (a list of dicts, ``pprint``-ed): kdsl's and NumPy's
    versions, Python's, the platform, and each Vulkan device kdsl sees (its name, type and API version).

    >>> import kdsl as kd
    >>> kd.show_runtime()  # doctest: +ELLIPSIS
    [{'kdsl_version': ...
    """
    import platform
    from pprint import pprint

    info: list[dict[str, Any]] = [
        {"kdsl_version": package_version(), "numpy_version": np.__version__, "python": sys.version,
         "uname": platform.uname()},
        {"vulkan_devices": [{"index": d.index, "name": d.name, "type": d.info.get("device_type"),
                             "vulkan api version": d.info.get("api_version")} for d in devices()]},
    ]
    pprint(info)


_BUFSIZE = [8192]


def getbufsize() -> int:
    """NumPy's ufunc buffer size setting (``np.getbufsize``): kept for ports that read it; kdsl's kernels do not
    buffer through it.

    >>> import kdsl as kd
    >>> kd.getbufsize()
    8192
    """
    return _BUFSIZE[0]


def setbufsize(size: int) -> int:
    """Sets what :func:`getbufsize` returns and returns the old value, as ``np.setbufsize`` (a no-op for kdsl's
    kernels); NumPy's errors for sizes it refuses (below 5, above 10 000 000, not a multiple of 16).

    >>> import kdsl as kd
    >>> old = kd.setbufsize(16384); kd.getbufsize(), kd.setbufsize(old)
    (16384, 16384)
    """
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
        raise TypeError(f"setbufsize: the size must be an integer, got {type(size).__name__}")
    size = int(size)
    if size < 0:
        raise ValueError("buffer size must be non-negative")
    problem = "is too small" if size < 5 else "is too big" if size > 10_000_000 else \
        "is not a multiple of 16" if size % 16 else ""
    if problem:
        raise ValueError(f"Buffer size, {size}, {problem}")
    old, _BUFSIZE[0] = _BUFSIZE[0], size
    return old
