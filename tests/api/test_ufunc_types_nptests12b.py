"""``kd.<ufunc>.types`` lists NumPy's loops (``'ff->f'``) made of dtypes kdsl holds, in NumPy's order; ``ntypes``,
``nargs`` and ``signature`` are NumPy's too (they were missing: AttributeError)."""

import numpy as np
import pytest

import kdsl as kd

NAMES = ["add", "sin", "isnan", "divmod", "matmul", "equal", "left_shift", "frexp", "ldexp", "logical_and",
         "arctan2", "bitwise_count", "vecdot"]
HELD = set("?bBhHiIlLqQefdFD")


@pytest.mark.parametrize("name", NAMES)
def test_types_are_numpys_held_loops(name):
    npf, kdf = getattr(np, name), getattr(kd, name)
    want = [t for t in npf.types if set(t.replace("->", "")) <= HELD]
    assert kdf.types == want and want
    assert kdf.ntypes == len(want)
    assert kdf.nargs == npf.nargs and kdf.signature == npf.signature


def test_loops_compute_their_result_dtype():
    """Each listed loop of add gives its output dtype for operands of its input dtypes, as NumPy's."""
    for loop in kd.add.types:
        ins, out = loop.split("->")
        a = kd.ones((2, 1), dtype=np.dtype(ins[0]))
        b = kd.ones((0,), dtype=np.dtype(ins[1]))
        assert kd.add(a, b).dtype == np.dtype(out) and kd.add(a, b).shape == (2, 0)


def test_no_object_longdouble_or_datetime_loops():
    for name in ("add", "multiply", "maximum", "sqrt"):
        types = getattr(kd, name).types
        assert not any(c in t for t in types for c in "OgGMmSUV")
