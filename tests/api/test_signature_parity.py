"""Signature parity with NumPy 2.x: NumPy code ported by replacing ``np`` with ``kd`` must call kdsl with the same
parameter names and positional order. For every public callable that NumPy and kdsl both have (the top level,
``linalg``, ``fft``, ``random`` and ``random.Generator``'s methods), each NumPy parameter must be accepted by
kdsl's namesake: by name (keyword-capable) and at the same position (positional ones). NumPy's ufuncs have no
``inspect`` signature: kdsl's must take ``nin`` positional inputs, ``out`` and the ufunc keywords.

kdsl may take more than NumPy (``device=``, the array API's keywords), but a ``**kwargs`` catch-all only where
NumPy has one too. A parameter kdsl cannot honour is still accepted by name and raises a clear exception for
the values it cannot do (``like=`` a NumPy array, ``weights=``...): those are tested at the end.

``DIFFERENCES`` is the allow-list of deliberate differences; an entry that is no longer needed fails too.
"""

from __future__ import annotations

import inspect
import re

import numpy as np
import pytest

import kdsl as kd

P = inspect.Parameter
POSITIONAL = (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)
UFUNC_KEYWORDS = ("out", "where", "dtype", "casting", "order", "subok", "signature")

# Deliberate differences: "namespace.name" -> why kdsl's signature differs from NumPy's.
DIFFERENCES = {
    # Host file readers: kdsl's takes NumPy's parameters as *args/**kwargs and hands them to NumPy's reader
    # (nothing ignored: NumPy checks every name), then uploads the result once.
    "loadtxt": "forwards *args/**kwargs to numpy.loadtxt",
    "genfromtxt": "forwards *args/**kwargs to numpy.genfromtxt",
}


def _namespaces() -> list[tuple[str, object, object]]:
    return [("", np, kd), ("linalg.", np.linalg, kd.linalg), ("fft.", np.fft, kd.fft),
            ("random.", np.random, kd.random), ("Generator.", np.random.Generator, kd.random.Generator)]


def _pairs() -> list[tuple[str, object, object]]:
    """(label, NumPy callable, kdsl callable) for every public callable in both (classes left out)."""
    pairs = []
    for prefix, npm, kdm in _namespaces():
        for name in sorted(dir(npm)):
            if name.startswith("_"):
                continue
            npf, kdf = getattr(npm, name), getattr(kdm, name, None)
            if kdf is None or not callable(npf) or not callable(kdf) or isinstance(npf, type):
                continue
            pairs.append((prefix + name, npf, kdf))
    return pairs


def _params(f: object) -> list[inspect.Parameter] | None:
    try:
        return list(inspect.signature(f).parameters.values())  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


def _strip_self(params: list[inspect.Parameter], label: str) -> list[inspect.Parameter]:
    return params[1:] if label.startswith("Generator.") and params and params[0].name == "self" else params


def ufunc_gaps(npf: np.ufunc, kdf: object) -> list[str]:
    """What kdsl's ufunc lacks of NumPy's call: ``nin`` positional inputs, ``out`` and the keywords."""
    params = _params(kdf)
    if params is None:
        return ["no signature"]
    names = {p.name for p in params}
    gaps = [f"keyword {k}" for k in UFUNC_KEYWORDS if k not in names]
    if sum(p.kind in POSITIONAL for p in params) < npf.nin and not any(p.kind is P.VAR_POSITIONAL for p in params):
        gaps.append(f"{npf.nin} positional inputs")
    return gaps


def function_gaps(np_params: list[inspect.Parameter], kd_params: list[inspect.Parameter]) -> list[str]:
    """NumPy parameters kdsl does not take by the same name/position, and a kdsl ``**kwargs`` NumPy lacks."""
    by_name = {p.name: p for p in kd_params}
    kd_positional = [p for p in kd_params if p.kind in POSITIONAL]
    kd_star = any(p.kind is P.VAR_POSITIONAL for p in kd_params)
    np_kw = any(p.kind is P.VAR_KEYWORD for p in np_params)
    gaps = []
    for i, p in enumerate(q for q in np_params if q.kind in POSITIONAL):
        if i >= len(kd_positional):
            if not kd_star:
                gaps.append(f"positional {i} ({p.name})")
        elif p.kind is P.POSITIONAL_OR_KEYWORD and kd_positional[i].name != p.name:
            gaps.append(f"positional {i}: NumPy's {p.name}, kdsl's {kd_positional[i].name}")
    for p in np_params:
        if p.kind is P.POSITIONAL_ONLY or p.kind in (P.VAR_POSITIONAL, P.VAR_KEYWORD):
            continue
        q = by_name.get(p.name)
        if q is None or q.kind is P.POSITIONAL_ONLY:
            gaps.append(f"keyword {p.name}")
    if any(p.kind is P.VAR_KEYWORD for p in kd_params) and not np_kw:
        gaps.append("**kwargs NumPy has not")
    return gaps


