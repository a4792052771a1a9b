#!/usr/bin/env bash
# Set up (if needed) and run the test suite with the Khronos validation layer on and fatal, plus lint (ruff),
# type checks (mypy) and coverage.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export KDSL_VALIDATION=1
export KDSL_CACHE_DIR=${KDSL_CACHE_DIR:-$(mktemp -d)/kdsl-cache}
python3 -m ruff check kdsl tests examples benchmarks
python3 -m mypy
# (docstring examples: tests/frontend/test_doctests.py runs every module's; --doctest-modules ran them all twice)
python3 -m pytest -q --cov=kdsl --cov-report=term --cov-fail-under=90 tests "$@"
