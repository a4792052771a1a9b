"""The parts of ``kd.lib`` (NumPy's ``np.lib``) beyond ``stride_tricks`` (``sliding_window.py``) and ``scimath``
(``kd.emath``): ``kd.lib.array_utils`` (``array_utils.py``; importable as ``kdsl.lib.array_utils``) and
``kd.lib.NumpyVersion``, which is NumPy's own class: it compares version strings (``kd.lib.NumpyVersion(
np.__version__) >= '2.0.0'``), touching no array, so NumPy's is exactly NumPy's behaviour; ``kd.lib.mixins`` is
NumPy's module too: ``NDArrayOperatorsMixin``'s operators call NumPy's ufuncs, which dispatch to the class's
``__array_ufunc__`` and from there to kdsl for kdsl arrays (``ufunc_overrides.py``).

Example:
    >>> import kdsl as kd
    >>> kd.lib.NumpyVersion("2.1.0rc1") < "2.1.0", kd.lib.array_utils.normalize_axis_index(-1, 2)
    (True, 1)
"""

from __future__ import annotations

import sys
import types

import numpy as np

from kdsl.frontend.array import array_utils


def add_to(lib: types.ModuleType) -> None:
    """Attach ``array_utils``, ``NumpyVersion`` and ``mixins`` to the ``kd.lib`` module ``lib``."""
    module = types.ModuleType("kdsl.lib.array_utils", "NumPy's np.lib.array_utils for kdsl arrays.")
    for name in array_utils.__all__:
        setattr(module, name, getattr(array_utils, name))
    module.__all__ = list(array_utils.__all__)  # type: ignore[attr-defined]
    lib.array_utils = module  # type: ignore[attr-defined]
    lib.NumpyVersion = np.lib.NumpyVersion  # type: ignore[attr-defined]
    # NumPy's NDArrayOperatorsMixin: its operators call NumPy's ufuncs, which hand kdsl arrays to kdsl
    lib.mixins = np.lib.mixins  # type: ignore[attr-defined]
    sys.modules.setdefault("kdsl.lib.array_utils", module)


__all__ = ["add_to"]
