"""Runs NumPy's own docstring examples against kdsl and reports where kdsl's values differ.

For every public callable that exists both in NumPy and in kdsl (top level, ``linalg``, ``fft``, ``emath``, the
``polynomial`` modules, and ndarray's methods), the ``>>>``
examples of NumPy's docstring run twice, in order, in two fresh namespaces: once with ``np`` bound to NumPy, once
with ``np`` bound to kdsl (``import numpy as np`` and ``from numpy[.linalg|.fft] import ...`` are rewritten to kdsl;
a bare ``import numpy`` keeps NumPy). The value of each expression statement (or the arguments of a ``print``
call) is compared: same shape, a compatible dtype (same kind; kdsl's float32/int32/complex64 defaults may stand
for NumPy's 64-bit types, docs/numpy-api.md "Deliberate differences"), values equal (floats: close, NaN equal
NaN). 0-d kdsl arrays stand for NumPy scalars, lists for tuples. Where NumPy raises, kdsl must raise the same
exception class. Random inputs are drawn by NumPy and handed to kdsl as arrays (kdsl's streams differ).

Examples out of kdsl's scope are skipped with a reason (strings, object/datetime/structured dtypes, ``np.ma``,
printing options, matplotlib, file I/O, ``np.lib`` internals, long double); so are later examples that use a
name such an example (or a failed one) assigned.

Run from the repository root::

    PYTHONPATH=$PWD python3 scripts/numpy_doc_examples.py            # all functions, a summary
    PYTHONPATH=$PWD python3 scripts/numpy_doc_examples.py sum cumsum linalg.norm -v   # some, every difference
    PYTHONPATH=$PWD python3 scripts/numpy_doc_examples.py --failing  # only the functions with a failure

``tests/api/test_numpy_doc_examples.py`` runs :func:`check_function` on the functions whose examples all pass.
"""

from __future__ import annotations

import argparse
import ast
import copy
import doctest
import io
import re
import signal
import sys
import types
import warnings
from collections import Counter
from collections.abc import Iterator
from contextlib import redirect_stdout
from dataclasses import dataclass, field
from typing import Any

import numpy

import kdsl

# (report prefix, NumPy namespace, kdsl namespace); ndarray's methods and properties are checked as well.
MODULES = (("", numpy, kdsl), ("linalg.", numpy.linalg, kdsl.linalg), ("fft.", numpy.fft, kdsl.fft),
           ("ndarray.", numpy.ndarray, kdsl.ndarray), ("emath.", numpy.emath, kdsl.emath)) + tuple(
    (f"polynomial.{kind}.", getattr(numpy.polynomial, kind), getattr(kdsl.polynomial, kind))
    for kind in ("polynomial", "chebyshev", "legendre", "hermite", "hermite_e", "laguerre"))
# ``import numpy.X`` / ``from numpy.X import`` become kdsl's in the kdsl run for these submodules.
KDSL_SUBMODULES = {"linalg", "fft", "emath", "polynomial", "polynomial.polynomial", "polynomial.chebyshev",
                   "polynomial.legendre", "polynomial.hermite", "polynomial.hermite_e", "polynomial.laguerre",
                   "polynomial.polyutils"}
_KDSL_MODULES = {"numpy"} | {f"numpy.{m}" for m in KDSL_SUBMODULES}

# Whole functions out of scope: their examples show text or set printing state.
SKIP_FUNCTIONS = {
    "array2string": "printing (repr text)",
    "array_repr": "printing (repr text)",
    "array_str": "printing (repr text)",
    "set_printoptions": "printing options",
    "get_printoptions": "printing options",
    "printoptions": "printing options",
    "info": "printing (help text)",
    "show_config": "printing (build information)",
    "show_runtime": "printing (build information)",
    "test": "NumPy's test runner",
}

