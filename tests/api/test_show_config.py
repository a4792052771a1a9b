"""kd.show_config and kd.__version__ against NumPy's np.show_config and np.__version__ (a port's first lines)."""

import inspect
import re
from importlib import metadata
from pathlib import Path

import numpy as np
import pytest

import kdsl as kd
from kdsl.frontend.array import show_config


def _project_version():
    text = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    return re.search(r'^version = "([^"]+)"', text, re.M).group(1)


def test_a_source_tree_reads_its_version_from_pyproject(monkeypatch):
    """Run from a checkout that is not installed (the GPU machine's PYTHONPATH=.), the version is pyproject's."""
    def not_installed(name):
        raise metadata.PackageNotFoundError(name)
    monkeypatch.setattr(show_config.metadata, "version", not_installed)
    assert show_config.package_version() == _project_version()


def test_a_source_tree_ignores_stale_installed_metadata(monkeypatch):
    """An editable install keeps the version it was installed with: the checkout's pyproject.toml wins."""
    monkeypatch.setattr(show_config.metadata, "version", lambda name: "0.0.0-stale")
    assert show_config.package_version() == _project_version() == kd.__version__


def test_an_installed_wheel_reads_its_metadata(monkeypatch):
    monkeypatch.setattr(show_config, "_source_tree_version", lambda project: None)
    monkeypatch.setattr(show_config.metadata, "version", lambda name: "7.8.9")
    assert show_config.package_version() == "7.8.9"


def test_only_kdsls_own_pyproject_counts(tmp_path):
    other = tmp_path / "pyproject.toml"
    other.write_text('[project]\nname = "other"\nversion = "5.0.0"\n')
    assert show_config._source_tree_version(other) is None
    assert show_config._source_tree_version(tmp_path / "missing.toml") is None
    other.write_text('[project]\nname = "kdsl"\nversion = "5.0.0"\n')
    assert show_config._source_tree_version(other) == "5.0.0"


def test_the_changelogs_newest_release_is_the_version():
    """CHANGELOG.md's newest released section (after Unreleased) names the version pyproject.toml and
    kd.__version__ give."""
    text = (Path(__file__).resolve().parents[2] / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## \[(\d[^\]]*)\]", text, re.M)
    assert releases and releases[0] == _project_version() == kd.__version__


def test_signature_matches_numpy():
    assert list(inspect.signature(kd.show_config).parameters) == list(inspect.signature(np.show_config).parameters)
    assert inspect.signature(kd.show_config).parameters["mode"].default == \
        inspect.signature(np.show_config).parameters["mode"].default


def test_dicts_mode_returns_the_sections():
    d = kd.show_config(mode="dicts")
    assert isinstance(d, dict) and isinstance(np.show_config(mode="dicts"), dict)
    assert d["kdsl"]["version"] == kd.__version__ == _project_version()
    assert d["Build Dependencies"]["numpy"]["version"] == np.__version__
    assert [dev["name"] for dev in d["Devices"].values()] == [dev.name for dev in kd.devices()]


def test_stdout_mode_prints_and_returns_none(capsys):
    assert kd.show_config() is None
    printed = capsys.readouterr().out
    assert f"version: {kd.__version__}" in printed and f"version: {np.__version__}" in printed
    assert all(dev.name in printed for dev in kd.devices())


@pytest.mark.parametrize("mode", ["x", "dict", None])
def test_bad_mode_raises_numpys_error(mode):
    with pytest.raises(AttributeError, match="stdout, dicts") as got:
        kd.show_config(mode=mode)
    with pytest.raises(AttributeError) as expected:
        np.show_config(mode=mode)
    assert str(got.value) == str(expected.value)


def test_show_runtime_prints_versions_and_devices(capsys):
    assert kd.show_runtime() is None
    out = capsys.readouterr().out
    assert "kdsl_version" in out and np.__version__ in out and kd.device().name in out


@pytest.mark.parametrize("size", [16, 8192, 10_000_000, np.int64(64), -1, 0, 4, 5, 15, 17, 10_000_016, 1.5, True])
def test_bufsize_accepts_and_refuses_what_numpy_does(size):
    saved = np.getbufsize()
    try:
        want = np.setbufsize(size), np.getbufsize()
        np.setbufsize(saved)
    except (TypeError, ValueError) as exc:
        with pytest.raises(type(exc), match=str(exc) if isinstance(exc, ValueError) else None):
            kd.setbufsize(size)
        return
    old = kd.getbufsize()
    assert kd.setbufsize(size) == old and kd.getbufsize() == want[1]
    kd.setbufsize(old)
