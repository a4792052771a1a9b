"""Hostile calls across the array API: each must raise the exception type NumPy raises for the same call (issue 8,
point 11), with a message that names the problem. Each case runs on NumPy (``xp=np``) and on kdsl (``xp=kd``)."""

import numpy as np
import pytest

import kdsl as kd

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def z(xp, shape, dtype="float32"):
    return xp.asarray(np.zeros(shape, dtype))


CASES = {
    "eye negative": lambda xp: xp.eye(-2),
    "eye float": lambda xp: xp.eye(2.5),
    "eye None": lambda xp: xp.eye(None),
    "zeros negative": lambda xp: xp.zeros(-1),
    "zeros negative in tuple": lambda xp: xp.ones((2, -3)),
    "zeros float shape": lambda xp: xp.zeros(1.5),
    "zeros str shape": lambda xp: xp.zeros("a"),
    "full negative": lambda xp: xp.full((-1,), 1.0),
    "ones bad dtype": lambda xp: xp.ones(3, dtype="foo"),
    "bool of empty": lambda xp: bool(z(xp, 0)),
    "bool of 2 elements": lambda xp: bool(z(xp, 2)),
    "float of 1-d": lambda xp: float(z(xp, 1)),
    "int of 2-d": lambda xp: int(z(xp, (1, 1))),
    "index of 1-d": lambda xp: [1, 2][z(xp, 1, "int32")],
    "index of float": lambda xp: [1, 2][z(xp, (), "float32")],
    "len of 0-d": lambda xp: len(z(xp, ())),
    "iter of 0-d": lambda xp: iter(z(xp, ())),
    "hash": lambda xp: hash(z(xp, 3)),
    "reshape -1 -1": lambda xp: z(xp, 4).reshape(-1, -1),
    "reshape wrong size": lambda xp: z(xp, 4).reshape(3),
    "reshape negative": lambda xp: z(xp, 4).reshape(-2, -2),
    "linspace negative num": lambda xp: xp.linspace(0, 1, -1),
    "linspace float num": lambda xp: xp.linspace(0, 1, 2.5),
    "arange zero step": lambda xp: xp.arange(0, 1, 0),
    "arange inf": lambda xp: xp.arange(0, np.inf),
    "arange nan": lambda xp: xp.arange(np.nan),
    "concatenate shapes": lambda xp: xp.concatenate([z(xp, (2, 3)), z(xp, (2, 4))]),
    "concatenate ndim": lambda xp: xp.concatenate([z(xp, (2, 3)), z(xp, 3)]),
    "concatenate 0-d": lambda xp: xp.concatenate([z(xp, ()), z(xp, ())]),
    "concatenate nothing": lambda xp: xp.concatenate([]),
    "stack shapes": lambda xp: xp.stack([z(xp, 2), z(xp, 3)]),
    "stack nothing": lambda xp: xp.stack([]),
    "where shapes": lambda xp: xp.where(xp.asarray(np.ones(2, bool)), z(xp, 3), 1),
    "matmul core": lambda xp: z(xp, (2, 3)) @ z(xp, (2, 3)),
    "matmul 0-d": lambda xp: xp.matmul(z(xp, (2, 3)), z(xp, ())),
    "matmul batch": lambda xp: z(xp, (2, 2, 3)) @ z(xp, (3, 3, 2)),
    "dot 1-d": lambda xp: xp.dot(z(xp, 3), z(xp, 4)),
    "sum float axis": lambda xp: z(xp, 3).sum(axis=1.0),
    "sum repeated axis": lambda xp: z(xp, (3, 3)).sum(axis=(0, 0)),
    "transpose repeated": lambda xp: z(xp, (2, 3)).transpose(0, 0),
    "transpose too few": lambda xp: z(xp, (2, 3)).transpose(0),
    "squeeze non-1": lambda xp: xp.squeeze(z(xp, (2, 3)), 0),
    "broadcast_to": lambda xp: xp.broadcast_to(z(xp, 3), (4,)),
    "broadcast_to negative": lambda xp: xp.broadcast_to(z(xp, 3), (-1, 3)),
    "astype unknown": lambda xp: z(xp, 3).astype("foo"),
    "index out of bounds": lambda xp: z(xp, 3)[3],
    "index float": lambda xp: z(xp, 3)[1.0],
    "index too many": lambda xp: z(xp, 3)[1, 1],
    "index two ellipses": lambda xp: z(xp, 3)[..., ...],
    "argmax empty": lambda xp: z(xp, 0).argmax(),
    "max empty": lambda xp: z(xp, 0).max(),
    "bitwise and of floats": lambda xp: z(xp, 3) & 1,
    "round float decimals": lambda xp: xp.round(z(xp, 3), 1.5),
    "int8 plus 300": lambda xp: z(xp, 3, "int8") + 300,
    "uint8 plus -1": lambda xp: z(xp, 3, "uint8") + (-1),
    "int32 times 2**40": lambda xp: z(xp, 3, "int32") * 2**40,
    "maximum 2**40": lambda xp: xp.maximum(z(xp, 2, "int32"), 2**40),
    "asarray uint8 300": lambda xp: xp.asarray([300], dtype=xp.uint8),
    "asarray uint32 -1": lambda xp: xp.asarray(-1, dtype=xp.uint32),
    "asarray int nan": lambda xp: xp.asarray([np.nan], dtype=xp.int32),
    "asarray int 1e20": lambda xp: xp.asarray([1e20], dtype=xp.int32),
    "asarray strings": lambda xp: xp.asarray(["a"], dtype=xp.float32),
    "full int32 2**40": lambda xp: xp.full(3, 2**40, dtype=xp.int32),
    "full uint8 -1": lambda xp: xp.full(3, -1, dtype=xp.uint8),
    "setitem int 2**40": lambda xp: z(xp, 3, "int32").__setitem__(0, 2**40),
    "setitem uint8 -1": lambda xp: z(xp, 3, "uint8").__setitem__(0, -1),
    "setitem int nan": lambda xp: z(xp, 3, "int32").__setitem__(0, np.nan),
    "setitem int inf": lambda xp: z(xp, 3, "int32").__setitem__(0, np.inf),
    "setitem list 2**40": lambda xp: z(xp, 3, "int32").__setitem__(slice(None), [1, 2, 2**40]),
    "setitem shape": lambda xp: z(xp, 3).__setitem__(slice(None), np.ones((2, 3), np.float32)),
    "iadd shape": lambda xp: z(xp, 3).__iadd__(z(xp, (2, 3))),
    "iadd float into int": lambda xp: z(xp, 3, "int32").__iadd__(1.5),
    "imul float array into int": lambda xp: z(xp, 3, "int32").__imul__(z(xp, 3)),
    "iadd int into bool": lambda xp: z(xp, 3, "bool").__iadd__(1),
    "itruediv into int": lambda xp: z(xp, 3, "int32").__itruediv__(2),
    "imatmul shape": lambda xp: z(xp, (2, 3)).__imatmul__(z(xp, (3, 4))),
    "random normal scale < 0": lambda xp: (xp.random.normal(0, -1) if xp is kd
                                           else np.random.default_rng().normal(0, -1)),
    "random uniform size < 0": lambda xp: (xp.random.uniform(size=-1) if xp is kd
                                           else np.random.default_rng().uniform(size=-1)),
    "random integers low >= high": lambda xp: (xp.random.integers(5, 2) if xp is kd
                                               else np.random.default_rng().integers(5, 2)),
}


def _error(fn, xp):
    try:
        fn(xp)
    except Exception as exc:  # noqa: BLE001 - the type is what is compared
        return exc
    return None


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_call_raises_numpy_error_type(name):
    fn = CASES[name]
    expected = _error(fn, np)
    assert expected is not None, f"NumPy accepts {name!r}: the case is wrong"
    got = _error(fn, kd)
    assert got is not None, f"kdsl accepted {name!r}; NumPy raises {type(expected).__name__}: {expected}"
    want = TypeError if isinstance(expected, TypeError) else type(expected)  # UFuncTypeError is a TypeError
    assert isinstance(got, want), f"{name!r}: kdsl raised {type(got).__name__}: {got}; " \
        f"NumPy raises {type(expected).__name__}: {expected}"
    assert len(str(got)) > 15, f"{name!r}: message too short: {got!r}"