# An example whose source matches one of these is out of scope (the reason is reported).
SKIP_SOURCE = [
    (r"\bnp\.ma\b|\bmasked\b|numpy\.ma\b", "masked arrays (np.ma)"),
    (r"\bnp\.(char|strings|rec)\b|StringDType|\bstr_\b|\bbytes_\b|dtype=['\"]?[<>|]?[USa]\d*['\"]", "strings"),
    (r"datetime|timedelta|\bbusday|\bbusdaycalendar", "datetimes"),
    (r"dtype=object|dtype=['\"]O['\"]|\bobject_\b", "object dtype"),
    (r"printoptions|array2string|np\.format_float|legacy=", "printing options"),
    (r"matplotlib|\bplt\.", "matplotlib"),
    (r"\bopen\(|tofile|fromfile|\bnp\.(save|savez|load|loadtxt|savetxt|genfromtxt|fromregex|memmap)\b"
     r"|tempfile|StringIO|BytesIO|TemporaryFile|\bos\.", "file I/O"),
    (r"\bnp\.lib\b|numpy\.lib\b|\bnp\._core\b|__array_interface__|\.ctypes\b|__array_priority__", "np.lib internals"),
    (r"longdouble|float128|complex256|clongdouble|float96|longfloat", "long double"),
    (r"\bnp\.(matrix|asmatrix|bmat)\b|recarray", "np.matrix / np.recarray"),
    (r"np\.dtype\(\s*[\[{(]|dtype=\[|dtype=np\.dtype\(\(|['\"]\w+, *\(\d", "structured dtype"),
    (r"['\"][<>|]?[SU]\d*['\"]", "strings"),
    (r"\bid\(", "object identity"),
    (r"newbyteorder|['\"][<>][iufc]\d", "non-native byte order"),
    (r"\btime\.|timeit|perf_counter", "timing"),
    (r"assert not np\.all\(a ?== ?b\)", "overwrite_input=True leaves the input unspecified"),
    (r"(seterr|errstate)\(.*['\"](raise|call|log)['\"]|seterrcall",
     "floating-point error traps (GPU arithmetic has no error flags: kdsl refuses them)"),
    (r"\bnp\.(ctypeslib|f2py|distutils|typing|dtypes)\b", "np.lib internals"),
    (r"\bsys\.getsizeof|\.nbytes\b.*\bsys\b|\bgc\.", "np.lib internals"),
]

RANDOM_SOURCE = re.compile(r"\bnp\.random\b|\brng\b|default_rng|RandomState|\brandom\.")

EXCLUDED_KINDS = {"U": "strings", "S": "strings", "O": "object dtype", "M": "datetimes", "m": "datetimes",
                  "V": "structured dtype"}

# Functions whose results NumPy leaves unspecified beyond shape and dtype (uninitialised memory, any valid
# partition); an example whose expected output says "may vary" is compared the same way.
VALUES_UNSPECIFIED = {"empty", "empty_like", "partition", "argpartition"}

