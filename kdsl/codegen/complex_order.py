"""Complex GLSL templates of NumPy's order of complex numbers: lexicographic, by the real part and then the
imaginary part, for ``<``, ``<=``, ``>``, ``>=``, ``maximum`` and ``minimum`` (and so ``fmax``, ``fmin``,
``clip``, ``max``, ``min``, ``argmax``, ``argmin`` built on them). The same order as ``kd.sort``'s.

NaNs as NumPy's complex loops treat them: a comparison is true only where the real parts decide it with no NaN
imaginary part, or the real parts are equal and the imaginary parts decide it (so any NaN part makes ``<`` and
``>`` false, as NumPy's). ``maximum(a, b)`` is ``a`` where ``a`` has a NaN part or ``a >= b``, else ``b``: a NaN
operand wins either way. Checked against NumPy on every pair of components from ``0, -0.0, 1, -1, inf, -inf,
nan`` (tests/complex/test_complex_order.py).

Example:
    >>> TEMPLATES["cge"].splitlines()[0]
    'bool kd_cge_S(CT_ a, CT_ b) {'
"""

TEMPLATES = {
    "clt": """bool kd_clt_S(CT_ a, CT_ b) {
    return (a.x < b.x && !isnan(a.y) && !isnan(b.y)) || (a.x == b.x && a.y < b.y);
}""",
    "cle": """bool kd_cle_S(CT_ a, CT_ b) {
    return (a.x < b.x && !isnan(a.y) && !isnan(b.y)) || (a.x == b.x && a.y <= b.y);
}""",
    "cgt": """bool kd_cgt_S(CT_ a, CT_ b) {
    return (a.x > b.x && !isnan(a.y) && !isnan(b.y)) || (a.x == b.x && a.y > b.y);
}""",
    "cge": """bool kd_cge_S(CT_ a, CT_ b) {
    return (a.x > b.x && !isnan(a.y) && !isnan(b.y)) || (a.x == b.x && a.y >= b.y);
}""",
    # a select, not a branch: both operands are already computed
    "cmax": """CT_ kd_cmax_S(CT_ a, CT_ b) {
    return (any(isnan(a)) || kd_cge_S(a, b)) ? a : b;
}""",
    "cmin": """CT_ kd_cmin_S(CT_ a, CT_ b) {
    return (any(isnan(a)) || kd_cle_S(a, b)) ? a : b;
}""",
}
