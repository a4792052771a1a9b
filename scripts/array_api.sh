#!/usr/bin/env bash
# Run the array API conformance suite (data-apis/array-api-tests) against kdsl and against the reference
# implementation array-api-strict under the same options, and print both scores. Not part of CI (the suite is not
# on PyPI): docs/array-api.md says how to fetch it, and benchmarks/RESULTS.md holds the last score.
#
#   scripts/array_api.sh PATH_TO_SUITE [extra pytest arguments, e.g. -v or -x]
#
# Needs: pip install -e ".[array-api]" (array-api-strict and the suite's requirements.txt).
# The suite's "array-api" folder must hold the spec (data-apis/array-api) at its tag 2024.12.
#
# Options, all the suite's own (nothing is filtered with -k):
#   ARRAY_API_TESTS_VERSION=2024.12   the standard's version kdsl implements
#   --max-examples $MAX_EXAMPLES      Hypothesis examples per test (default 5: about 3 minutes per module on 2 busy
#                                     cores; unvectorized tests get a tenth, at least 1; 20 gave the same outcomes)
#   --derandomize                     the same examples every run, so two runs and two modules are comparable
#   --disable-deadline                kdsl compiles a kernel the first time it meets a graph: not a failure
#   --disable-extension linalg fft    the extensions are another issue (kd.linalg / kd.fft)
#   --skips-file scripts/array_api_skips.txt   tests skipped for both modules, each with its reason
#   ARRAY_API_TESTS_SKIP_DTYPES=complex64,complex128   only while kdsl has no complex dtypes (set automatically;
#                                     the suite before its commit aaaaa8d then runs without complex; later commits
#                                     need at least one complex dtype to import at all)
# plus -p array_api_no_shrink (scripts/array_api_no_shrink.py): no Hypothesis shrinking of failures, which only
# changes how a failure is reported, and can take minutes per failing test.
# Env: MODULES (default "kdsl array_api_strict"), MAX_EXAMPLES, OUT_DIR (JSON reports, default /tmp/array-api).
# The Khronos validation layer is off (KDSL_VALIDATION=0) for speed.
set -euo pipefail
if [[ $# -lt 1 || ! -d "$1/array_api_tests" ]]; then
    echo "usage: $0 PATH_TO_SUITE [pytest args]   (PATH_TO_SUITE: a checkout of data-apis/array-api-tests)" >&2
    exit 2
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
suite=$(cd "$1" && pwd)
shift
max_examples=${MAX_EXAMPLES:-5}
out_dir=${OUT_DIR:-/tmp/array-api}
modules=${MODULES:-kdsl array_api_strict}
mkdir -p "$out_dir"

if ! PYTHONPATH=$repo python3 -c "import kdsl, sys; sys.exit(0 if hasattr(kdsl, 'complex64') else 1)"; then
    export ARRAY_API_TESTS_SKIP_DTYPES=complex64,complex128
    echo "kdsl has no complex dtypes: both modules run with ARRAY_API_TESTS_SKIP_DTYPES=$ARRAY_API_TESTS_SKIP_DTYPES"
fi

for module in $modules; do
    echo "== $module"
    (cd "$suite" && ARRAY_API_TESTS_MODULE=$module ARRAY_API_TESTS_VERSION=2024.12 KDSL_VALIDATION=0 \
        PYTHONPATH="$repo:$repo/scripts${PYTHONPATH:+:$PYTHONPATH}" \
        python3 -m pytest array_api_tests -q -p no:cacheprovider -p array_api_no_shrink -W ignore::DeprecationWarning \
        --max-examples "$max_examples" --derandomize --disable-deadline --disable-extension linalg fft \
        --skips-file "$repo/scripts/array_api_skips.txt" \
        --json-report --json-report-file="$out_dir/$module.json" "$@" | tail -n 1) || true
done

python3 - "$out_dir" "$repo/scripts/array_api_complex_only.txt" $modules <<'EOF'
import json, re, sys
from pathlib import Path

out, complex_file, modules = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
patterns = [re.compile(line) for line in complex_file.read_text().splitlines() if line and not line.startswith("#")]
passed = {}
for m in modules:
    tests = json.loads((out / f"{m}.json").read_text())["tests"]
    outcomes = [t["outcome"] for t in tests]
    passed[m] = {t["nodeid"] for t in tests if t["outcome"] == "passed"}
    print(f"{m}: {outcomes.count('passed')} passed, {outcomes.count('failed') + outcomes.count('error')} failed, "
          f"{outcomes.count('skipped')} skipped")
if {"kdsl", "array_api_strict"} <= set(passed):
    ref, ours = passed["array_api_strict"], passed["kdsl"]
    print(f"score: kdsl passes {len(ref & ours)} of the {len(ref)} tests array-api-strict passes "
          f"({100 * len(ref & ours) / max(len(ref), 1):.1f}%); {len(ours - ref)} more pass only on kdsl")
    cplx = {t for t in ref if any(p.search(t) for p in patterns)}
    real = ref - cplx
    print(f"score without the {len(cplx)} complex-only tests (scripts/array_api_complex_only.txt): "
          f"{len(real & ours)} of {len(real)} ({100 * len(real & ours) / max(len(real), 1):.1f}%)")
    for t in sorted(ref - ours):
        print("  kdsl fails:", "(complex only)" if t in cplx else "", t)
EOF
