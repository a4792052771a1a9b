"""Statistical checks of kd.random's draws at fixed seeds (deterministic): moments within 6 standard errors (a
correct sampler lands outside with probability ~2e-9), chi-square against the exact pmf with a p-value above 1e-6
(a wrong law drives it to ~0 on 1e5 draws)."""

import math

import numpy as np
from scipy import stats


def mean_ok(x, mean, var):
    assert abs(x.mean() - mean) <= 6 * math.sqrt(var / x.size), (x.mean(), mean)


def var_ok(x, var, kurtosis_excess):
    se = var * math.sqrt((2 + kurtosis_excess) / x.size)
    assert abs(x.var() - var) <= 6 * se, (x.var(), var)


def chi2_ok(x, pmf, support):
    """Chi-square of the counts on ``support`` (bins with expected count >= 5; the rest pooled into one bin)."""
    expected = pmf(support) * x.size
    observed = np.array([(x == k).sum() for k in support], dtype=float)
    keep = expected >= 5
    rest_e, rest_o = x.size - expected[keep].sum(), x.size - observed[keep].sum()
    chi = (((observed[keep] - expected[keep]) ** 2) / expected[keep]).sum()
    dof = keep.sum() - 1
    if rest_e >= 5:
        chi += (rest_o - rest_e) ** 2 / rest_e
        dof += 1
    else:
        assert rest_o <= max(5.0, 10 * rest_e), (rest_o, rest_e)
    assert stats.chi2.sf(chi, dof) > 1e-6, (chi, dof)
