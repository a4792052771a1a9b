#!/usr/bin/env bash
# Set up (if needed) and run the demo: kdsl's two faces on this machine's best Vulkan device.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
python3 examples/demo.py
