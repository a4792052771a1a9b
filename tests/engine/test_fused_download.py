"""Reading an unrealised result (``float(loss)``, ``x.numpy()``, ``if err < tol``) computes it and copies it to
the host in one submission (kdsl.engine.transfers._computed_and_downloaded): right values, one wait, safe
with the staging cache's evictions, profiling and threads."""

import threading

import numpy as np
import pytest

import kdsl as kd
from kdsl.engine import staging
from kdsl.engine.state import state
from kdsl.runtime import sequence as sequence_mod


@pytest.fixture
def submissions(monkeypatch):
    """A counter of the queue submissions made while the test runs."""
    count = [0]
    real = sequence_mod.Sequence._submit_batch

    def counted(self):
        count[0] += 1
        return real(self)

    monkeypatch.setattr(sequence_mod.Sequence, "_submit_batch", counted)
    return count


def test_a_fresh_result_is_computed_and_read_in_one_submission(submissions):
    x = kd.asarray(np.arange(16, dtype=np.float32))
    for i in range(4):  # the first call plans and records; the others replay the recorded batch
        before = submissions[0]
        assert float(kd.exp(x / 16).sum() + i) == pytest.approx(float(np.exp(np.arange(16) / 16).sum() + i),
                                                                rel=1e-6)
        assert submissions[0] - before == 1


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8, np.bool_, np.float16, np.int64, np.complex64])
def test_values_of_each_dtype_and_shape(dtype):
    if not kd.device().supports(kd.dtype(dtype)):
        pytest.skip(f"{np.dtype(dtype).name} is not supported by this device")
    rng = np.random.default_rng(0)
    for shape in [(), (1,), (7,), (3, 5), (2, 1, 4)]:
        a = (rng.standard_normal(shape) * 5).astype(dtype)
        got = (kd.asarray(a) * 2).numpy() if dtype is not np.bool_ else (~kd.asarray(a)).numpy()
        want = a * 2 if dtype is not np.bool_ else ~a
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


def test_a_loop_reads_new_values_through_the_replayed_copy():
    base = kd.asarray(np.arange(8, dtype=np.float32))
    for i in range(20):  # one staging tensor, one recorded batch: every read must see this step's values
        np.testing.assert_array_equal((base + float(i)).numpy(), np.arange(8) + i)


def test_matmul_result_and_views():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    b = np.arange(8, dtype=np.float32).reshape(4, 2)
    np.testing.assert_allclose((kd.asarray(a) @ kd.asarray(b)).numpy(), a @ b)
    y = kd.asarray(a) + 1
    np.testing.assert_array_equal(y[1:, ::2].numpy(), (a + 1)[1:, ::2])  # a view: realised, then read
    np.testing.assert_array_equal(y.T.numpy(), (a + 1).T)


def test_a_destroyed_staging_tensor_is_recorded_again_not_replayed():
    st = state(kd.device())
    x = kd.asarray(np.arange(24, dtype=np.float32))
    for _ in range(2):
        np.testing.assert_array_equal((x * 3).numpy(), np.arange(24) * 3)
    key = (24, np.dtype(np.float32).str)
    old = st.staging.pop(key)
    st.staging_views.pop(key, None)
    old.destroy()  # as an eviction does: the recorded copy into it must not run again
    np.testing.assert_array_equal((x * 3).numpy(), np.arange(24) * 3)
    assert st.staging[key] is not old


def test_an_upload_of_the_same_size_inside_the_read_keeps_the_cache_bounded():
    st = state(kd.device())
    for n in range(1, 2 * staging.STAGING_PER_DEVICE + 3):
        a = np.arange(n, dtype=np.int32) - 3  # uploaded inside the read, through a staging tensor of its size
        np.testing.assert_array_equal((kd.asarray(a) * 2).numpy(), a * 2)
        assert len(st.staging) <= staging.STAGING_PER_DEVICE
        assert len(st.staging_views) <= staging.STAGING_PER_DEVICE
        assert not any(t._destroyed for t in st.staging.values())


def test_results_larger_than_the_staging_cache_are_read_after_their_batch():
    n = staging.STAGING_BYTES // 4 + 1
    a = np.arange(n, dtype=np.float32)
    np.testing.assert_array_equal((kd.asarray(a) + 1).numpy(), a + 1)


def test_reads_inside_a_profile_are_right():
    x = kd.asarray(np.arange(8, dtype=np.float32))
    with kd.profile():
        assert float((x * 2).sum()) == 56.0


def test_threads_reading_fresh_results():
    x = kd.asarray(np.arange(32, dtype=np.float32))
    errors: list[BaseException] = []

    def work(k: int) -> None:
        try:
            for i in range(25):
                assert float((x * k + i).sum()) == float((np.arange(32) * k + i).sum())
        except BaseException as exc:  # noqa: BLE001 (reported by the main thread)
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]
