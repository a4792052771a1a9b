"""Host files and buffers to and from kdsl arrays: NumPy's ``save load savez savez_compressed savetxt loadtxt
genfromtxt frombuffer fromiter fromstring fromfile`` (and ``Array.tofile``).

Files live on the host, so each of these is an explicit transfer: saving downloads the array (``a.numpy()``)
and NumPy writes the file, in NumPy's formats byte for byte; loading lets NumPy parse the file and uploads the
result as a kdsl array. ``kd.load`` of an ``.npz`` gives a lazy mapping that reads (and uploads) an array only
when it is indexed, like NumPy's ``NpzFile``. Dtype arguments of the readers follow NumPy (``dtype=float`` is
float64, as in ``np.loadtxt``: it names what the file holds); kdsl dtypes are accepted too. ``fromiter`` builds
values as ``kd.array`` does, so Python's ``float``/``int``/``complex`` there are kdsl's defaults (float32...).
kdsl arrays hold numbers and booleans: files holding strings, objects or structured records raise ``TypeError``
(read those with NumPy).

Example:
    >>> import io, kdsl as kd
    >>> f = io.BytesIO()
    >>> kd.save(f, kd.arange(3))
    >>> _ = f.seek(0)
    >>> kd.load(f).tolist(), kd.fromstring("1 2 3", dtype=kd.int32, sep=" ").tolist()
    ([0, 1, 2], [1, 2, 3])
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, Any

import numpy as np

from kdsl import dtype as dt
from kdsl.errors import check_host_readable
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray

FileLike = str | os.PathLike | IO[Any]


def _host(a: Any) -> Any:
    """A kdsl array's values on the host (a download); anything else as it is, for NumPy."""
    return a.numpy() if isinstance(a, Array) else a


def _numpy_dtype(dtype: Any) -> Any:
    """A dtype for NumPy's readers: kdsl DTypes become NumPy's; anything else keeps NumPy's meaning."""
    return dtype.np if isinstance(dtype, dt.DType) else dtype


def _upload(host: np.ndarray, source: str) -> Array:
    """``host`` (what NumPy read) as a kdsl array, or TypeError naming what kdsl cannot hold."""
    check_host_readable(host.dtype, source)
    return asarray(host)


def _uploaded(out: Any, source: str) -> Array | tuple:
    """What a NumPy text reader returned, uploaded: an array (``unpack=True`` of plain numbers: NumPy's
    transposed array, whose rows are the columns) as one kdsl array; a list or tuple (``unpack=True`` of a
    structured dtype: one array per field) as a tuple of kdsl arrays."""
    if isinstance(out, np.ndarray):
        return _upload(out, source)
    return tuple(_upload(np.asarray(x), source) for x in out)


def _no_like(like: Any, name: str) -> None:
    if like is not None:
        raise TypeError(f"{name}: like= is NumPy's dispatch argument; kd.{name} already returns kdsl arrays")


def save(file: FileLike, arr: Any, allow_pickle: bool = True) -> None:
    """Write ``arr`` to a ``.npy`` file (NumPy's ``np.save``; a kdsl array is downloaded first).

    >>> import io, kdsl as kd, numpy as np
    >>> f = io.BytesIO(); kd.save(f, kd.ones(2)); _ = f.seek(0)
    >>> np.load(f)
    array([1., 1.], dtype=float32)
    """
    np.save(file, _host(arr), allow_pickle=allow_pickle)


class NpzFile(Mapping[str, Any]):
    """A lazy mapping over an ``.npz`` archive (what ``kd.load`` returns for one): ``f['x']`` reads array
    ``x`` and uploads it; ``f.files`` lists the names; use it as a context manager or ``close()`` it."""

    def __init__(self, npz: Any) -> None:
        self._npz = npz
        self.files: list[str] = list(npz.files)

    @property
    def f(self) -> _NpzAttributes:
        """NumPy's ``npz.f.name``: the arrays as attributes (``dir(npz.f)`` lists them)."""
        return _NpzAttributes(self)

    def __getitem__(self, key: str) -> Any:
        value = self._npz[key]
        return _upload(value, "load") if isinstance(value, np.ndarray) else value

    def __iter__(self) -> Iterator[str]:
        return iter(self.files)

    def __len__(self) -> int:
        return len(self.files)

    def __contains__(self, key: object) -> bool:
        return key in self.files

    def close(self) -> None:
        self._npz.close()

    def __enter__(self) -> NpzFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"kdsl NpzFile with arrays {self.files}"


