"""The examples in examples/kernels run and check themselves against NumPy."""

import runpy
import struct
import zlib
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "kernels"


@pytest.mark.parametrize("name", ["saxpy", "tiled_matmul", "histogram", "softmax"])
def test_example_runs(name, capsys):
    runpy.run_path(str(EXAMPLES / f"{name}.py"), run_name="__main__")
    assert "ok" in capsys.readouterr().out or name == "histogram"


def test_mandelbrot_writes_a_valid_png(tmp_path):
    module = runpy.run_path(str(EXAMPLES / "mandelbrot.py"))
    path = tmp_path / "m.png"
    image = module["main"](str(path))
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (height, width) == image.shape
    idat = data.index(b"IDAT")
    length = struct.unpack(">I", data[idat - 4:idat])[0]
    raw = zlib.decompress(data[idat + 4:idat + 4 + length])
    assert len(raw) == height * (width + 1)
    assert (image == 0).any() and (image > 200).any()  # some points inside the set, most far outside
