"""``kd.einsum_path`` against NumPy's: one step of all operands where there is nothing to order (one or two
operands, ``optimize=False``, nothing summed away; kdsl listed no step or pairs), a given path as given, and
NumPy's report text line for line (kdsl printed four of its lines, with its own FLOP count)."""

import random

import numpy as np
import pytest

import kdsl as kd


def _ones(*shape):
    return np.ones(shape)


CASES = {
    "chain": ("ij,jk,kl->il", [_ones(3, 4), _ones(4, 5), _ones(5, 2)], "greedy"),
    "chain_optimal": ("ij,jk,kl->il", [_ones(3, 4), _ones(4, 5), _ones(5, 2)], "optimal"),
    "chain_unordered": ("ij,jk,kl->il", [_ones(3, 4), _ones(4, 5), _ones(5, 2)], False),
    "trace": ("ii", [_ones(3, 3)], "greedy"),
    "sum": ("ij->", [_ones(3, 0)], "greedy"),
    "matmul_implicit": ("ij,jk", [_ones(3, 3), _ones(3, 3)], "greedy"),
    "dot": ("i,i", [_ones(3), _ones(3)], True),
    "four": ("ij,jk,kl,lm->im", [_ones(3, 3)] * 4, "greedy"),
    "outer": ("ab,cd->abcd", [_ones(2, 3), _ones(3, 2)], "greedy"),
    "numpy_doc": ("ea,fb,abcd,gc,hd->efgh", [_ones(10, 10), _ones(10, 10), _ones(10, 10, 10, 10), _ones(10, 10),
                                             _ones(10, 10)], "greedy"),
    "mixed_case": ("iA,Aj,jk", [_ones(2, 7), _ones(7, 3), _ones(3, 9)], "greedy"),
    "given_one_step": ("ij,jk,kl->il", [_ones(3, 4), _ones(4, 5), _ones(5, 2)], ["einsum_path", (0, 1, 2)]),
    "given_moves": ("ij,jk,kl->il", [_ones(3, 4), _ones(4, 5), _ones(5, 2)], ["einsum_path", (2,), (0, 1), (0, 1)]),
    "batched": ("bij,bjk,bkl->bil", [_ones(2, 3, 4), _ones(2, 4, 5), _ones(2, 5, 6)], "greedy"),
    "broadcast_one": ("ij,jk,kl->il", [_ones(1, 4), _ones(4, 5), _ones(5, 1)], "greedy"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_path_and_report_match_numpy(name):
    spec, ops, optimize = CASES[name]
    path, text = np.einsum_path(spec, *ops, optimize=optimize)
    got_path, got_text = kd.einsum_path(spec, *[kd.asarray(o) for o in ops], optimize=optimize)
    assert got_path == path
    assert got_text.splitlines() == text.splitlines()


def test_the_listed_path_runs_in_kd_einsum():
    ops = [np.arange(12.0).reshape(3, 4), np.arange(20.0).reshape(4, 5), np.arange(10.0).reshape(5, 2)]
    kops = [kd.asarray(o) for o in ops]
    for optimize in ("greedy", False):
        path, _ = kd.einsum_path("ij,jk,kl->il", *kops, optimize=optimize)
        np.testing.assert_allclose(kd.einsum("ij,jk,kl->il", *kops, optimize=path).numpy(),
                                   np.einsum("ij,jk,kl->il", *ops))
    path, _ = kd.einsum_path("ii", kops[0][:, :3])
    assert float(kd.einsum("ii", kops[0][:, :3], optimize=path)) == np.trace(ops[0][:, :3])


def test_ellipsis_report_numbers_match_numpy():
    # NumPy names an ellipsis' axes by letters in set order (it varies between runs): compare the numbers
    ops = [_ones(2, 6, 3, 4), _ones(4, 5), _ones(5, 7)]
    _, text = np.einsum_path("...ij,jk,kl->...il", *ops)
    _, got = kd.einsum_path("...ij,jk,kl->...il", *[kd.asarray(o) for o in ops])
    assert got.splitlines()[1:10] == text.splitlines()[1:10]
    assert len(got.splitlines()) == len(text.splitlines())


def test_report_matches_numpy_wherever_the_paths_agree():
    rng = random.Random(28)
    for _ in range(40):
        terms = ["".join(rng.sample("abcdefg", rng.randint(1, 3))) for _ in range(rng.randint(3, 5))]
        labels = sorted(set("".join(terms)))
        out = "".join(sorted(rng.sample(labels, rng.randint(0, min(3, len(labels))))))
        sizes = {c: rng.randint(1, 6) for c in "abcdefg"}
        ops = [np.ones([sizes[c] for c in t]) for t in terms]
        spec = ",".join(terms) + "->" + out
        path, text = np.einsum_path(spec, *ops)
        got_path, got_text = kd.einsum_path(spec, *[kd.asarray(o) for o in ops], optimize=path)
        assert got_path == path and got_text == text
