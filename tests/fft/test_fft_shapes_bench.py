"""benchmarks/fft_shapes.py: its plan overrides change rfft2's launches (and its results stay right), are undone
afterwards, and its choice of the best plan takes the fastest rows and the fastest columns."""

import sys
from pathlib import Path

import numpy as np

import kdsl as kd
from kdsl.fft import plan

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))


def _image(side: int) -> np.ndarray:
    return np.random.default_rng(0).standard_normal((side, side)).astype(np.float32)


def test_overrides_change_the_launches_and_are_undone():
    import fft_shapes
    from fft_anatomy import Timer

    host = _image(64)
    want = np.fft.rfft2(host)
    x = kd.asarray(host)
    saved = plan.group_shape, plan.stages, plan.strided_passes
    default = fft_shapes.measure(x, host, want, Timer(1))
    # the columns as two launches of 8 (four-step) with 16 sequences of 16 invocations, the rows' 32-point
    # real-half transform as stages 4 x 8: measure() checks the result against NumPy's
    with fft_shapes.overrides(shapes={(8, False): (16, 16)}, stages={32: (4, 8)}, split=(8, 8)):
        assert plan.stages(32) == (4, 8) and plan.strided_passes(64, 4096, 33) == (8, 8)
        swept = fft_shapes.measure(x, host, want, Timer(1))
    assert len(swept) == 4 and all(t > 0 for t in swept)  # rows, two column launches, the replay's wall time
    assert (plan.group_shape, plan.stages, plan.strided_passes) == saved
    assert len(default) <= len(swept)
    np.testing.assert_allclose(kd.fft.rfft2(x).numpy(), want, rtol=1e-4, atol=1e-3)


def test_combined_takes_the_fastest_rows_and_columns():
    import fft_shapes

    rows_fast = {"shapes": {(32, True): (1, 128)}}
    columns_fast = {"split": (8, 8), "shapes": {(8, False): (64, 128)}}
    results = [({}, [1.0, 1.0, 1.0]), (rows_fast, [0.5, 1.0, 1.0]), (columns_fast, [1.0, 0.4, 0.4]),
               ({"split": (4, 16), "shapes": {(4, False): (32, 32)}}, [0.1, 0.9, 0.9])]
    assert fft_shapes.combined(results) == {"shapes": {(32, True): (1, 128), (8, False): (64, 128)}, "stages": {},
                                            "split": (8, 8)}
