"""``np.genfromtxt(f, delimiter=",", usemask=True)`` (a CSV with empty fields read as a masked array, then
``data.mean(axis=0)`` over the present values) raised NotImplementedError in kdsl; ``kd.genfromtxt`` now reads
it as a ``kd.ma`` masked array with NumPy's data, mask, dtype and fill value (kdsl/ma/text_files.py)."""

import io

import numpy as np
import pytest

import kdsl as kd

TEXTS = {
    "gaps": "1,,3\n4,5,\n,8,9\n",
    "none_missing": "1,2\n3,4\n",
    "one_row": "7,,2.5,\n",
    "one_column": "1\n\n3\n",  # the empty line is skipped, as NumPy's reader skips it
    "codes": "1,-99,3\n-99,5,6\n7,8,-99\n",
}
OPTIONS = [
    {"delimiter": ","},
    {"delimiter": ",", "dtype": np.int32},
    {"delimiter": ",", "dtype": np.float32, "filling_values": -1},
    {"delimiter": ",", "missing_values": "-99", "dtype": np.int64},
    {"delimiter": ",", "unpack": True},
]


def _same(got, want):
    assert isinstance(got, kd.ma.MaskedArray)
    data, mask = kd.ma.getdata(got).numpy(), kd.ma.getmaskarray(got).numpy()
    assert data.dtype == want.dtype and data.shape == want.shape
    np.testing.assert_array_equal(mask, np.ma.getmaskarray(want))
    np.testing.assert_array_equal(data, np.ma.getdata(want))
    # compared as what filled() writes (NumPy's reader keeps a float64 1e20 for float32 data; kd.ma holds float32)
    assert np.asarray(got.fill_value, want.dtype) == np.asarray(want.fill_value, want.dtype)


@pytest.mark.parametrize("name", TEXTS)
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_usemask_reads_numpys_masked_array(name, options):
    want = np.genfromtxt(io.StringIO(TEXTS[name]), usemask=True, **options)
    got = kd.genfromtxt(io.StringIO(TEXTS[name]), usemask=True, **options)
    _same(got, want)


def test_masked_statistics_skip_the_missing_values():
    text = "# site,temp,rain\n1,20.5,\n2,,3.5\n3,22.0,1.0\n4,19.0,\n"
    want = np.genfromtxt(io.StringIO(text), delimiter=",", usemask=True, skip_header=1, usecols=(1, 2))
    got = kd.genfromtxt(io.StringIO(text), delimiter=",", usemask=True, skip_header=1, usecols=(1, 2))
    np.testing.assert_allclose(got.mean(axis=0).filled(np.nan).numpy(), want.mean(axis=0).filled(np.nan))
    np.testing.assert_array_equal(got.count(axis=0).numpy(), want.count(axis=0))
    np.testing.assert_allclose(got.filled(0).numpy(), want.filled(0))
    assert str(got) == str(want)


def test_kdsl_dtype_and_positional_dtype():
    text = "1,,3\n"
    _same(kd.genfromtxt(io.StringIO(text), kd.int16, delimiter=",", usemask=True),
          np.genfromtxt(io.StringIO(text), np.int16, delimiter=",", usemask=True))


def test_usemask_false_is_the_plain_reader():
    got = kd.genfromtxt(io.StringIO("1,,3\n"), delimiter=",", usemask=False)
    assert isinstance(got, kd.Array) and np.isnan(got.numpy()[1])


def test_structured_dtype_refused_with_numpys_reading_advice():
    with pytest.raises(TypeError, match="no structured arrays"):
        kd.genfromtxt(io.StringIO("a,b\n1,2\n"), delimiter=",", names=True, usemask=True)


def test_like_refused_as_kd_genfromtxt():
    with pytest.raises(TypeError, match="like="):
        kd.genfromtxt(io.StringIO("1,,3\n"), delimiter=",", usemask=True, like=kd.zeros(1))
    with pytest.raises(TypeError, match="like="):
        kd.genfromtxt(io.StringIO("1,,3\n"), delimiter=",", like=kd.zeros(1))