# Examples whose difference is one of kdsl's deliberate ones (docs/numpy-api.md "Deliberate differences"):
# (function, the start of the example's source) -> why. They are reported as skipped with that reason.
_F32 = "float32 default: Python floats make float32"
DELIBERATE = {
    ("arange", "print(x2)"): "int32 default: n ** 5 wraps in int32 (NumPy's own example shows int64 wrapping)",
    ("allclose", "np.allclose([1e10,1e-8], [1.00001e10,1e-9])"): _F32 + " (1.00001e10 rounds)",
    ("isclose", "np.isclose([1e10,1e-7], [1.00001e10,1e-8])"): _F32 + " (1.00001e10 rounds)",
    ("isclose", "np.isclose([1e10,1e-8], [1.00001e10,1e-9])"): _F32 + " (1.00001e10 rounds)",
    ("isclose", "np.isclose([1e-100, 1e-7], [0.0, 0.0], atol=0.0)"): _F32 + " (1e-100 underflows to 0)",
    ("nan_to_num", "np.nan_to_num(np.inf)"): _F32 + " (inf becomes float32's max)",
    ("nan_to_num", "np.nan_to_num(-np.inf)"): _F32 + " (-inf becomes float32's min)",
    ("nan_to_num", "np.nan_to_num(x)"): _F32 + " (inf becomes float32's max)",
    ("nan_to_num", "np.nan_to_num(y)"): _F32 + " (inf becomes float32's max)",
    ("logaddexp", "prob12"): _F32 + " (log(1e-50): 1e-50 underflows to 0)",
    ("logaddexp2", "prob1, prob2, prob12"): _F32 + " (log2(1e-50): 1e-50 underflows to 0)",
    ("isin", "np.isin(element, test_set)"): "a set as test_elements raises TypeError naming list(s) (NumPy reads it "
                                               "as one object: every answer False, its documented pitfall)",
    ("prod", "np.prod(x).dtype == int"): "int32 default: the product of int8 is the default int, int32",
    ("real_if_close", "np.real_if_close([2.1 + 4e-13j"): "complex64 default: 4e-13 is within 1000 float32 eps",
    ("mintypecode", "np.mintypecode(x)"): "complex64 default: np.array([1.1, 2-3.j]) is complex64 ('F')",
    ("can_cast", "np.can_cast(np.float64, complex)"): "complex64 default: dtype complex is complex64",
    ("tan", "np.tan(np.array([-pi,pi/2,pi]))"): _F32 + " (pi/2 in float32 is not pi/2)",
    ("tanh", "np.tanh((0, np.pi*1j, np.pi*1j/2))"): _F32 + " (pi/2 in complex64 is not pi/2)",
    ("nextafter", "np.nextafter([1, 2], [2, 1]) == [eps + 1, 2 - eps]"): "float32 default: int input gives "
                                                                            "float32, eps is float64's",
    ("trim_zeros", "np.trim_zeros([0, 1, 2, 0])"): "documented: trim_zeros of a list returns a kdsl array",
    ("einsum", "a"): "views are values: einsum('ii->i', a)[:] = 1 does not write into a",
    ("unique_values", "np.unique_values([1, 1, 2])"): "order unspecified (NumPy hashes; kdsl sorts)",
    ("linalg.eig", "eigenvalues"): "eigenvalue order unspecified (LAPACK's)",
    ("linalg.eig", "eigenvectors"): "eigenvalue order unspecified (LAPACK's)",
    ("linalg.eigvals", "LA.eigvals(A)"): "eigenvalue order unspecified (LAPACK's)",
    ("linalg.eigh", "wb"): "eig's eigenvalue order unspecified (LAPACK's)",
    ("linalg.eigh", "vb"): "eig's eigenvalue order unspecified (LAPACK's)",
    ("linalg.eigvalsh", "wb"): "eig's eigenvalue order unspecified (LAPACK's)",
    ("ndarray.getfield", "x.getfield(np.float64)"): "complex64 default: the bytes are two float32s",
    ("ndarray.getfield", "x.getfield(np.float64, offset=8)"): "complex64 default: the bytes are two float32s",
    ("ndarray.setfield", "x.getfield(np.float64)"): "float32 default: np.eye(3) is float32",
    ("ndarray.setfield", "x"): "float32 default: np.eye(3) is float32, setfield(3, np.int32) writes its bits",
    ("ndarray.setflags", "y.setflags(write=0, align=0)"): "documented: kdsl arrays are always aligned",
    ("ndarray.setflags", "y.flags"): "documented: kdsl arrays are always aligned",
    ("ndarray.shape", "np.zeros((4,2))[::2].shape = (-1,)"): "documented: a view of an unwritten lazy constant "
                                                             "(kd.zeros) has no layout; a strided view of data raises",
    ("emath.log", "np.emath.log(-np.exp(1)) == (1 + np.pi * 1j)"): _F32 + " (exact == of a complex64 result)",
    ("linalg.inv", "np.allclose(a @ ainv, np.eye(2))"): _F32 + " (float32 rounding exceeds allclose's atol)",
    ("linalg.inv", "np.allclose(ainv @ a, np.eye(2))"): _F32 + " (float32 rounding exceeds allclose's atol)",
    ("linalg.inv", "inv(a)  # No errors raised"): "an exactly singular matrix: rounding noise either way",
    ("linalg.inv", "a @ inv(a)"): "an exactly singular matrix: rounding noise either way",
    ("linalg.inv", "cond(a)"): "an exactly singular matrix: rounding noise either way",
    ("linalg.inv", "sigma.max()/sigma.min()"): "an exactly singular matrix: rounding noise either way",
}

