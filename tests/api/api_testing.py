"""tests/api's access to the NumPy-vs-kdsl helpers of tests/frontend/kd_testing.py (one copy of them)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "frontend"))

from kd_testing import (  # noqa: E402
    ALL_DTYPES,
    FLOATS,
    INTS,
    LAYOUTS,
    NUMERIC,
    layout_data,
    numpy_kdsl_allclose,
    sample,
    strided,
)

__all__ = ["ALL_DTYPES", "FLOATS", "INTS", "LAYOUTS", "NUMERIC", "layout_data", "numpy_kdsl_allclose", "sample",
           "strided"]