def gaps_of(label: str, npf: object, kdf: object) -> list[str]:
    if isinstance(npf, np.ufunc):
        return ufunc_gaps(npf, kdf)
    np_params = _params(npf)
    if np_params is None:  # a NumPy builtin without a signature: nothing to compare
        return []
    kd_params = _params(kdf)
    if kd_params is None:
        return ["no signature"]
    return function_gaps(_strip_self(np_params, label), _strip_self(kd_params, label))


PAIRS = _pairs()


def test_enough_callables_are_compared():
    assert len(PAIRS) > 450  # the namespaces above: a collapse of this count means the walk broke


@pytest.mark.parametrize("label,npf,kdf", PAIRS, ids=[p[0] for p in PAIRS])
def test_signature_matches_numpy(label, npf, kdf):
    gaps = gaps_of(label, npf, kdf)
    if label in DIFFERENCES:
        assert gaps, f"{label} matches NumPy now: remove it from DIFFERENCES"
        return
    assert not gaps, f"kd.{label} differs from np.{label}: {'; '.join(gaps)}"


def test_differences_name_compared_callables():
    labels = {p[0] for p in PAIRS}
    assert set(DIFFERENCES) <= labels


UFUNC_METHODS = [(label, method) for label, npf, _ in PAIRS if isinstance(npf, np.ufunc)
                 for method in ("reduce", "accumulate", "reduceat", "outer", "at")]


@pytest.mark.parametrize("label,method", UFUNC_METHODS, ids=[f"{u}.{m}" for u, m in UFUNC_METHODS])
def test_ufunc_method_matches_numpy(label, method):
    np_params, kd_params = _params(getattr(getattr(np, label), method)), _params(getattr(getattr(kd, label), method))
    assert np_params is not None and kd_params is not None
    gaps = function_gaps(np_params, kd_params)
    assert not gaps, f"kd.{label}.{method} differs from np.{label}.{method}: {'; '.join(gaps)}"


def _method_params(name: str) -> list[inspect.Parameter] | None:
    """NumPy's ``ndarray`` method ``name`` as parameters, from its docstring's first line (``a.sum(axis=None,
    ...)``: the methods are C functions without an ``inspect`` signature); None where the line is not one."""
    line = (getattr(np.ndarray, name).__doc__ or "").strip().split("\n")[0]
    match = re.fullmatch(rf"a\.{name}\((.*)\)", line.strip())
    if match is None:
        return None
    try:
        return _params(eval(f"lambda {match.group(1).replace('<no value>', 'None')}: None"))  # noqa: S307
    except SyntaxError:
        return None


METHODS = [n for n in dir(np.ndarray) if not n.startswith("_") and callable(getattr(np.ndarray, n))
           and callable(getattr(kd.Array, n, None)) and _method_params(n) is not None]


def test_enough_methods_are_compared():
    assert len(METHODS) > 40


@pytest.mark.parametrize("name", METHODS)
def test_array_method_matches_numpy(name):
    kd_params = _params(getattr(kd.Array, name))
    assert kd_params is not None
    gaps = function_gaps(_method_params(name) or [], kd_params[1:])  # without self
    assert not gaps, f"kd.Array.{name} differs from np.ndarray.{name}: {'; '.join(gaps)}"


# ----- parameters kdsl takes by name but cannot honour for every value: a clear exception naming them

def test_like_other_than_a_kdsl_array_raises_naming_it():
    a = kd.ones(2)
    for make in (lambda like: kd.zeros(2, like=like), lambda like: kd.asarray([1], like=like),
                 lambda like: kd.arange(3, like=like), lambda like: kd.eye(2, like=like),
                 lambda like: kd.full(2, 1.0, like=like), lambda like: kd.identity(2, like=like)):
        assert make(a).shape and make(None).shape  # a kdsl array (or None) is fine
        with pytest.raises(TypeError, match="like="):
            make(np.ones(2))