# kdsl refuses these dtypes with a TypeError saying so: an example that needs them is out of scope.
REFUSED_DTYPE = re.compile(r"dtype (<U|\|S|\|V|object|\[\(|\(numpy)|of dtype (<U|\|S|object)|[<|]\w* is not supported")

TIMEOUT_S = 60


class ExampleTimeout(Exception):
    """An example ran past TIMEOUT_S."""


@dataclass
class Outcome:
    """What one ``>>>`` example gave: 'pass', 'fail' or 'skip', with a reason for the last two."""

    status: str
    source: str
    reason: str = ""


@dataclass
class FunctionReport:
    """The outcomes of one function's examples."""

    name: str
    outcomes: list[Outcome] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(o.status == status for o in self.outcomes)

    @property
    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == "fail"]


# ---------------------------------------------------------------------------------------------------- functions


def function_pairs() -> Iterator[tuple[str, Any, Any]]:
    """(name, NumPy object, kdsl object) for every public callable both have (and ndarray's properties with
    examples), each NumPy object once."""
    seen: set[int] = set()
    for prefix, np_mod, kd_mod in MODULES:
        for name in sorted(dir(np_mod)):
            if name.startswith("_"):
                continue
            np_obj = getattr(np_mod, name, None)
            if np_obj is None or isinstance(np_obj, types.ModuleType):
                continue
            if not callable(np_obj) and not (prefix == "ndarray." and examples_of(np_obj)):
                continue
            try:
                kd_obj = getattr(kd_mod, name)
            except Exception:
                continue
            if id(np_obj) in seen:
                continue
            seen.add(id(np_obj))
            yield prefix + name, np_obj, kd_obj


def lookup(name: str) -> tuple[Any, Any]:
    """The NumPy and kdsl objects called ``name`` ('sum', 'linalg.norm')."""
    np_obj: Any = numpy
    kd_obj: Any = kdsl
    for part in name.split("."):
        np_obj, kd_obj = getattr(np_obj, part), getattr(kd_obj, part)
    return np_obj, kd_obj


def examples_of(np_obj: Any) -> list[doctest.Example]:
    doc = getattr(np_obj, "__doc__", None) or ""
    try:
        return doctest.DocTestParser().get_examples(doc)
    except ValueError:  # a malformed docstring
        return []


# ---------------------------------------------------------------------------------------------------- execution


class _ToKdsl(ast.NodeTransformer):
    """Rewrites ``import numpy as np`` and ``from numpy[.linalg|.fft|.polynomial...] import ...`` to kdsl."""

    def visit_Import(self, node: ast.Import) -> ast.AST:
        for alias in node.names:
            if alias.asname is not None and alias.name in _KDSL_MODULES:
                alias.name = "kdsl" + alias.name[len("numpy"):]
        return node

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.AST:
        if node.module in _KDSL_MODULES:
            node.module = "kdsl" + node.module[len("numpy"):]
        return node


