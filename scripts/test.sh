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
# One pytest worker per core, up to 4 (each worker is a lavapipe process with its own kernel caches; a test
# file stays on one worker, so its tests run in order as in a serial run). KDSL_TEST_WORKERS=0: no workers.
workers=${KDSL_TEST_WORKERS:-$(python3 -c "import os; print(min(4, len(os.sched_getaffinity(0))))")}
parallel=(); [ "$workers" -gt 1 ] && parallel=(-n "$workers" --dist loadfile)
python3 -m pytest -q "${parallel[@]}" --cov=kdsl --cov-report=term --cov-fail-under=90 --doctest-modules kdsl tests "$@"