@pytest.mark.parametrize("order", ["C", "F"])
def test_creation_order_gives_numpys_values(order):
    np.testing.assert_array_equal(kd.zeros((2, 3), kd.int32, order).numpy(), np.zeros((2, 3), np.int32, order))
    np.testing.assert_array_equal(kd.eye(3, 2, 1, kd.float32, order).numpy(), np.eye(3, 2, 1, np.float32, order))
    host = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(kd.ones_like(kd.asarray(host), None, order, False).numpy(),
                                  np.ones_like(host, None, order, False))


@pytest.mark.parametrize("call", [lambda: kd.zeros(2, order="X"), lambda: kd.asarray([1], order="Q"),
                                  lambda: kd.add(kd.ones(2), 1, order="Z")])
def test_unknown_order_is_numpys_value_error(call):
    with pytest.raises(ValueError, match="order"):
        call()


@pytest.mark.parametrize("call", [lambda: kd.ones_like(kd.ones(1), order=1), lambda: kd.zeros(2, order=1),
                                  lambda: kd.ones(6).reshape(6, order=1)])
def test_order_of_another_type_is_numpys_type_error(call):
    with pytest.raises(TypeError, match="order must be str, not int"):
        call()


def test_ufunc_keywords():
    x, host = kd.asarray([1.5, -2.0, 3.0]), np.array([1.5, -2.0, 3.0], np.float32)
    out = kd.zeros(3)
    assert kd.add(x, x, out) is out  # NumPy's positional out
    np.testing.assert_array_equal(out.numpy(), np.add(host, host))
    assert kd.multiply(x, x, signature="dd->d").dtype == kd.float64
    assert kd.exp(x, subok=False, order="C").shape == (3,)
    with pytest.raises(TypeError, match="dtype="):
        kd.add(x, x, signature="fd->d")  # one loop dtype only: names the way
    with pytest.raises(TypeError, match="both"):
        kd.add(x, x, out, out=out)
    with pytest.raises(ValueError, match="casting"):
        kd.add(x, x, casting="nonsense")
    with pytest.raises(TypeError, match="bogus"):
        kd.add(x, x, bogus=1)  # no silent catch-all


def test_ufunc_dtype_casts_inputs_by_the_rule():
    host = np.array([0.5, 2.0, -1.5], np.float32)
    x = kd.asarray(host)
    with pytest.raises(TypeError, match="same_kind"):  # NumPy's UFuncTypeError (a TypeError)
        kd.add(x, 1, dtype=np.int32)
    np.testing.assert_array_equal(kd.add(x, 1, dtype=np.int32, casting="unsafe").numpy(),
                                  np.add(host, 1, dtype=np.int32, casting="unsafe"))
    with pytest.raises(TypeError, match="safe"):
        kd.multiply(x.astype(kd.float64), 2, dtype=np.float32, casting="safe")
    for name in ("less", "logical_and", "isnan"):  # these loops all give bool: dtype= is the output's
        args = (host, 1.0)[:getattr(np, name).nin]
        want = getattr(np, name)(*args, dtype=bool)
        got = getattr(kd, name)(*(kd.asarray(a) if isinstance(a, np.ndarray) else a for a in args), dtype=bool)
        np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("fn", ["quantile", "percentile", "nanquantile", "nanpercentile"])
def test_weights_take_numpys_method_only(fn):
    """NumPy 2 weights quantiles with method='inverted_cdf' only (tests/sorting/test_quantile_weights.py has
    the values); another method is NumPy's ValueError."""
    q = 50 if "percentile" in fn else 0.5
    got = getattr(kd, fn)(kd.arange(4.0), q, weights=kd.ones(4), method="inverted_cdf")
    assert float(got) == getattr(np, fn)(np.arange(4.0), q, weights=np.ones(4), method="inverted_cdf")
    with pytest.raises(ValueError, match="Only method 'inverted_cdf' supports weights"):
        getattr(kd, fn)(kd.arange(4.0), q, weights=kd.ones(4))


def test_positional_order_reaches_numpys_parameters():
    host = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    a = kd.asarray(host)
    for fn in ("sum", "prod", "mean"):
        out = kd.zeros(4)
        getattr(kd, fn)(a, 0, None, out)  # (a, axis, dtype, out)
        np.testing.assert_allclose(out.numpy(), getattr(np, fn)(host, 0, None), rtol=1e-6)
    out = kd.zeros(3)
    kd.max(a, 1, out)  # (a, axis, out)
    np.testing.assert_array_equal(out.numpy(), np.max(host, 1))
    idx = kd.zeros(3, kd.int64)
    kd.argmax(a, 1, idx)
    np.testing.assert_array_equal(idx.numpy(), np.argmax(host, 1))
    np.testing.assert_allclose(kd.var(a, 1, None, None, 1, True).numpy(), np.var(host, 1, None, None, 1, True),
                               rtol=1e-6)
    np.testing.assert_array_equal(kd.clip(a, 2, 7).numpy(), np.clip(host, 2, 7))
    np.testing.assert_array_equal(kd.concatenate([a, a], 1, None, dtype=kd.float64).numpy(),
                                  np.concatenate([host, host], 1, None, dtype=np.float64))
    np.testing.assert_allclose(kd.linalg.solve(a=kd.eye(3) * 2, b=a[:, 0]).numpy(), host[:, 0] / 2)