def stored_names(tree: ast.AST) -> set[str]:
    """Names a statement binds or writes into (``a = ...``, ``a[0] = ...``, ``a.x = ...``, ``import a``)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, ast.Store):
            base = node.value
            while isinstance(base, (ast.Subscript, ast.Attribute)):
                base = base.value
            if isinstance(base, ast.Name):
                out.add(base.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.add(node.name)
    return out


def loaded_names(tree: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _alarm(signum: int, frame: Any) -> None:
    raise ExampleTimeout(f"ran past {TIMEOUT_S} s")


def run_source(tree: ast.Module, ns: dict[str, Any]) -> tuple[str, Any]:
    """Runs a parsed example in ``ns``: ('value', v) for a final expression (the arguments of a final ``print``),
    ('none', None) for statements, ('raise', exc) where it raises."""
    body = list(tree.body)
    last = body[-1] if body else None
    value_expr: ast.expr | None = None
    if isinstance(last, ast.Expr):
        body = body[:-1]
        value_expr = last.value
        call = value_expr
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "print":
            value_expr = ast.Tuple(elts=list(call.args), ctx=ast.Load()) if call.args else None
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIMEOUT_S)
    try:
        with warnings.catch_warnings(), redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            if body:
                exec(compile(ast.fix_missing_locations(ast.Module(body=body, type_ignores=[])), "<ex>", "exec"), ns)
            if value_expr is None:
                return "none", None
            expr = ast.fix_missing_locations(ast.Expression(body=value_expr))
            value = eval(compile(expr, "<ex>", "eval"), ns)
            if isinstance(value, (Iterator, types.GeneratorType)) and not hasattr(value, "__array__"):
                value = list(value)  # np.ndenumerate & co.: compare what they yield
            return "value", value
    except ExampleTimeout as e:
        return "raise", e
    except Exception as e:  # noqa: BLE001 - any exception is an outcome to compare
        return "raise", e
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


# ---------------------------------------------------------------------------------------------------- comparison

_WIDTH_TOLERANT = {("f", 4, 8), ("i", 4, 8), ("u", 4, 8), ("c", 8, 16)}


def dtypes_compatible(want: numpy.dtype, got: numpy.dtype) -> bool:
    if want == got:
        return True
    if want.kind != got.kind:
        return False
    sizes = tuple(sorted((want.itemsize, got.itemsize)))
    return (want.kind, *sizes) in _WIDTH_TOLERANT


def _as_host(value: Any) -> Any:
    """A kdsl array as a NumPy array; other values as they are."""
    if isinstance(value, kdsl.Array):
        return value.numpy()
    return value


def _is_dtype_like(value: Any) -> bool:
    return isinstance(value, (numpy.dtype, kdsl.dtype)) or (isinstance(value, type) and issubclass(
        value, numpy.generic)) or type(value).__name__ == "DType"


def compare(want: Any, got: Any, path: str = "value", values: bool = True) -> str | None:
    """None where ``got`` (kdsl) matches ``want`` (NumPy), else the first difference in words (with
    ``values=False``, of arrays only the shapes and dtypes count)."""
    got = _as_host(got)
    if want is None or got is None:
        return None if want is got else f"{path}: NumPy gives {want!r}, kdsl {got!r}"
    if isinstance(want, (list, tuple)) and not hasattr(want, "dtype"):
        if not isinstance(got, (list, tuple)):
            return f"{path}: NumPy gives a {type(want).__name__}, kdsl a {type(got).__name__}"
        if len(want) != len(got):
            return f"{path}: NumPy gives {len(want)} items, kdsl {len(got)}"
        for i, (w, g) in enumerate(zip(want, got, strict=True)):
            diff = compare(w, g, f"{path}[{i}]", values)
            if diff:
                return diff
        return None
    if isinstance(want, dict):
        if not isinstance(got, dict) or set(want) != set(got):
            return f"{path}: NumPy gives dict keys {sorted(map(str, want))}, kdsl {got!r}"
        for k in want:
            diff = compare(want[k], got[k], f"{path}[{k!r}]", values)
            if diff:
                return diff
        return None
    if isinstance(want, str) or isinstance(got, str):
        return None if want == got else f"{path}: NumPy gives {want!r}, kdsl {got!r}"
    if isinstance(want, type) and not issubclass(want, numpy.generic) and isinstance(got, type):
        same = want.__name__ == got.__name__ or got is getattr(kdsl, want.__name__, None)  # kd.flatiter & co.
        return None if same else f"{path}: NumPy gives {want!r}, kdsl {got!r}"
    if isinstance(want, type) and issubclass(want, numpy.generic) and got is kdsl.Array:
        return None  # type(numpy scalar) vs type(0-d kdsl array): a deliberate difference
    if _is_dtype_like(want):
        try:
            w, g = numpy.dtype(want), numpy.dtype(got)
        except Exception:
            return f"{path}: NumPy gives dtype {want!r}, kdsl {got!r}"
        return None if dtypes_compatible(w, g) else f"{path}: NumPy gives dtype {w}, kdsl {g}"
    if isinstance(want, (int, float, complex, numpy.generic, numpy.ndarray)) or hasattr(want, "__array__"):
        return _compare_arrays(want, got, path, values)
    if hasattr(want, "coef") and hasattr(want, "domain") and hasattr(got, "coef"):  # np.polynomial's classes
        if type(want).__name__ != type(got).__name__:
            return f"{path}: NumPy gives a {type(want).__name__}, kdsl a {type(got).__name__}"
        return compare((want.coef, want.domain, want.window), (got.coef, got.domain, got.window), path, values)
    if type(want).__name__ == type(got).__name__ and hasattr(want, "__dict__"):
        return compare(vars(want), vars(got), path) if vars(want) else None
    return None if repr(want) == repr(got) else f"{path}: NumPy gives {want!r}, kdsl {got!r}"


def _compare_arrays(want: Any, got: Any, path: str, values: bool = True) -> str | None:
    try:
        w = numpy.asarray(want)
        g = numpy.asarray(got)
    except Exception as e:
        return f"{path}: kdsl's {type(got).__name__} does not convert to an array ({e})"
    if isinstance(got, (list, tuple)) and w.ndim == 0:
        return f"{path}: NumPy gives a scalar, kdsl a {type(got).__name__}"
    if w.shape != g.shape:
        return f"{path}: shape {w.shape} (NumPy) vs {g.shape} (kdsl)"
    if not dtypes_compatible(w.dtype, g.dtype):
        return f"{path}: dtype {w.dtype} (NumPy) vs {g.dtype} (kdsl)"
    if not values:
        return None
    if w.dtype.kind in "biu":
        ok = bool(numpy.array_equal(w, g))
    else:
        with numpy.errstate(all="ignore"):
            scale = float(numpy.max(numpy.abs(w[numpy.isfinite(w)]), initial=1.0))
            ok = bool(numpy.allclose(g, w, rtol=1e-4, atol=1e-5 * scale, equal_nan=True))
            # Signed infinities and NaN positions must agree too (allclose treats them right already).
    if ok:
        return None
    shown = numpy.array2string(g, threshold=20, precision=6)
    want_shown = numpy.array2string(w, threshold=20, precision=6)
    return f"{path}: NumPy {want_shown} vs kdsl {shown}"


def compare_exceptions(want: BaseException, got: BaseException) -> str | None:
    if isinstance(got, type(want)) or type(got).__name__ == type(want).__name__:
        return None
    return f"NumPy raises {type(want).__name__}, kdsl {type(got).__name__}: {got}"


# ---------------------------------------------------------------------------------------------------- one docstring


def _skip_reason(source: str, example: doctest.Example) -> str | None:
    if example.options.get(doctest.SKIP):
        return "doctest +SKIP"
    for pattern, reason in SKIP_SOURCE:
        if re.search(pattern, source):
            return reason
    return None


def _excluded_kind(value: Any) -> str | None:
    """A reason where a NumPy value holds strings, objects, datetimes or records."""
    if isinstance(value, (list, tuple)):
        for v in value:
            r = _excluded_kind(v)
            if r:
                return r
        return None
    kind = getattr(getattr(value, "dtype", None), "kind", None)
    if isinstance(kind, str) and kind in EXCLUDED_KINDS:
        return EXCLUDED_KINDS[kind]
    if isinstance(value, (str, bytes)) and False:
        return "strings"
    return None


def _to_kdsl(value: Any) -> Any:
    if isinstance(value, numpy.ndarray):
        return kdsl.asarray(value)
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return type(value)(_to_kdsl(v) for v in value)
    return value


def check_function(name: str) -> FunctionReport:
    """Runs the examples of NumPy's ``name`` with NumPy and with kdsl and compares them."""
    report = FunctionReport(name)
    if name.split(".")[-1] in SKIP_FUNCTIONS:
        report.outcomes.append(Outcome("skip", "", SKIP_FUNCTIONS[name.split(".")[-1]]))
        return report
    np_obj, _ = lookup(name)
    np_ns: dict[str, Any] = {"np": numpy, "__name__": "__doc_example__"}
    kd_ns: dict[str, Any] = {"np": kdsl, "__name__": "__doc_example__"}
    tainted: dict[str, str] = {}  # name -> why later examples that read it are skipped
    values = name.split(".")[-1] not in VALUES_UNSPECIFIED
    with numpy.errstate(), kdsl.errstate():  # examples call np.seterr: each function starts afresh
        old_call = numpy.geterrcall()
        try:
            for example in examples_of(np_obj):
                _record(report, name, example, np_ns, kd_ns, tainted, values)
        finally:
            numpy.seterrcall(old_call)
    return report


