"""Fixtures shared by the unit tests."""
import pytest


@pytest.fixture
def progress_file(tmp_path, monkeypatch):
    """A fresh, empty progress file for one test: ``CTXLIB_PROGRESS`` points at it."""
    path = tmp_path / "progress.json"
    monkeypatch.setenv("CTXLIB_PROGRESS", str(path))
    return path


@pytest.fixture(autouse=True)
def commands_print_english(monkeypatch):
    """``ctxlib progress`` follows ``CTXLIB_LANG`` and the locale: the tests expect English unless they say otherwise."""
    monkeypatch.setenv("CTXLIB_LANG", "en")
