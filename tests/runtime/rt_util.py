"""Helpers shared by the runtime tests: feature skips, subprocess runs, a sync-dispatch-sync round trip.

Example:
    >>> run_python("print(1 + 1)").stdout
    '2\\n'
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import kdsl.kp as kp

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def needs(features: set, *names: str) -> None:
    """Skip the calling test unless the device has every feature in ``names``."""
    missing = [n for n in names if n not in features]
    if missing:
        pytest.skip(f"device lacks {missing}")


def run_python(code: str, timeout: float = 120, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter in the repository root; fail with its output if it fails."""
    path = os.pathsep.join(p for p in (REPO, os.environ.get("PYTHONPATH")) if p)  # keep the caller's entries
    full_env = {**os.environ, "PYTHONPATH": path, **(env or {})}
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          cwd=REPO, env=full_env, timeout=timeout)
    assert proc.returncode == 0, f"subprocess failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    return proc


def evaluated(mgr, tensors, algo=None, push=None) -> None:
    """Sync ``tensors`` up, dispatch ``algo`` (if any), sync them back, in one sequence."""
    seq = mgr.sequence().record(kp.OpSyncDevice(tensors))
    if algo is not None:
        seq.record(kp.OpAlgoDispatch(algo) if push is None else kp.OpAlgoDispatch(algo, push))
    seq.record(kp.OpSyncLocal(tensors)).eval()

