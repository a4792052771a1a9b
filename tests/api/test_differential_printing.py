"""A seeded differential test of printing and of the scalars kdsl's 0-d results stand for, against NumPy.

Three families of fixed-seed random cases, as the fuzzing session (fuzzprint31) ran them:

* ``text``: ``str``, ``repr``, ``format``, ``array2string`` (separator, prefix, suffix, max_line_width,
  formatter...), ``array_str``/``array_repr`` (kdsl's and NumPy's, which dispatch to kdsl's) and ``tolist()``
  of arrays of every dtype (0-d, empty, long enough to summarise, 2-D/3-D, strided and broadcast views, NaN,
  infinities, -0.0, huge, tiny and mixed magnitudes, integer extremes) under random print options (precision,
  suppress, threshold, edgeitems, linewidth, floatmode, sign, formatter, nanstr/infstr, legacy) set through
  ``kd.printoptions``. A kdsl repr is NumPy's layout with ``kd.array(`` and the dtype always named, so the oracle
  is NumPy's repr of an ndarray subclass named ``kd.array`` with NumPy's ``dtype_is_implied`` answering False.
* ``protocols``: what Python does with a 0-d result (``a[i]``, a reduction, a reversed read) against NumPy's
  scalar: ``str``, f-strings and format specs, ``float int complex bool hash round abs divmod``, ``math.*``,
  ``item()``/``tolist()`` types, ``is_integer``, ``as_integer_ratio``, ``real imag conjugate``, use as an index
  and in ``range``.
* ``arithmetic``: a 0-d result with Python scalars, NumPy scalars, other 0-d results and arrays under every
  operator (NEP 50 result dtypes, overflow errors of out-of-range Python ints, comparisons).

Compared: both raise (kdsl's exception a subclass of NumPy's) or both give the same text / Python type and value;
where NumPy gives a NumPy scalar kdsl gives a 0-d array (docs/numpy-api.md, "0-d arrays for NumPy's scalars")
of the same dtype and value, bit for bit. The draws leave out the other documented differences: Python floats
and complex numbers beside integer or bool operands (float32/complex64, not float64/complex128), Python ints
beside bools (int32), ``isinstance(x, numbers.Number)``, ``np.isscalar`` and sequence repetition by a non-integer.
"""

from __future__ import annotations

import contextlib
import math
import operator
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import numpy._core.arrayprint as arrayprint
import pytest
from differential_testing import DTYPES, Data

import kdsl as kd

BLOCKS = 8
PER_BLOCK = 20
KD_ARRAY = type("kd.array", (np.ndarray,), {})  # NumPy names a subclass's repr after its class
SHAPES = [(), (), (0,), (0, 3), (3, 0), (1,), (5,), (13,), (1001,), (3, 4), (2, 3, 4), (40, 40), (1, 1, 1),
          (1, 300, 5), (9, 9), (2, 0, 2)]
SPECIALS = [np.nan, np.inf, -np.inf, -0.0]
FORMATTERS: list[dict[str, Callable[[Any], str]]] = [
    {"float_kind": lambda x: f"<{x:.2f}>"}, {"int": lambda x: hex(int(x))}, {"all": lambda x: "x"},
    {"bool": lambda x: "T" if x else "F"}, {"complex_kind": lambda x: f"{x.real:.1f}"}]


