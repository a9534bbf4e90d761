"""What kind of file a path is: the prior of Lesson 3's ``kind`` signal (``ranking.py``).

``path_kind`` sorts a path into source, config, test, docs, changelog or generated (which
includes vendored copies); ``KIND_PRIOR`` is the share of its score each kind keeps. A task
about packaging or CI lifts the packaging files (``is_packaging``); a task that does not speak
of examples keeps ``EXAMPLE_PRIOR`` of an example's score (``is_example``). The rules and their
word lists were chosen on the ranking benchmark's tuning half only (``benchmarks/eval_instances.json``).

Not handled: a vendored copy that is not under a folder named as one (``vendor/``, ``_vendor/``,
``third_party/``, a package's own ``packages/``).
"""
from __future__ import annotations

import re

KIND_PRIOR = {"source": 1.0, "config": 0.5, "test": 0.4, "docs": 0.3, "changelog": 0.15, "generated": 0.1}
_HASHED = re.compile(r"[.-][0-9a-f]{8,}\.")  # bundle names: 718.a7a3f80ef4813fab.js
# Chosen on the benchmark's tuning half only (benchmarks/eval_instances.json, "split").
# A word that names packaging or CI lifts those files to the best file's level (PACKAGING_FLOOR of
# its score, at least); a weaker one only ranks them as source.
PACKAGING_WORDS = frozenset({"setup", "packaging", "pypi", "classifier", "classifiers", "wheel", "wheels", "sdist",
                             "metadata", "dependency", "dependencies", "requirements", "requires", "tox",
                             "travis", "ci", "workflow", "workflows", "pyproject", "setuptools", "flit",
                             "lint", "linting", "publish", "publishing", "cpython", "pypy", "manifest",
                             "extras", "urls", "zip", "appveyor", "azure", "codecov", "coverage", "mypy"})
PACKAGING_HINTS = frozenset({"python", "package", "install", "installation", "build", "testing", "tests",
                             "support", "pin", "venv", "virtualenv", "action", "actions", "github", "version",
                             "versions", "drop", "entry", "license", "benchmarks", "hatch"})
PACKAGING_FLOOR = 0.3
EXAMPLE_WORDS = frozenset({"example", "examples", "tutorial", "demo", "sample", "flaskr"})
EXAMPLE_PRIOR = 0.5
_PACKAGING_NAMES = frozenset({"setup.py", "setup.cfg", "pyproject.toml", "tox.ini", "noxfile.py", "manifest.in",
                              ".travis.yml", "appveyor.yml", ".gitlab-ci.yml", "azure-pipelines.yml",
                              ".pre-commit-config.yaml", "requirements.txt", "hatch.toml"})
_EXAMPLE_FOLDERS = frozenset({"examples", "example", "demo", "demos", "samples", "docs_src", "tutorial"})

def path_kind(path: str) -> str:
    """What a file is, by its path: ``source``, ``test``, ``docs``, ``changelog``, ``generated`` or ``config``.

    ``path_kind("tests/test_ceiling.py")`` -> ``"test"``; ``path_kind("CHANGES.rst")`` ->
    ``"changelog"``; ``path_kind("src/_vendor/six.py")`` -> ``"generated"``.
    """
    lower = path.lower()
    folders, _, name = lower.rpartition("/")
    parts = set(folders.split("/")) if folders else set()
    stem, _, ext = name.rpartition(".") if "." in name.lstrip(".") else (name, "", "")
    if parts & {"vendor", "vendored", "_vendor", "third_party", "thirdparty", "node_modules", "dist",
                "build", "generated", "_generated"} or _vendored_package(folders) or name.endswith((".min.js", ".min.css", "_pb2.py", ".lock")) \
            or name in {"package-lock.json", "yarn.lock", "poetry.lock", "uv.lock"} or _HASHED.search(name):
        return "generated"
    if stem.split(".")[0] in {"changelog", "changes", "history", "news", "release-notes", "releasenotes",
                              "release_notes", "whatsnew", "authors", "contributors"} \
            or parts & {"changelog.d", "changes", "newsfragments", "changelog", "whatsnew", "release-notes"}:
        return "changelog"
    if parts & {"test", "tests", "testing", "spec", "__tests__"} or name.startswith("test_") \
            or any(p.startswith("test") or p.endswith(("_tests", "_test")) for p in parts) \
            or stem.endswith(("_test", "_tests", ".test", ".spec")) or name == "conftest.py":
        return "test"
    if ext in {"md", "rst", "txt", "adoc", "ipynb"} or parts & {"docs", "doc", "documentation"} \
            or stem in {"readme", "license", "copying", "notice"}:
        return "docs"
    if ext in {"toml", "cfg", "ini", "yaml", "yml", "json", "lock", "csv", "xml", "in"} or not ext \
            or name.startswith(".") or name in {"setup.py", "noxfile.py", "fabfile.py", "conf.py"}:
        return "config"
    return "source"


def _vendored_package(folders: str) -> bool:
    # pkg/packages/other/...: a package folder under a package's packages/ (requests/packages/urllib3/),
    # named other than the package; a top-level packages/ is a monorepo's own code.
    parts = folders.split("/")
    return any(p == "packages" and 0 < i < len(parts) - 1 and parts[i + 1] != parts[i - 1]
               for i, p in enumerate(parts))


def is_packaging(path: str) -> bool:
    """Whether ``path`` says how the project is built, installed or tested by CI: ``setup.py``,
    ``pyproject.toml``, ``setup.cfg``, ``tox.ini``, ``MANIFEST.in``, a CI file (``.github/workflows/*.yml``,
    ``.travis.yml``...). ``is_packaging("src/setup.py")`` -> ``False`` (only at the top or in a
    monorepo package's folder, one level down)."""
    lower = path.lower()
    folders, _, name = lower.rpartition("/")
    if folders.startswith((".github/workflows", ".circleci")):
        return name.endswith((".yml", ".yaml"))
    return name in _PACKAGING_NAMES and folders.count("/") <= 1 and "src" not in folders.split("/")


def is_example(path: str) -> bool:
    """Whether ``path`` is in an examples folder (``examples/``, ``docs_src/``, ``demo/``...)."""
    return bool(set(path.lower().split("/")[:-1]) & _EXAMPLE_FOLDERS)
