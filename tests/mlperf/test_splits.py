"""Launch shapes for small outputs over long axes: tall-skinny reductions and split-K matmuls fill a GPU
(fake device policies), and the results stay right on this device."""

import numpy as np

import kdsl as kd
from kdsl.engine.lower_matmul import fill_splits
from kdsl.engine.lower_reduce import reduce_plan
from kdsl.ir.kernels import Matmul


class GPU:
    loop_budget, max_groups, thread_outputs, partials, matmul_tiles = 60000, 65535, 65536, 0, True
    reduce_subgroup, reduce_groups = 32, 1024  # subgroup combines; workgroups a long pass aims for


class CPU:
    loop_budget, max_groups, thread_outputs, partials, matmul_tiles = 60000, 512, 1024, 512 * 256, False
    reduce_subgroup, reduce_groups = 0, 64


def test_tall_skinny_reduction_fills_the_gpu():
    # X.T @ dz as a reduction: 64 outputs of 10**6 products each
    mode, splits, groups = reduce_plan((1, 64, 1, 10**6), (3,), GPU())
    assert (mode, groups) == ("group", 1024) and splits == 16
    mode, splits, groups = reduce_plan((10**6, 64), (0,), GPU())  # column sums of a tall matrix
    assert groups >= 1024
    assert reduce_plan((8192, 8192), (1,), GPU()) == ("group", 1, 8192)  # enough outputs: unchanged


def test_cpu_reductions_use_strided_partials():
    mode, splits, _ = reduce_plan((1, 64, 1, 10**6), (3,), CPU())
    assert mode == "thread" and splits >= 256


def test_split_k_only_for_few_tiles_and_long_k():
    assert fill_splits(Matmul(1, 64, 10, 10**6, None, None, None, 0), GPU()) == 256
    assert fill_splits(Matmul(1, 64, 10, 1500, None, None, None, 0), GPU()) == 8  # chunks of >= 128
    assert fill_splits(Matmul(1, 64, 10, 200, None, None, None, 0), GPU()) == 1  # short k: not worth a pass
    assert fill_splits(Matmul(1, 4096, 4096, 4096, None, None, None, 0), GPU()) == 1
    assert fill_splits(Matmul(1, 64, 10, 10**6, None, None, None, 0), CPU()) == 1


def test_tall_skinny_results():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((70_000, 20)).astype(np.float32)
    dz = rng.standard_normal(70_000).astype(np.float32)
    np.testing.assert_allclose((kd.asarray(x).T @ kd.asarray(dz)).numpy(), x.T @ dz, rtol=1e-4, atol=1e-2)
    np.testing.assert_allclose(kd.asarray(x).sum(axis=0).numpy(), x.sum(axis=0), rtol=1e-4, atol=1e-2)
    x[5, 3] = np.nan
    assert np.isnan(kd.asarray(x).sum(axis=0).numpy()[3])
