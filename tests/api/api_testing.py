"""tests/api's access to the NumPy-vs-kdsl helpers of tests/frontend/kd_testing.py (one copy of them)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "frontend"))

from kd_testing import ALL_DTYPES, FLOATS, INTS, NUMERIC, numpy_kdsl_allclose, sample  # noqa: E402

__all__ = ["ALL_DTYPES", "FLOATS", "INTS", "NUMERIC", "numpy_kdsl_allclose", "sample"]