class _NpzAttributes:
    """An :class:`NpzFile`'s arrays as attributes (NumPy's ``BagObj``)."""

    def __init__(self, npz: NpzFile) -> None:
        object.__setattr__(self, "_npz", npz)

    def __getattribute__(self, name: str) -> Any:
        npz = object.__getattribute__(self, "_npz")
        try:
            return npz[name]
        except KeyError:
            raise AttributeError(name) from None

    def __dir__(self) -> list[str]:
        return list(object.__getattribute__(self, "_npz").files)


def load(file: FileLike, mmap_mode: str | None = None, allow_pickle: bool = False, fix_imports: bool = True,
         encoding: str = "ASCII", *, max_header_size: int = 10000) -> Any:
    """Read a ``.npy`` file as a kdsl array, an ``.npz`` as a lazy :class:`NpzFile` of kdsl arrays (NumPy's
    ``np.load``). ``mmap_mode`` maps the file, but the upload copies it to the device all the same; pickled
    objects (``allow_pickle=True``) come back as NumPy gives them.

    >>> import io, kdsl as kd
    >>> f = io.BytesIO(); kd.savez(f, a=kd.zeros(2), b=kd.arange(3)); _ = f.seek(0)
    >>> z = kd.load(f); z.files, z["b"].tolist()
    (['a', 'b'], [0, 1, 2])
    """
    options: dict[str, Any] = {"mmap_mode": mmap_mode, "allow_pickle": allow_pickle, "fix_imports": fix_imports,
                               "encoding": encoding, "max_header_size": max_header_size}
    out = np.load(file, **options)
    if isinstance(out, np.lib.npyio.NpzFile):
        return NpzFile(out)
    if isinstance(out, np.ndarray) and out.dtype != object:
        return _upload(np.array(out) if mmap_mode is not None else out, "load")
    return out


def savez(file: FileLike, *args: Any, allow_pickle: bool = True, **kwds: Any) -> None:
    """Write several arrays to an uncompressed ``.npz`` (NumPy's ``np.savez``: positional ones are
    ``arr_0, arr_1, ...``); kdsl arrays are downloaded first.

    >>> import io, kdsl as kd, numpy as np
    >>> f = io.BytesIO(); kd.savez(f, kd.ones(1), x=kd.zeros(1)); _ = f.seek(0)
    >>> sorted(np.load(f).files)
    ['arr_0', 'x']
    """
    np.savez(file, *[_host(a) for a in args], allow_pickle=allow_pickle, **{k: _host(v) for k, v in kwds.items()})


def savez_compressed(file: FileLike, *args: Any, allow_pickle: bool = True, **kwds: Any) -> None:
    """Like :func:`savez`, compressed (NumPy's ``np.savez_compressed``).

    >>> import io, kdsl as kd
    >>> f = io.BytesIO(); kd.savez_compressed(f, w=kd.zeros(1000)); _ = f.seek(0)
    >>> kd.load(f)["w"].shape
    (1000,)
    """
    np.savez_compressed(file, *[_host(a) for a in args], allow_pickle=allow_pickle,
                        **{k: _host(v) for k, v in kwds.items()})


def savetxt(fname: FileLike, X: Any, fmt: Any = "%.18e", delimiter: str = " ", newline: str = "\n",  # noqa: N803
            header: str = "", footer: str = "", comments: str = "# ", encoding: str | None = None) -> None:
    """Write a 1-d or 2-d array as text (NumPy's ``np.savetxt``; a kdsl array is downloaded first).

    >>> import io, kdsl as kd
    >>> f = io.StringIO(); kd.savetxt(f, kd.asarray([[1, 2]]), fmt="%d"); f.getvalue()
    '1 2\\n'
    """
    np.savetxt(fname, _host(X), fmt=fmt, delimiter=delimiter, newline=newline, header=header, footer=footer,
               comments=comments, encoding=encoding)


def loadtxt(fname: Any, dtype: Any = float, *args: Any, like: Any = None, **kwargs: Any) -> Array | tuple:
    """Read a text file of numbers into a kdsl array (NumPy's ``np.loadtxt``, same arguments; ``unpack=True``
    gives the transposed array, as NumPy's, so ``x, y = kd.loadtxt(f, unpack=True)`` reads two columns).

    >>> import io, kdsl as kd
    >>> kd.loadtxt(io.StringIO("1 2\\n3 4")).tolist()
    [[1.0, 2.0], [3.0, 4.0]]
    """
    _no_like(like, "loadtxt")
    out = np.loadtxt(fname, _numpy_dtype(dtype), *args, **kwargs)
    return _uploaded(out, "loadtxt")


