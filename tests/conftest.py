"""Fixtures shared by the unit tests."""
import pytest


@pytest.fixture
def progress_file(tmp_path, monkeypatch):
    """A fresh, empty progress file for one test: ``CTXLIB_PROGRESS`` points at it."""
    path = tmp_path / "progress.json"
    monkeypatch.setenv("CTXLIB_PROGRESS", str(path))
    return path