def _values(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """Values that exercise NumPy's formats: integer extremes; floats of one scale, of many (the scientific
    switch), tiny or huge, with NaN, infinities, -0.0, the largest, the smallest normal and subnormal."""
    n = int(np.prod(shape))
    if dtype.kind == "b":
        return np.asarray(rng.random(shape) < 0.5)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        v = rng.integers(info.min, info.max, n, endpoint=True, dtype=dtype) if rng.random() < 0.5 else \
            rng.integers(max(info.min, -50), 100, n).astype(dtype)
        for extreme in (info.min, info.max):
            if n and rng.random() < 0.4:
                v[rng.integers(n)] = extreme
        return v.reshape(shape)
    scale = [1.0, 1e-9, 1e8, 10.0 ** rng.integers(-12, 12, n)][int(rng.integers(4))]
    v = rng.standard_normal(n) * scale
    v = v.round(1) if rng.random() < 0.3 else v
    if dtype.kind == "c":
        v = v + 1j * rng.standard_normal(n) * 10.0 ** rng.integers(-3, 3)
    with np.errstate(all="ignore"):
        v = v.astype(dtype)
    info = np.finfo(dtype)
    for s in SPECIALS + [info.max, info.smallest_normal, info.smallest_subnormal]:
        if n and rng.random() < 0.15:
            v[rng.integers(n)] = s
    return v.reshape(shape)


def _data(rng: np.random.Generator) -> Data:
    """A random array seen as it is, transposed, reversed, stepped or broadcast along a new axis."""
    dtype = np.dtype(DTYPES[int(rng.integers(len(DTYPES)))])
    base = _values(rng, SHAPES[int(rng.integers(len(SHAPES)))], dtype)
    views: list[Callable[[Any], Any]] = [lambda v: v, lambda v: v.T, lambda v: v[::-1], lambda v: v[..., ::2],
                                         lambda v: v.copy()]
    view = views[int(rng.integers(len(views)))] if base.ndim else views[0]
    if rng.random() < 0.15:
        return Data(base, lambda v, view=view: _broadcast(view(v)))
    return Data(base, view)


def _broadcast(v: Any) -> Any:
    xp = kd if isinstance(v, kd.Array) else np
    return xp.broadcast_to(v, (2, *v.shape))


def _options(rng: np.random.Generator) -> dict[str, Any]:
    draws: dict[str, Callable[[], Any]] = {
        "precision": lambda: int(rng.integers(0, 12)), "suppress": lambda: bool(rng.random() < 0.5),
        "threshold": lambda: int(rng.choice([0, 1, 5, 10, 100, 1000])), "edgeitems": lambda: int(rng.integers(0, 5)),
        "linewidth": lambda: int(rng.integers(5, 150)),
        "floatmode": lambda: str(rng.choice(["fixed", "unique", "maxprec", "maxprec_equal"])),
        "sign": lambda: str(rng.choice(["-", "+", " "])), "formatter": lambda: FORMATTERS[rng.integers(5)],
        "nanstr": lambda: "NaN", "infstr": lambda: "Inf",
        "legacy": lambda: str(rng.choice(["1.13", "1.21", "1.25", "2.1", "2.2"]))}
    return {k: draw() for k, draw in draws.items() if rng.random() < 0.25}


def _a2s_keywords(rng: np.random.Generator) -> dict[str, Any]:
    draws: dict[str, Callable[[], Any]] = {
        "separator": lambda: str(rng.choice([", ", ",", ";"])), "prefix": lambda: "xx(", "suffix": lambda: ")",
        "max_line_width": lambda: int(rng.integers(5, 100)), "precision": lambda: int(rng.integers(0, 6)),
        "threshold": lambda: int(rng.integers(0, 20)), "edgeitems": lambda: int(rng.integers(0, 4)),
        "floatmode": lambda: "fixed", "formatter": lambda: FORMATTERS[rng.integers(5)],
        "sign": lambda: str(rng.choice(["-", "+", " "])), "suppress_small": lambda: bool(rng.random() < 0.5),
        "legacy": lambda: str(rng.choice(["1.13", "1.21", "2.1"]))}
    return {k: draw() for k, draw in draws.items() if rng.random() < 0.25}


def _repr_keywords(rng: np.random.Generator) -> dict[str, Any]:
    draws: dict[str, Callable[[], Any]] = {"max_line_width": lambda: int(rng.integers(5, 100)),
                                           "precision": lambda: int(rng.integers(0, 6)),
                                           "suppress_small": lambda: bool(rng.random() < 0.5)}
    return {k: draw() for k, draw in draws.items() if rng.random() < 0.3}


@contextlib.contextmanager
def _dtype_always_named() -> Iterator[None]:
    """NumPy's repr naming every dtype (it leaves out float64's, int64's, bool's, complex128's), as kdsl's does."""
    implied = arrayprint.dtype_is_implied
    arrayprint.dtype_is_implied = lambda dtype: False
    try:
        yield
    finally:
        arrayprint.dtype_is_implied = implied


def _text_calls(xp: Any, a: Any, a2s: dict[str, Any], rk: dict[str, Any]) -> dict[str, Callable[[], Any]]:
    """The text of ``a`` by every route; on NumPy's side the reprs are of the ``kd.array`` subclass."""
    r = (lambda x, **k: np.array_repr(x.view(KD_ARRAY), **k)) if xp is np else kd.array_repr
    calls = {"str": lambda: str(a), "repr": lambda: r(a), "format": lambda: format(a, ""),
             "array2string": lambda: xp.array2string(a, **a2s), "np.array2string": lambda: np.array2string(a, **a2s),
             "array_str": lambda: xp.array_str(a, **rk), "np.array_str": lambda: np.array_str(a, **rk),
             "array_repr": lambda: r(a, **rk), "tolist": lambda: _typed(a.tolist())}
    if xp is kd:
        calls["np.array_repr"] = lambda: np.array_repr(a, **rk)
    else:
        calls["np.array_repr"] = calls["array_repr"]
    return calls


def _typed(value: Any) -> Any:
    """A nested list with each item's Python type (``tolist`` gives Python scalars, never NumPy's)."""
    return [_typed(v) for v in value] if isinstance(value, list) else (type(value).__name__, repr(value))


def _text_case(rng: np.random.Generator) -> tuple[str, Callable[[Any], dict[str, Any]]]:
    data, options, a2s, rk = _data(rng), _options(rng), _a2s_keywords(rng), _repr_keywords(rng)

    def run(xp: Any) -> dict[str, Any]:
        a = data.view(xp)
        printoptions = np.printoptions if xp is np else kd.printoptions
        with printoptions(**options), _dtype_always_named():
            return {name: _result(call) for name, call in _text_calls(xp, a, a2s, rk).items()}

    shown = {k: v for k, v in options.items() if k != "formatter"}
    return f"{data!r} options={shown} array2string={sorted(a2s)} repr={rk}", run


# --- 0-d results as NumPy scalars -------------------------------------------------------------------------------

def _scalar(rng: np.random.Generator) -> np.ndarray:
    """A length-3 NumPy array of one dtype whose element 1 the cases read (specials and extremes included)."""
    dtype = np.dtype(DTYPES[int(rng.integers(len(DTYPES)))])
    return _values(rng, (3,), dtype)


def _result_of(xp: Any, host: np.ndarray, how: int) -> Any:
    """Element 1 of ``host`` as each library gives it: an element read, a one-element reduction, a reversed read."""
    a = xp.asarray(host)
    return [lambda: a[1], lambda: a[1:2].max(), lambda: a[::-1][1]][how]()


PROTOCOLS: dict[str, Callable[[Any], Any]] = {
    "str": str, "f-string": lambda v: f"{v}", ".3f": lambda v: f"{v:.3f}", "e": lambda v: format(v, "e"),
    ">12": lambda v: format(v, ">12"), "+.2e": lambda v: format(v, "+.2e"), "d": lambda v: format(v, "d"),
    "x": lambda v: format(v, "x"), "g": lambda v: format(v, ".4g"), "float": float, "int": int, "complex": complex,
    "bool": bool, "hash": hash, "round": round, "round(1)": lambda v: round(v, 1), "round(-1)": lambda v: round(v, -1),
    "abs": abs, "neg": operator.neg, "invert": operator.invert, "divmod": lambda v: divmod(v, 3),
    "rdivmod": lambda v: divmod(7, v), "isnan": math.isnan, "floor": math.floor, "ceil": math.ceil,
    "trunc": math.trunc, "item": lambda v: _typed([v.item()]), "tolist": lambda v: _typed([v.tolist()]),
    "is_integer": lambda v: v.is_integer(), "as_integer_ratio": lambda v: v.as_integer_ratio(),
    "real": lambda v: v.real, "imag": lambda v: v.imag, "conjugate": lambda v: v.conjugate(),
    "dtype": lambda v: str(v.dtype), "shape": lambda v: v.shape, "ndim": lambda v: v.ndim,
    "index": operator.index, "list index": lambda v: [10, 20, 30, 40][v], "range": lambda v: list(range(v)[:3]),
    "as index": lambda v: (kd if isinstance(v, kd.Array) else np).arange(10, dtype=np.int64)[v],
    "square": lambda v: v ** 2, "floor_divide 0": lambda v: v // 0, "remainder 0": lambda v: v % 0,
    "max with 0": lambda v: max(v, 0) == v, "in list": lambda v: v in [0, 1, 2]}


def _left_out(name: str, x: np.generic) -> bool:
    """A Python int beside a bool is int32 in kdsl (documented); NumPy indexes with an integer from 2**63 to 2**64
    by raising OverflowError (kdsl: IndexError, out of bounds; both refuse it)."""
    if name in ("divmod", "rdivmod", "square", "floor_divide 0", "remainder 0"):
        return x.dtype.kind == "b"
    return name == "as index" and x.dtype == np.uint64 and int(x) >= 2**63


def _protocol_case(rng: np.random.Generator) -> tuple[str, Callable[[Any], Any]]:
    host, how = _scalar(rng), int(rng.integers(3))
    name = sorted(PROTOCOLS)[int(rng.integers(len(PROTOCOLS)))]
    while _left_out(name, host[1]):
        name = sorted(PROTOCOLS)[int(rng.integers(len(PROTOCOLS)))]
    return f"{name}({host[1]!r} via {['a[1]', 'a[1:2].max()', 'a[::-1][1]'][how]})", \
        lambda xp: _result(lambda: PROTOCOLS[name](_result_of(xp, host, how)))


OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "//": operator.floordiv,
    "%": operator.mod, "**": operator.pow, "<": operator.lt, "==": operator.eq, ">=": operator.ge,
    "&": operator.and_, "|": operator.or_, "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift,
    "divmod": divmod}
