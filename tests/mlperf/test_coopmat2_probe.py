"""benchmarks/coopmat2_probe.py: its workgroup-scope kernel compiles with the glslang kdsl ships, and a device
without VK_NV_cooperative_matrix2 (every CPU driver) is reported as such, nothing run."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import coopmat2_probe  # noqa: E402

from kdsl.runtime import instance as inst  # noqa: E402
from kdsl.runtime.compiler import compile_source  # noqa: E402
from kdsl.runtime.reflect import reflect  # noqa: E402


def test_the_kernel_compiles_with_workgroup_scope():
    for bm, bn, bk, wg in coopmat2_probe.TILES:
        spirv = compile_source(coopmat2_probe.SOURCE.format(wg=wg, bm=bm, bn=bn, bk=bk, n=1024), "1.3", "1.6")
        assert [b.binding for b in reflect(spirv).bindings] == [0, 1, 2]


def test_a_device_without_the_extension_is_reported(capsys):
    instance = inst.Instance()
    try:
        has = coopmat2_probe.EXTENSION in inst.device_extensions(instance.physical_devices()[0])
        layers = instance.layers
    finally:
        instance.destroy()
    if has and layers:  # the suite's validation layer predates the extension's structs: not queried
        assert coopmat2_probe.report() is False
        assert "not queried under the validation layer" in capsys.readouterr().out
    elif has:
        assert coopmat2_probe.report() in (True, False)
        assert "features:" in capsys.readouterr().out
    else:
        assert coopmat2_probe.report() is False
        assert "no VK_NV_cooperative_matrix2" in capsys.readouterr().out