def _record(report: FunctionReport, name: str, example: doctest.Example, np_ns: dict[str, Any],
            kd_ns: dict[str, Any], tainted: dict[str, str], values: bool) -> None:
    source = example.source.strip()
    outcome = _check_example(example, source, np_ns, kd_ns, tainted, values and "may vary" not in example.want)
    deliberate = next((why for (fn, start), why in DELIBERATE.items() if fn == name and
                       (source == start or (len(start) > 12 and source.startswith(start)))), None)
    if outcome.status == "fail" and deliberate:
        outcome = Outcome("skip", source, f"deliberate difference: {deliberate}")
    if outcome.status == "pass":  # a name bound again is no longer tainted
        for n in stored_names(ast.parse(source)):
            tainted.pop(n, None)
    report.outcomes.append(outcome)


def _check_example(example: doctest.Example, source: str, np_ns: dict[str, Any], kd_ns: dict[str, Any],
                   tainted: dict[str, str], values: bool = True) -> Outcome:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return Outcome("skip", source, "not Python")
    stores = stored_names(tree)

    def skip(reason: str) -> Outcome:
        for n in stores:
            tainted[n] = reason
        return Outcome("skip", source, reason)

    reason = _skip_reason(source, example)
    if reason:
        return skip(reason)
    hit = sorted(loaded_names(tree) & set(tainted))
    if hit:
        return skip(f"uses {hit[0]!r} ({tainted[hit[0]]})")
    want_raise = example.exc_msg is not None
    if RANDOM_SOURCE.search(source) and not want_raise:
        return _run_random(tree, source, np_ns, kd_ns, stores, skip)
    np_kind, np_value = run_source(copy.deepcopy(tree), np_ns)
    if np_kind == "raise" and not want_raise:
        return skip(f"NumPy itself raises here ({type(np_value).__name__}: {np_value})")
    excluded = _excluded_kind(np_value) or next(
        (r for n in stores if n in np_ns for r in [_excluded_kind(np_ns[n])] if r), None)
    if excluded:
        return skip(excluded)
    kd_tree = _ToKdsl().visit(copy.deepcopy(tree))
    kd_kind, kd_value = run_source(kd_tree, kd_ns)
    if np_kind == "raise":
        if kd_kind != "raise":
            return skip_fail(stores, tainted, source, f"NumPy raises {type(np_value).__name__}, kdsl does not")
        diff = compare_exceptions(np_value, kd_value)
        return Outcome("fail", source, diff) if diff else Outcome("pass", source)
    if kd_kind == "raise" and REFUSED_DTYPE.search(str(kd_value)):
        return skip("strings, objects or records (kdsl refuses the dtype)")
    if kd_kind == "raise":
        return skip_fail(stores, tainted, source, f"kdsl raises {type(kd_value).__name__}: {kd_value}")
    if np_kind == "none":
        return Outcome("pass", source)
    try:
        diff = compare(np_value, kd_value, values=values)
    except Exception as e:  # noqa: BLE001
        diff = f"comparison failed: {type(e).__name__}: {e}"
    return Outcome("fail", source, diff) if diff else Outcome("pass", source)