# ----- the parameters added for parity compute what NumPy's do

_HOST = np.array([[1.5, np.nan, -2.0, 4.0], [0.5, 3.0, np.nan, -1.0], [2.0, 2.5, 1.0, 0.0]], np.float32)
_CLEAN = np.nan_to_num(_HOST)
F32 = np.float32


def _out(xp, shape, dtype=F32):
    return xp.zeros(shape, dtype=dtype)


def _filled_into(fn):
    """Calls ``fn(xp, out)`` with a fresh out and returns that out (checks that ``out`` was written)."""
    def call(xp, shape, dtype=F32):
        out = _out(xp, shape, dtype)
        fn(xp, out)
        return out
    return call


KEYWORD_CASES = {
    "dot out": lambda xp: _filled_into(lambda xp, o: xp.dot(xp.asarray(_CLEAN), xp.asarray(_CLEAN.T), o))(xp, (3, 3)),
    "outer out": lambda xp: _filled_into(lambda xp, o: xp.outer(xp.asarray(_CLEAN[0]), xp.asarray(_CLEAN[1]),
                                                                out=o))(xp, (4, 4)),
    "trace out": lambda xp: _filled_into(lambda xp, o: xp.trace(xp.asarray(_CLEAN), 1, 0, 1, None, o))(xp, ()),
    "round out": lambda xp: _filled_into(lambda xp, o: xp.round(xp.asarray(_CLEAN), 0, o))(xp, (3, 4)),
    "cumsum out": lambda xp: _filled_into(lambda xp, o: xp.cumsum(xp.asarray(_CLEAN), 1, None, o))(xp, (3, 4)),
    "cumprod out": lambda xp: _filled_into(lambda xp, o: xp.cumprod(xp.asarray(_CLEAN), None, None, o))(xp, (12,)),
    "argmin out": lambda xp: _filled_into(lambda xp, o: xp.argmin(xp.asarray(_CLEAN), 0, o))(xp, (4,), np.int64),
    "nansum out initial where": lambda xp: _filled_into(lambda xp, o: xp.nansum(
        xp.asarray(_HOST), 1, None, o, False, 2.0, xp.asarray(_CLEAN > 0)))(xp, (3,)),
    "nanprod keepdims": lambda xp: xp.nanprod(xp.asarray(_HOST), 0, None, None, True),
    "nanmax initial where": lambda xp: xp.nanmax(xp.asarray(_HOST), 0, None, False, -5.0, xp.asarray(_CLEAN < 2)),
    "nanmin out": lambda xp: _filled_into(lambda xp, o: xp.nanmin(xp.asarray(_HOST), 1, o))(xp, (3,)),
    "nanmean where": lambda xp: xp.nanmean(xp.asarray(_HOST), axis=1, where=xp.asarray(_CLEAN != 0)),
    "nanvar mean": lambda xp: xp.nanvar(xp.asarray(_HOST), 1, keepdims=True,
                                        mean=xp.nanmean(xp.asarray(_HOST), 1, keepdims=True)),
    "nanstd out ddof": lambda xp: _filled_into(lambda xp, o: xp.nanstd(xp.asarray(_HOST), 0, None, o, 1))(xp, (4,)),
    "nancumsum out": lambda xp: _filled_into(lambda xp, o: xp.nancumsum(xp.asarray(_HOST), 0, None, o))(xp, (3, 4)),
    "cumulative_sum out": lambda xp: _filled_into(lambda xp, o: xp.cumulative_sum(
        xp.asarray(_CLEAN), axis=1, out=o))(xp, (3, 4)),
    "var mean": lambda xp: xp.var(xp.asarray(_CLEAN), 0, mean=xp.mean(xp.asarray(_CLEAN), 0, keepdims=True)),
    "std out ddof": lambda xp: _filled_into(lambda xp, o: xp.std(xp.asarray(_CLEAN), 1, None, o, 1))(xp, (3,)),
    "quantile out": lambda xp: _filled_into(lambda xp, o: xp.quantile(xp.asarray(_CLEAN), [0.25, 0.5], 1, o))(
        xp, (2, 3)),
    "percentile out": lambda xp: _filled_into(lambda xp, o: xp.percentile(xp.asarray(_CLEAN), 40.0, None, o))(xp, ()),
    "stack out": lambda xp: _filled_into(lambda xp, o: xp.stack([xp.asarray(_CLEAN)] * 2, 1, o))(xp, (3, 2, 4)),
    "concatenate out": lambda xp: _filled_into(lambda xp, o: xp.concatenate([xp.asarray(_CLEAN)] * 2, None, o))(
        xp, (24,)),
    "einsum out": lambda xp: _filled_into(lambda xp, o: xp.einsum("ij->j", xp.asarray(_CLEAN), out=o))(xp, (4,)),
    "take out": lambda xp: _filled_into(lambda xp, o: xp.take(xp.asarray(_CLEAN), [2, 0], 1, o))(xp, (3, 2)),
    "ptp out": lambda xp: _filled_into(lambda xp, o: xp.ptp(xp.asarray(_CLEAN), 0, o))(xp, (4,)),
    "median out": lambda xp: _filled_into(lambda xp, o: xp.median(xp.asarray(_CLEAN), 1, o))(xp, (3,)),
    "nanmedian out": lambda xp: _filled_into(lambda xp, o: xp.nanmedian(xp.asarray(_HOST), 0, o))(xp, (4,)),
    "nanquantile out": lambda xp: _filled_into(lambda xp, o: xp.nanquantile(xp.asarray(_HOST), 0.3, 1, o))(xp, (3,)),
    "nanpercentile out": lambda xp: _filled_into(lambda xp, o: xp.nanpercentile(xp.asarray(_HOST), 70, None, o))(
        xp, ()),
    "nanargmax out": lambda xp: _filled_into(lambda xp, o: xp.nanargmax(xp.asarray(_HOST), 1, o))(xp, (3,), np.int64),
    "compress out": lambda xp: _filled_into(lambda xp, o: xp.compress([True, False, True], xp.asarray(_CLEAN), 0, o))(
        xp, (2, 4)),
    "multi_dot out": lambda xp: _filled_into(lambda xp, o: xp.linalg.multi_dot(
        [xp.asarray(_CLEAN), xp.asarray(_CLEAN.T), xp.asarray(_CLEAN)], out=o))(xp, (3, 4)),
    "trace method out": lambda xp: _filled_into(lambda xp, o: xp.asarray(_CLEAN).trace(0, 0, 1, None, o))(xp, ()),
    "concatenate unsafe cast": lambda xp: xp.concatenate([xp.asarray(_CLEAN)] * 2, dtype=np.int32, casting="unsafe"),
    "stack dtype": lambda xp: xp.stack([xp.asarray(_CLEAN)] * 2, dtype=np.float64),
    "hstack casting": lambda xp: xp.hstack([xp.asarray(_CLEAN)] * 2, dtype=np.int16, casting="unsafe"),
    "clip positional": lambda xp: xp.clip(xp.asarray(_CLEAN), -1.0, 2.0),
    "clip min keyword": lambda xp: xp.clip(xp.asarray(_CLEAN), min=0.5),
    "broadcast_to subok": lambda xp: xp.broadcast_to(xp.asarray(_CLEAN[0]), (2, 4), subok=True),
    "array ndmax": lambda xp: xp.array([[1, 2], [3, 4]], dtype=np.int32, ndmax=2),
    "empty_like shape": lambda xp: xp.empty_like(xp.asarray(_CLEAN), np.int8, "C", True, (2,)).shape,
    "can_cast same_kind": lambda xp: xp.can_cast(np.float64, np.float32, "same_kind"),
    "can_cast safe": lambda xp: xp.can_cast(np.float64, np.float32),
}


@pytest.mark.parametrize("name", list(KEYWORD_CASES))
def test_added_parameters_compute_numpys_result(name):
    def host(r):
        return r.numpy() if isinstance(r, kd.Array) else r

    got, want = host(KEYWORD_CASES[name](kd)), KEYWORD_CASES[name](np)
    if isinstance(want, np.ndarray):
        assert got.shape == want.shape and got.dtype == want.dtype, (got.dtype, want.dtype)
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-6, equal_nan=True)
    else:
        assert got == want


def test_ndmax_below_the_data_raises_naming_it():
    with pytest.raises(ValueError, match="ndmax"):
        kd.array([[1, 2], [3, 4]], ndmax=1)
