"""``kd.linalg``: the array API's linear algebra extension and NumPy's ``linalg`` on the GPU, batched over
leading axes, float32 and float64 (see docs/linalg.md for the algorithms and tolerances).

Factorisations run as kdsl GPU kernels (:mod:`kdsl.linalg.kernels`): LU with partial pivoting
(``solve``, ``inv``, ``det``, ``slogdet``), Cholesky, Householder QR, Jacobi ``eigh`` and one-sided Jacobi
``svd``; the products and norms are kdsl array expressions. This package uses only kdsl's public API
(with ``kdsl.kp``'s Algorithms and Sequences to replay a factorisation's recorded launches:
:mod:`kdsl.linalg.graph`).

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.array([[4.0, 1.0], [1.0, 3.0]]))
    >>> np.allclose(kd.linalg.inv(a).numpy() @ a.numpy(), np.eye(2))
    True
"""

from kdsl.linalg.common import EighResult, EigResult, LinAlgError, QRResult, SlogdetResult, SVDResult
from kdsl.linalg.cond import cond
from kdsl.linalg.derivatives import cholesky, det, eigh, eigvalsh, inv, qr, slogdet, solve, svdvals
from kdsl.linalg.derivatives_least_squares import lstsq, pinv
from kdsl.linalg.derivatives_spectral import eig, eigvals, svd
from kdsl.linalg.norms import matrix_norm, norm, vector_norm
from kdsl.linalg.products import (
    cross,
    diagonal,
    matmul,
    matrix_power,
    matrix_transpose,
    multi_dot,
    outer,
    tensordot,
    trace,
    vecdot,
)
from kdsl.linalg.svd import matrix_rank
from kdsl.linalg.tensor_solve import tensorinv, tensorsolve

__all__ = [
    "EigResult", "EighResult", "LinAlgError", "QRResult", "SVDResult", "SlogdetResult", "cholesky", "cond", "cross",
    "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv", "lstsq", "matmul", "matrix_norm", "matrix_power",
    "matrix_rank", "matrix_transpose", "multi_dot", "norm", "outer", "pinv", "qr", "slogdet", "solve", "svd",
    "svdvals", "tensordot", "tensorinv", "tensorsolve", "trace", "vecdot", "vector_norm",
]