def genfromtxt(fname: Any, dtype: Any = float, *args: Any, like: Any = None, **kwargs: Any) -> Array | tuple:
    """Read a text file with missing values into a kdsl array (NumPy's ``np.genfromtxt``, same arguments;
    missing entries are NaN, or ``filling_values``). ``kd.genfromtxt(..., usemask=True)`` reads a ``kd.ma``
    masked array (kdsl/ma/text_files.py); this array-layer reader refuses it.

    >>> import io, kdsl as kd
    >>> kd.genfromtxt(io.StringIO("1,2\\n3,"), delimiter=",").tolist()
    [[1.0, 2.0], [3.0, nan]]
    """
    _no_like(like, "genfromtxt")
    if kwargs.get("usemask"):
        raise NotImplementedError("genfromtxt(usemask=True) gives a masked array: call kd.genfromtxt (kd.ma "
                                  "installs the masked reader there)")
    out = np.genfromtxt(fname, _numpy_dtype(dtype), *args, **kwargs)
    return _uploaded(out, "genfromtxt")


def frombuffer(buffer: Any, dtype: Any = float, count: int = -1, offset: int = 0, *, like: Any = None) -> Array:
    """The bytes of ``buffer`` read as a 1-d array of ``dtype``, uploaded (NumPy's ``np.frombuffer``; kdsl
    copies where NumPy makes a view).

    >>> import kdsl as kd, numpy as np
    >>> kd.frombuffer(np.arange(3, dtype=np.int16).tobytes(), dtype=kd.int16).tolist()
    [0, 1, 2]
    """
    _no_like(like, "frombuffer")
    return _upload(np.frombuffer(buffer, _numpy_dtype(dtype), count, offset), "frombuffer")


def fromiter(iter: Iterable[Any], dtype: Any, count: int = -1, *, like: Any = None) -> Array:  # noqa: A002
    """A 1-d array from an iterable (NumPy's ``np.fromiter``; the values are gathered on the host, then
    uploaded). Python's ``float``, ``int`` and ``complex`` mean kdsl's default dtypes, as in
    ``kd.array(list(iter), dtype=float)`` (float32; NumPy: float64); NumPy dtypes and names keep their meaning.

    >>> import kdsl as kd
    >>> kd.fromiter((i * i for i in range(4)), dtype=kd.int32).tolist()
    [0, 1, 4, 9]
    >>> kd.fromiter(iter([0.5, 1.5]), float).dtype
    kdsl.float32
    """
    _no_like(like, "fromiter")
    if dtype in (float, int, complex):  # Python's types: kdsl's defaults, as kd.array and kd.dtype give them
        dtype = dt.as_dtype(dtype)
    return _upload(np.fromiter(iter, _numpy_dtype(dtype), count), "fromiter")


def fromstring(string: str | bytes, dtype: Any = float, count: int = -1, *, sep: str,
               like: Any = None) -> Array:
    """Numbers in a text string, separated by ``sep`` (NumPy 2's ``np.fromstring``: ``sep`` is required; its
    binary mode is gone: use :func:`frombuffer` for bytes).

    >>> import kdsl as kd
    >>> kd.fromstring("1.5, 2, 3", sep=",").tolist()
    [1.5, 2.0, 3.0]
    """
    _no_like(like, "fromstring")
    if sep == "":
        raise ValueError("The binary mode of fromstring is removed, use frombuffer instead")
    return _upload(np.fromstring(string, _numpy_dtype(dtype), count, sep=sep), "fromstring")


def fromfile(file: FileLike, dtype: Any = float, count: int = -1, sep: str = "", offset: int = 0, *,
             like: Any = None) -> Array:
    """A 1-d array from a binary file (``sep=''``) or a text file (NumPy's ``np.fromfile``; the pair of
    ``a.tofile``).

    >>> import os, tempfile, kdsl as kd
    >>> path = os.path.join(tempfile.mkdtemp(), "a.bin")
    >>> kd.arange(4).tofile(path)
    >>> kd.fromfile(path, dtype=kd.int32).tolist()
    [0, 1, 2, 3]
    """
    _no_like(like, "fromfile")
    return _upload(np.fromfile(file, _numpy_dtype(dtype), count, sep, offset), "fromfile")
