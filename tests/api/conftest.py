"""tests/api shares the NumPy-vs-kdsl helpers of tests/frontend (kd_testing.py)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "frontend"))
