"""kd's packages built on the public API (kd.fft, kd.linalg, kd.polynomial, kd.nn, kd.optim, kd.testing, kd.typing,
kd.exceptions, kd.ma) and the NumPy functions that live in them (convolve, cross, polyfit...): their kernels are
kd.raw_kernels and their code uses ``import kdsl as kd``, so kdsl/__init__.py imports this module after the other
namespace_* modules, once the names they use are in place.

Only kdsl/__init__.py imports this module (``from kdsl.namespace_packages import *``): ``kd.<name>`` is
the public spelling, and the names are listed in kdsl's ``__all__``.
"""

# ruff: noqa: F401 - every import here is a re-export
# The order below is the order in which the packages build on each other: no sorting.
# isort: skip_file

from kdsl import fft, linalg
from kdsl.fft.convolve import convolve, correlate
from kdsl.frontend.array.polydiv import polydiv
from kdsl.linalg.numpy_cross import cross  # NumPy's np.cross, on kd.linalg.cross
from kdsl.linalg.poly1d import poly1d
from kdsl.linalg.poly_roots import poly, roots  # companion matrices: kd.linalg.eigvals
from kdsl.linalg.polyfit import polyfit  # least squares: kd.linalg.lstsq
from kdsl import polynomial  # kd.polynomial: NumPy's np.polynomial, on kd.linalg

# kd.nn and kd.optim are built on the public API (`import kdsl as kd` inside them), so they come last.
from kdsl import nn, optim
from kdsl import testing  # kd.testing: NumPy's assertions on host copies; built on the public API
from kdsl import typing  # kd.typing: numpy.typing's names, NDArray on kd.ndarray
from kdsl import exceptions  # kd.exceptions: numpy.exceptions' classes, which kdsl raises
from kdsl import ma  # kd.ma: NumPy's masked arrays (numpy.ma), on the public API