def skip_fail(stores: set[str], tainted: dict[str, str], source: str, reason: str) -> Outcome:
    """A failure whose assigned names later examples skip (they would fail for the same reason)."""
    for n in stores:
        tainted[n] = "an earlier failure"
    return Outcome("fail", source, reason)


def _run_random(tree: ast.Module, source: str, np_ns: dict[str, Any], kd_ns: dict[str, Any], stores: set[str],
                skip: Any) -> Outcome:
    """Random draws run in NumPy only; the arrays they assign are handed to kdsl."""
    if not all(isinstance(s, (ast.Assign, ast.Import, ast.ImportFrom)) for s in tree.body):
        return skip("random output (kdsl's streams differ)")
    kind, value = run_source(tree, np_ns)
    if kind == "raise":
        return skip(f"NumPy itself raises here ({type(value).__name__}: {value})")
    for n in stores:
        if n in np_ns:
            kd_ns[n] = _to_kdsl(np_ns[n])
    return Outcome("pass", source)


# ---------------------------------------------------------------------------------------------------- report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="functions to check (default: all)")
    parser.add_argument("-v", "--verbose", action="store_true", help="every failure, with its example")
    parser.add_argument("--failing", action="store_true", help="list only functions with a failure")
    args = parser.parse_args(argv)
    names = args.names or [n for n, _, _ in function_pairs()]
    totals: Counter[str] = Counter()
    skip_reasons: Counter[str] = Counter()
    clean: list[str] = []
    for name in names:
        report = check_function(name)
        for o in report.outcomes:
            totals[o.status] += 1
            if o.status == "skip":
                skip_reasons["uses a name a skipped or failed example set" if o.reason.startswith("uses ")
                             else o.reason] += 1
        n_pass, n_fail, n_skip = report.count("pass"), report.count("fail"), report.count("skip")
        if n_fail == 0 and n_pass > 0:
            clean.append(name)
        if args.failing and n_fail == 0:
            continue
        first = report.failures[0] if report.failures else None
        line = f"{name:32s} pass {n_pass:3d} fail {n_fail:3d} skip {n_skip:3d}"
        if first:
            line += f"   {first.source.splitlines()[0][:60]!r}: {first.reason[:200]}"
        print(line, flush=True)
        if args.verbose:
            for o in report.failures[1:]:
                print(f"{'':32s}   {o.source.splitlines()[0][:60]!r}: {o.reason[:300]}")
    print(f"\n{len(names)} functions, {sum(totals.values())} examples: {totals['pass']} passed, "
          f"{totals['fail']} failed, {totals['skip']} skipped; {len(clean)} functions pass all their examples")
    print("skip reasons:")
    for reason, n in skip_reasons.most_common():
        print(f"  {n:4d}  {reason[:150]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