PYTHON = [0, 1, -1, 2, 7, 127, 255, 300, 2**31, 2**63 - 1, 2**64, 0.5, -2.5, 1e30, -0.0, math.nan, math.inf,
          True, False, 1 + 2j, -1j]


def _operand(rng: np.random.Generator) -> tuple[str, Callable[[Any], Any], Any]:
    """The other operand: a Python scalar, a NumPy scalar, another 0-d result or a 1-d array (per library)."""
    kind = int(rng.integers(4))
    if kind == 0:
        value = PYTHON[int(rng.integers(len(PYTHON)))]
        return repr(value), lambda xp: value, value
    host, how = _scalar(rng), int(rng.integers(3))
    if kind == 1:
        return f"np.{host.dtype}({host[1]!r})", lambda xp: host[1], host[1]
    if kind == 2:
        return f"0-d {host.dtype} {host[1]!r}", lambda xp: _result_of(xp, host, how), host[1]
    return f"array {host!r}", lambda xp: xp.asarray(host), host


def _documented(x: np.generic, y: Any) -> bool:
    """Python floats and complex numbers beside integer or bool data make float32/complex64 in kdsl, Python ints
    beside bools int32 (docs/numpy-api.md, "Default types"): NumPy's float64/complex128/int64 differ."""
    if type(y) in (float, complex):
        return x.dtype.kind in "biu"
    return type(y) is int and x.dtype.kind == "b"


