"""Warm kd.fft calls replay their recorded program (kdsl/fft/replay.py): the same results as the first call and
as NumPy, every argument that changes the plan in the key, warnings and argument errors on every call, a
bounded cache, threads, and the fallback when the program was dropped."""

import threading

import numpy as np
import pytest
from fft_testing import signal

import kdsl as kd
from kdsl.fft import replay, transform


def _close(a, b):
    np.testing.assert_allclose(a.numpy(), b, rtol=1e-4, atol=1e-4)


def test_a_replay_gives_a_new_array_with_the_first_calls_values():
    x = kd.asarray(signal((4, 8), np.float32))
    first = kd.fft.rfft2(x)
    again = kd.fft.rfft2(x)
    assert again is not first and again._n.buffer is not first._n.buffer
    np.testing.assert_array_equal(again.numpy(), first.numpy())
    _close(again, np.fft.rfft2(x.numpy()))
    again[...] = 0  # the results share nothing: the next replay and the first result keep their values
    _close(kd.fft.rfft2(x), np.fft.rfft2(x.numpy()))
    _close(first, np.fft.rfft2(x.numpy()))


def test_every_argument_that_changes_the_plan_is_in_the_key():
    z = signal((4, 8), np.complex64)
    x = kd.asarray(z)
    calls = [(dict(), np.fft.fft(z)), (dict(norm="ortho"), np.fft.fft(z, norm="ortho")),
             (dict(axis=0), np.fft.fft(z, axis=0)), (dict(n=4), np.fft.fft(z, n=4)),
             (dict(n=8, axis=-1, norm="forward"), np.fft.fft(z, norm="forward"))]
    for _ in range(2):  # the second round replays: each call its own result
        for kwargs, want in calls:
            _close(kd.fft.fft(x, **kwargs), want)
        _close(kd.fft.ifft(x), np.fft.ifft(z))
        _close(kd.fft.fftn(x, axes=[0]), np.fft.fftn(z, axes=[0]))
        _close(kd.fft.fft2(x), np.fft.fft2(z))
        _close(kd.fft.fft(x[:, :4]), np.fft.fft(z[:, :4]))  # another shape, from a view
        _close(kd.fft.fft(kd.asarray(z.astype(np.complex128))), np.fft.fft(z))  # another dtype
        _close(kd.fft.fft(x, 8, 0), np.fft.fft(z, 8, 0))  # positional arguments


def test_a_replay_reads_the_inputs_current_values():
    x = kd.asarray(signal(8, np.float32))
    kd.fft.rfft(x)
    kd.fft.rfft(x)
    x[2] = 5.0  # written in place
    _close(kd.fft.rfft(x), np.fft.rfft(x.numpy()))
    _close(kd.fft.rfft(x + 1), np.fft.rfft(x.numpy() + 1))  # a lazy input of the same key


def test_warnings_and_argument_errors_come_at_every_call():
    x = kd.asarray(signal((4, 4), np.float32))
    for _ in range(2):
        with pytest.warns(DeprecationWarning, match="axes"):
            kd.fft.rfftn(x, s=(4, 4))
    z = kd.asarray(signal((4, 4), np.complex64))  # (complex: its warm calls replay)
    for _ in range(2):
        kd.fft.fft(z, n=4)
        kd.fft.fft(z, norm="ortho")
    for bad in (4.0, np.float32(4)):  # not a key's part: NumPy's TypeError, never the n=4 replay
        with pytest.raises(TypeError):
            kd.fft.fft(z, n=bad)
    with pytest.raises(TypeError):
        kd.fft.fft(z, "norm", "ortho")  # n="norm", axis="ortho": positional strings are no keyword names
    _close(kd.fft.fft(z, n=np.int64(4)), np.fft.fft(z.numpy(), n=4))  # runs as written, still right
    for _ in range(2):
        kd.fft.rfft2(x, s=(4, 4), axes=(0, 1))
    with pytest.raises(TypeError):
        kd.fft.rfft2(x, s=(4.0, 4), axes=(0, 1))  # 4.0 == 4, but no length


def test_the_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(replay, "LIMIT", 3)
    x = kd.asarray(signal(8, np.complex64))
    for norm in ("backward", "ortho", "forward", None):
        kd.fft.fft(x, norm=norm)
    assert len(replay._calls) <= 3


def test_a_dropped_program_is_planned_again():
    x = kd.asarray(signal(16, np.complex64))
    kd.fft.fft(x)
    kd.fft.fft(x)
    transform._programs.clear()
    _close(kd.fft.fft(x), np.fft.fft(x.numpy()))
    _close(kd.fft.fft(x), np.fft.fft(x.numpy()))


def test_threads_replay_their_own_inputs():
    inputs = [signal(16, np.complex64, seed=i) for i in range(4)]
    errors = []

    def work(z):
        x = kd.asarray(z)
        try:
            for _ in range(10):
                _close(kd.fft.fft(x), np.fft.fft(z))
        except Exception as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)
    threads = [threading.Thread(target=work, args=(z,)) for z in inputs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_a_gradient_after_warm_calls_is_still_traced():
    x = kd.asarray(signal(8, np.float64))
    kd.fft.rfft(x)
    kd.fft.rfft(x)
    g = kd.grad(lambda v: kd.real(kd.fft.rfft(v)).sum())(x)
    want = np.cos(2 * np.pi * np.outer(np.arange(8), np.arange(5)) / 8).sum(axis=1)  # d/dx_j sum_k Re X_k
    _close(g, want)


@pytest.mark.parametrize("name, kwargs, dtype", [("fft", {}, np.complex64), ("fft", {"axis": 0}, np.complex64),
                                                 ("fft2", {}, np.complex128), ("rfft2", {}, np.float32),
                                                 ("ifft", {}, np.float64)])
def test_the_common_calls_are_replayed(name, kwargs, dtype):
    # the host time these save is the point (benchmarks/host_overhead.py): a change that makes them run as
    # written again (a conversion, a reshape view, a second submission) shows here
    x = kd.asarray(signal((4, 8), dtype))
    getattr(kd.fft, name)(x, **kwargs)
    assert isinstance(replay._calls[replay._key(name, x, (), kwargs)], replay._Replay)


def test_real_input_is_read_as_it_is():
    # the kernels read reals as complex numbers (no conversion pass first); NumPy's dtypes and values
    a = signal((4, 8), np.float64)
    for dtype, want in ((np.float32, np.complex64), (np.float64, np.complex128), (np.int32, np.complex64)):
        for kwargs in ({}, {"axis": 0}):
            got = kd.fft.fft(kd.asarray(a.astype(dtype)), **kwargs)
            assert got.dtype == want
            _close(got, np.fft.fft(a.astype(dtype), **kwargs))
    _close(kd.fft.ifft2(kd.asarray(a)), np.fft.ifft2(a))
    assert kd.fft.fft(kd.zeros((0, 2))).dtype == kd.complex64  # empty: converted, nothing to transform
