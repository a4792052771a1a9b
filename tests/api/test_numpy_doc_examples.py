"""NumPy's own docstring examples, run with ``np`` bound to kdsl and compared with NumPy's values
(``scripts/numpy_doc_examples.py``: run it for the whole surface and a report). The functions here are ones whose
examples all pass: a failure is a regression against NumPy's documented behaviour."""

import importlib.util
import sys
from pathlib import Path

import pytest

_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "numpy_doc_examples.py"
_spec = importlib.util.spec_from_file_location("numpy_doc_examples", _SCRIPT)
assert _spec is not None and _spec.loader is not None
doc_examples = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("numpy_doc_examples", doc_examples)  # dataclasses look their module up there
_spec.loader.exec_module(doc_examples)

# Commonly used functions, one or a few per family, whose examples all pass: about 30 s on lavapipe with a cold
# kernel cache (einsum and linalg.svd pass too but would add 20 s; the script checks them).
FUNCTIONS = [
    # creation
    "arange", "linspace", "full", "full_like", "eye", "geomspace", "tri",
    # math
    "clip", "round", "cumsum", "diff", "convolve", "interp",
    # reductions and statistics
    "sum", "mean", "argmax", "average", "std", "median", "percentile", "nansum", "histogram", "bincount",
    "cov",
    # indexing
    "where", "take_along_axis", "nonzero", "select", "put",
    # manipulation
    "reshape", "ravel", "squeeze", "stack", "concat", "split", "tile", "repeat", "roll", "flip", "moveaxis",
    "pad", "insert", "delete",
    # sorting and searching, sets
    "sort", "argsort", "searchsorted", "unique", "partition", "intersect1d", "isin",
    # linear algebra, FFT
    "matmul", "dot", "outer", "kron", "linalg.norm", "linalg.solve", "linalg.det", "linalg.qr", "linalg.lstsq",
    "fft.fft", "fft.rfft", "fft.fftfreq", "fft.fftshift",
    # polynomials
    "polyfit", "polyval", "polyder", "polyint", "polymul", "roots", "poly1d",
    # complex parts, comparisons, iteration helpers
    "real", "imag", "array_equal", "broadcast",
    # more of each family
    "zeros", "identity", "logspace", "diag", "triu", "meshgrid", "cumprod", "gradient", "trapezoid", "cross",
    "max", "any", "nanmean", "nanmedian", "quantile", "var", "corrcoef", "digitize", "argwhere", "take",
    "choose", "compress", "expand_dims", "hstack", "vstack", "array_split", "rot90", "block", "append",
    "lexsort", "argpartition", "union1d", "setdiff1d", "inner", "tensordot", "isclose", "allclose",
    "nan_to_num", "logaddexp", "linalg.cholesky", "linalg.pinv", "linalg.inv", "linalg.eigvalsh",
    "linalg.matrix_rank", "fft.ifft", "fft.irfft", "fft.fft2", "fft.rfftfreq",
    # np.polynomial's modules, np.emath
    "polynomial.chebyshev.chebline", "polynomial.chebyshev.cheb2poly", "polynomial.polynomial.polyval",
    "polynomial.legendre.legfit", "emath.sqrt", "emath.log",
    # ndarray's methods and properties
    "ndarray.T", "ndarray.flat", "ndarray.tolist", "ndarray.shape", "ndarray.strides", "ndarray.transpose",
]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_numpy_docstring_examples(name):
    report = doc_examples.check_function(name)
    failures = [f"{o.source.splitlines()[0]!r}: {o.reason}" for o in report.failures]
    assert not failures, f"{name}: NumPy's examples differ under kdsl:\n" + "\n".join(failures)
    assert report.count("pass") > 0, f"{name}: no example of NumPy's ran"


def test_comparison_catches_differences():
    """The machinery fails what differs: value, shape, dtype kind, a missing exception; and tolerates kdsl's
    deliberate differences (float32/int32 defaults, 0-d arrays for scalars, lists for tuples)."""
    import numpy as np

    import kdsl as kd

    compare = doc_examples.compare
    assert compare(np.arange(3.0), kd.arange(3, dtype=kd.float32)) is None
    assert compare(np.float64(2.5), kd.asarray(2.5)) is None
    assert compare((np.zeros(2), 1), [kd.zeros(2), 1]) is None
    assert compare(np.array([1.0, np.nan]), kd.asarray([1.0, np.nan])) is None
    assert compare(np.arange(3), kd.arange(4)) is not None
    assert compare(np.arange(3), kd.arange(3.0)) is not None  # int vs float kind
    assert compare(np.arange(3.0), kd.asarray([0.0, 1.0, 2.5])) is not None
    assert compare(np.zeros(3, np.float16), kd.zeros(3, dtype=kd.float32)) is not None  # not the default width
    assert doc_examples.compare_exceptions(ValueError(), TypeError()) is not None
    assert doc_examples.compare_exceptions(ValueError(), np.exceptions.AxisError(1, 1)) is None