def _arithmetic_case(rng: np.random.Generator) -> tuple[str, Callable[[Any], Any]]:
    host, how = _scalar(rng), int(rng.integers(3))
    label, other, plain = _operand(rng)
    op, left = sorted(OPERATORS)[int(rng.integers(len(OPERATORS)))], bool(rng.random() < 0.5)
    while _documented(host[1], plain) or (type(plain) is complex and host.dtype == np.float64 and not left):
        # (Python's complex takes np.float64, a float subclass, first: a Python complex or bool comes back)
        label, other, plain = _operand(rng)

    def run(xp: Any) -> Any:
        x, y = _result_of(xp, host, how), other(xp)
        return _result(lambda: OPERATORS[op](x, y) if left else OPERATORS[op](y, x))

    x_label = f"0-d {host.dtype} {host[1]!r}"
    return f"{x_label} {op} {label}" if left else f"{label} {op} {x_label}", run


# --- running and comparing -------------------------------------------------------------------------------------

def _result(call: Callable[[], Any]) -> Any:
    """The call's value as host data (arrays and NumPy scalars as NumPy arrays), or its exception."""
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            value = call()
    except Exception as e:  # noqa: BLE001 - the exception class is compared
        return e
    if isinstance(value, tuple):
        return tuple(_host(v) for v in value)
    return _host(value)


def _host(value: Any) -> Any:
    if isinstance(value, kd.Array):
        return ("array", np.asarray(value.numpy()))
    if isinstance(value, (np.ndarray, np.generic)):
        return ("array", np.asarray(value))
    return value


