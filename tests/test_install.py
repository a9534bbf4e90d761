"""The library installs without the course: `pip install .` brings no Jupyter, and `ctxlib pack` works.

The wheel's metadata is checked on every run (building it needs only hatchling). The fresh-venv test
needs the wheels of ctxlib's dependencies without the internet: a wheelhouse made online by
`python3 run.py wheelhouse DIR`, named by ``CTXLIB_WHEELHOUSE=DIR``. CI makes one and sets
``CTXLIB_REQUIRE_WHEELHOUSE=1``, which turns its absence into a failure.
"""
from __future__ import annotations

import email
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from ctxlib.tokens import count_tokens

ROOT = Path(__file__).resolve().parents[1]
CLASSROOM = ("jupyterlab", "jupyter-server", "jupyter-core", "ipykernel", "ipywidgets", "ipython", "matplotlib",
             "notebook", "nbformat", "voila")


def wheelhouse() -> Path:
    folder = os.environ.get("CTXLIB_WHEELHOUSE")
    if folder and Path(folder).is_dir():
        return Path(folder)
    reason = ("no wheelhouse to install from without the internet: make one with python3 run.py wheelhouse DIR "
              "and set CTXLIB_WHEELHOUSE=DIR")
    if os.environ.get("CTXLIB_REQUIRE_WHEELHOUSE") == "1":
        pytest.fail(f"CTXLIB_REQUIRE_WHEELHOUSE=1 but {reason}", pytrace=False)
    pytest.skip(reason)


def base_requirements(wheel: Path) -> list[str]:
    """The wheel's Requires-Dist entries that no extra guards: what `pip install ctxlib` installs."""
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = email.message_from_bytes(archive.read(name))
    return [r for r in metadata.get_all("Requires-Dist") if "extra ==" not in r]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    hatchling = pytest.importorskip("hatchling.builders.wheel", reason="hatchling is not installed")
    out = tmp_path_factory.mktemp("wheel")
    builder = hatchling.WheelBuilder(str(ROOT))
    return Path(next(iter(builder.build(directory=str(out), versions=["standard"]))))


def test_the_wheel_needs_nothing_of_the_classroom(wheel):
    names = {r.split(";")[0].split("[")[0].split(">")[0].split("=")[0].split("<")[0].strip().lower()
             for r in base_requirements(wheel)}
    assert names == {"tiktoken", "pathspec", "regex", "filelock", "tqdm", "dulwich"}
    with zipfile.ZipFile(wheel) as archive:
        entry_points = next(archive.read(n).decode() for n in archive.namelist() if n.endswith("entry_points.txt"))
    assert "ctxlib = ctxlib.cli:main" in entry_points
    assert "course = ctxlib.course.commands:add_commands" in entry_points


def test_a_fresh_venv_without_extras_packs_and_points_to_the_course(tmp_path):
    wheels = wheelhouse()
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON", "VIRTUAL_ENV"))}
    clean["PIP_CONFIG_FILE"] = os.devnull
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-index", "--find-links", str(wheels),
                    str(ROOT)], check=True, env=clean, capture_output=True, cwd=tmp_path)
    listed = subprocess.run([str(python), "-m", "pip", "list", "--format=freeze"], check=True, env=clean,
                            capture_output=True, text=True).stdout.lower()
    installed = {line.split("==")[0].replace("_", "-") for line in listed.split()}
    assert not installed & set(CLASSROOM), installed & set(CLASSROOM)

    project = tmp_path / "project"
    project.mkdir()
    (project / "vat.py").write_text("def vat(amount):\n    \"\"\"VAT at 20 percent.\"\"\"\n    return amount * 0.2\n",
                                    encoding="utf-8")
    (project / "README.md").write_text("A shop that adds VAT to invoices.\n", encoding="utf-8")
    ctxlib = env_dir / "bin" / "ctxlib"
    packed = subprocess.run([str(ctxlib), "pack", str(project), "--query", "vat", "--budget", "60"], env=clean,
                            capture_output=True, text=True, cwd=tmp_path)
    assert packed.returncode == 0, packed.stderr
    assert "def vat(amount):" in packed.stdout
    assert count_tokens(packed.stdout) <= 60
    course = subprocess.run([str(ctxlib), "progress"], env={**clean, "CTXLIB_LANG": "en"},
                            capture_output=True, text=True, cwd=tmp_path)
    assert course.returncode == 2
    assert course.stderr.strip().splitlines() == [
        'ctxlib: progress is part of the course; install it from the course\'s folder with: pip install ".[course]" '
        "(missing: jsonschema, wcwidth)"]
    imported = subprocess.run([str(python), "-c", "import ctxlib, sys; ctxlib.count_tokens('hello world'); "
                               "print(sorted(m for m in sys.modules if m.split('.')[0] in "
                               "('ipywidgets', 'matplotlib', 'IPython')))"],
                              env=clean, capture_output=True, text=True, cwd=tmp_path)
    assert imported.stdout.strip() == "[]", imported.stderr


def test_the_course_commands_say_how_to_get_the_course(monkeypatch, capsys):
    import importlib.util

    from ctxlib.course import commands

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "wcwidth" else real(name, *a))
    assert commands.main(["grade", ".", "--lang", "hi"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("ctxlib: grade ") and 'pip install ".[course]"' in err and "wcwidth" in err
    assert "\n" not in err


def test_the_binder_environment_installs_the_classroom_and_its_font(tmp_path):
    """repo2docker's environment (binder/) installs what the lessons import and writes the Jupyter config the
    Devanagari font needs. It installed ``.[present]`` alone after the classroom moved to the ``[course]``
    extra, so the lessons failed on ``import ipywidgets``."""
    import re
    import tomllib

    root = Path(__file__).resolve().parents[1]
    wanted = [line.strip() for line in (root / "binder" / "requirements.txt").read_text().splitlines()
              if line.strip().startswith(".[")]
    extras = set(re.fullmatch(r"\.\[([\w,]+)\]", wanted[0]).group(1).split(","))
    declared = tomllib.loads((root / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert {"course", "present"} <= extras <= set(declared)
    script = (root / "binder" / "postBuild").read_text()
    python = script.split("<<'PY'\n", 1)[1].rsplit("\nPY", 1)[0].replace("Path(sys.prefix)", f"Path({str(tmp_path)!r})")
    done = subprocess.run([sys.executable, "-c", python], cwd=root, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "etc" / "jupyter" / "jupyter_server_config.d" / "ctxlib.json").is_file()
    assert (tmp_path / "share" / "jupyter" / "labextensions" / "ctxlib-a11y").is_dir()