def _assert_same(want: Any, got: Any, where: str, close: bool = False) -> None:
    """Equal exceptions classes, Python values, or arrays (bit for bit; within a few ulps where ``close``)."""
    if isinstance(want, BaseException):
        assert isinstance(got, type(want)), f"{where}: NumPy raised {want!r}, kdsl gave {got!r}"
        return
    assert not isinstance(got, BaseException), f"{where}: NumPy gave {want!r}, kdsl raised {got!r}"
    if isinstance(want, tuple) and want and want[0] == "array":
        assert isinstance(got, tuple) and got[0] == "array", f"{where}: {want!r} vs {got!r}"
        w, g = want[1], got[1]
        assert (g.shape, g.dtype) == (w.shape, w.dtype), f"{where}: {w!r} vs {g!r}"
        if w.dtype.kind in "fc" and close:  # kdsl's own pow, complex division and abs: docs/complex.md's tolerances
            rtol = {"complex64": 1e-5, "complex128": 1e-13}.get(w.dtype.name, 16 * float(np.finfo(w.dtype).eps))
            scale = float(np.max(np.abs(w[np.isfinite(w)]), initial=0))
            np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol * scale, err_msg=where)
        elif w.dtype.kind in "fc":  # NaN where NumPy's, and the signs of zeros
            g = np.where(_flushed(g, w), w, g)
            assert np.array_equal(g, w, equal_nan=True), f"{where}: {w!r} vs {g!r}"
            signs = ~np.isnan(w.real)  # (a NaN's sign bit is NumPy-build noise)
            assert np.array_equal(np.signbit(g.real)[signs], np.signbit(w.real)[signs]), f"{where}: {w!r} vs {g!r}"
        else:
            assert np.array_equal(g, w), f"{where}: {w!r} vs {g!r}"
        return
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), f"{where}: {want!r} vs {got!r}"
        for w_item, g_item in zip(want, got, strict=True):
            _assert_same(w_item, g_item, where, close)
        return
    assert type(got) is type(want), f"{where}: {want!r} vs {got!r}"
    assert got == want or (got != got and want != want), f"{where}: {want!r} vs {got!r}"


def _flushed(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Where ``got`` is the zero of ``want``'s sign that a device without DenormPreserve for the width gives for a
    subnormal ``want`` (an H100's float32: docs/float-semantics.md); complex values part by part."""
    width = {"f": 8, "c": 4}[want.dtype.kind] * want.dtype.itemsize
    if want.dtype == np.float16 or width in kd.device().float_controls[1]:  # (float16 rounds in float32)
        return np.zeros(want.shape, bool)
    tiny = np.finfo(want.dtype).tiny

    def part(g: np.ndarray, w: np.ndarray) -> np.ndarray:
        return (w != 0) & (np.abs(w) < tiny) & (g == 0) & (np.signbit(g) == np.signbit(w))
    if want.dtype.kind == "c":
        return (part(got.real, want.real) | (got.real == want.real)) & \
            (part(got.imag, want.imag) | (got.imag == want.imag)) & ~(got == want)
    return part(got, want)


FAMILIES = {"text": _text_case, "protocols": _protocol_case, "arithmetic": _arithmetic_case}


def _cases(family: str, block: int) -> list[tuple[str, Callable[[Any], Any]]]:
    rng = np.random.default_rng([sorted(FAMILIES).index(family), block, 31])
    count = PER_BLOCK if family == "text" else 3 * PER_BLOCK  # the scalar cases are cheap
    return [FAMILIES[family](rng) for _ in range(count)]


@pytest.mark.parametrize("block", range(BLOCKS))
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_matches_numpy(family, block):
    for i, (label, run) in enumerate(_cases(family, block)):
        want, got = run(np), run(kd)
        if isinstance(want, dict):
            for name in want:
                _assert_same(want[name], got[name], f"case {i}: {name} of {label}")
        else:
            # kdsl's own pow and abs, complex division by the scaled denominator and complex products without
            # fused multiply-adds are a rounding or a few from NumPy's (docs/complex.md); the rest is exact
            close = " ** " in label or " / " in label or label.startswith("abs(") or (" * " in label and "j" in label)
            _assert_same(want, got, f"case {i}: {label}", close=close)


def test_cases_are_fixed():
    # the same seed draws the same cases (a failure reproduces), and they cover what the docstring says
    labels = [label for family in FAMILIES for block in range(BLOCKS) for label, _ in _cases(family, block)]
    assert labels == [label for family in FAMILIES for block in range(BLOCKS) for label, _ in _cases(family, block)]
    assert len(labels) == BLOCKS * PER_BLOCK * 7
    assert all(any(f"{name}(" in label for label in labels) for name in PROTOCOLS)
    assert all(any(f" {op} " in label for label in labels) for op in OPERATORS)
