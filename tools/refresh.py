#!/usr/bin/env python3
"""After changing printed text or a figure: the whole chain in one command, ``python3 run.py refresh``.

    python tools/refresh.py [--since REF] [--all] [--dry-run]

Steps, in order (each a function a maintainer or another tool can call):

1. ``catalogs``: extract, update and compile the message catalogs (``tools/catalogs.py``). If an
   entry of a non-English catalog is left untranslated, stop here and list it: a Hindi notebook
   executed now would print the English fallback.
2. ``stale_notebooks``: which notebooks must be re-executed (the rule below), then execute them in
   a fresh kernel each (``tools/execute_notebooks.py``).
3. ``figure_report``: run the tests that read numbers from saved outputs (``tests/test_lesson<N>_outputs.py``
   for each lesson touched, ``tests/test_hindi_outputs.py``, and any ``tests/test_*prose*.py`` or
   ``tests/test_*figure*.py``) and list
   every prose figure or test constant that no longer matches a saved output. Nothing is edited:
   the maintainer decides whether the output or the constant is wrong.

The rule for "changed" (``stale_notebooks``): a file counts as changed when ``git status`` shows it
changed against ``REF`` (default ``HEAD``, the last commit: staged, unstaged or untracked). A lesson's
two twins (``lessons/en/NN.ipynb``, ``lessons/hi/NN.ipynb``) are both re-executed when

- either twin changed (their code cells are identical, so a code change is a change of both);
- a ``ctxlib`` module either imports changed, at any depth (imports inside functions count, and
  ``from ctxlib import count_tokens`` follows ``ctxlib/__init__.py``'s lazy-export table);
- the lesson's quiz files ``quizzes/*/NN_*.json`` changed;
- any other file inside ``ctxlib/`` changed (data files, fonts, the sample project ``ctxlib/course/shop/``:
  read by path, not imported) --
  except the message catalogs: a changed ``ctxlib/locale/<lang>/LC_MESSAGES/ctxlib.po`` re-executes
  only the notebooks in ``lessons/<lang>/``; the compiled ``.mo`` files and the template
  ``ctxlib.pot`` are made from the ``.po`` files and count for nothing (step 1 rewrites the ``.mo``
  files on every run: compiling is not byte-stable).

What the rule cannot see: a notebook reading a file outside ``ctxlib/`` and ``quizzes/`` (none does),
or randomness or time (the notebooks are deterministic; ``tests/test_notebooks.py`` checks it).
``--all`` re-executes every notebook. Running refresh twice re-executes the same notebooks again
(they are still changed against the last commit): run it once, then commit.
"""
from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The sample project the lessons pack and test: read as files, never imported, so it counts as data.
SAMPLE_PROJECT = "ctxlib/course/shop/"


def changed_files(root: Path, since: str = "HEAD") -> set[str]:
    """Paths (relative, ``/``-separated) that differ from commit ``since``, plus untracked files.

    Raises: RuntimeError naming ``since`` if git cannot compare against it.
    """
    def git(*args):
        done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"git {' '.join(args)} failed in {root}: {done.stderr.strip()}")
        return done.stdout.splitlines()

    return {line for line in git("diff", "--name-only", since, "--") + git("ls-files", "--others",
                                                                          "--exclude-standard") if line}


def _module_files(root: Path) -> dict[str, Path]:
    package = root / "ctxlib"
    modules = {}
    for path in package.rglob("*.py"):
        if path.relative_to(root).as_posix().startswith(SAMPLE_PROJECT):
            continue
        parts = path.relative_to(root).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _lazy_exports(path: Path) -> dict[str, str]:
    # A package's ``_EXPORTS = {"name": "module", ...}`` table (PEP 562 lazy exports), if it has one.
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "_EXPORTS" for t in node.targets):
            return ast.literal_eval(node.value)
    return {}


def _imports(tree: ast.AST, package: str) -> set[str]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found |= {target} | {f"{target}.{a.name}" for a in node.names}
    return {name for name in found if name.split(".")[0] == "ctxlib"}


def _resolve(names: set[str], modules: dict[str, Path]) -> set[str]:
    """The modules ``names`` mean: a module itself, or the module a package's lazy-export table names."""
    found = set()
    for name in names:
        if name in modules:
            found.add(name)
            continue
        package, _, attr = name.rpartition(".")
        if package in modules:
            found.add(package)
            target = _lazy_exports(modules[package]).get(attr)
            if target and f"{package}.{target}" in modules:
                found.add(f"{package}.{target}")
    return found


def import_closure(sources, root: Path) -> set[str] | None:
    """Every ``ctxlib`` module (as a path relative to ``root``) that code ``sources`` import, at any depth.

    Returns None when a source cannot be parsed (then treat it as importing everything).
    """
    modules = _module_files(root)
    todo, seen = set(), set()
    for text in sources:
        code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(("%", "!")))
        try:
            todo |= _resolve(_imports(ast.parse(code), ""), modules)
        except SyntaxError:
            return None
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        path = modules[name]
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        parents = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)} & set(modules)  # their __init__s run
        todo |= (_resolve(_imports(ast.parse(path.read_text(encoding="utf-8")), package), modules) | parents) - seen
    return {modules[name].relative_to(root).as_posix() for name in seen}


def _code_sources(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]


def stale_notebooks(root: Path, changed: set[str]) -> list[str]:
    """The lesson notebooks (relative paths, sorted) that ``changed`` files make stale, by the module docstring's rule."""
    notebooks = sorted(p.relative_to(root).as_posix() for p in (root / "lessons").glob("*/*.ipynb"))
    by_lesson = {}
    for nb in notebooks:
        by_lesson.setdefault(Path(nb).name, []).append(nb)
    inside = {f for f in changed if f.startswith("ctxlib/") and (not f.endswith(".py") or f.startswith(SAMPLE_PROJECT))}
    # Only a catalog's .po counts: the .mo and the .pot are made from it (and compiling is not byte-stable).
    catalog_langs = {f.split("/")[2] for f in inside if f.startswith("ctxlib/locale/") and f.endswith(".po")}
    everything = any(not f.startswith("ctxlib/locale/") for f in inside)
    stale = set()
    for name, twins in by_lesson.items():
        number = name.split("_")[0]
        closure = import_closure([s for nb in twins for s in _code_sources(root / nb)], root)
        if (everything or any(nb in changed for nb in twins) or closure is None
                or closure & changed or any(re.fullmatch(rf"quizzes/[^/]+/{number}_[^/]*\.json", f) for f in changed)):
            stale |= set(twins)
        stale |= {nb for nb in twins if nb.split("/")[1] in catalog_langs}
    return sorted(stale)


def untranslated(root: Path) -> dict[str, list[str]]:
    """Per non-English catalog, the message ids with an empty translation (needs Babel)."""
    from babel.messages.pofile import read_po

    missing = {}
    for po in sorted((root / "ctxlib" / "locale").glob("*/LC_MESSAGES/*.po")):
        lang = po.parts[-3]
        if lang == "en":
            continue
        with po.open("rb") as handle:
            catalog = read_po(handle)
        empty = [m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id and not (
            m.string if isinstance(m.string, str) else all(m.string))]
        if empty:
            missing[lang] = empty
    return missing


def catalogs(root: Path) -> int:
    """Step 1: ``tools/catalogs.py`` (extract, update, compile). Returns its exit status."""
    return subprocess.call([sys.executable, str(root / "tools" / "catalogs.py")], cwd=root)


def execute(root: Path, notebooks: list[str]) -> int:
    """Step 2: re-execute ``notebooks`` in a fresh kernel each (``tools/execute_notebooks.py``)."""
    if not notebooks:
        return 0
    return subprocess.call([sys.executable, str(root / "tools" / "execute_notebooks.py"), *notebooks], cwd=root)


def figure_tests(root: Path, notebooks: list[str]) -> list[str]:
    """The test files that read numbers from the saved outputs of ``notebooks`` (those that exist)."""
    numbers = sorted({int(Path(nb).name.split("_")[0]) for nb in notebooks})
    files = [f"tests/test_lesson{n}_outputs.py" for n in numbers] + ["tests/test_hindi_outputs.py"]
    for pattern in ("test_*prose*.py", "test_*figure*.py"):  # the prose-figure checks, whatever their lesson
        files += sorted(p.relative_to(root).as_posix() for p in (root / "tests").glob(pattern))
    return [f for f in dict.fromkeys(files) if (root / f).is_file()]


def figure_report(root: Path, notebooks: list[str]) -> list[str]:
    """Step 3: one line per figure test that fails against the saved outputs: ``test id: first line of why``.

    Runs pytest (no nbval, nothing executed) on ``figure_tests(root, notebooks)``; an empty list means
    every prose figure and test constant those tests check still matches a saved output.
    """
    files = figure_tests(root, notebooks)
    if not notebooks or not files:
        return []
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rf", "--tb=line",
                           *files], cwd=root, capture_output=True, text=True)
    return [line[len("FAILED "):] for line in done.stdout.splitlines() if line.startswith("FAILED ")]


def refresh(root: Path = ROOT, since: str = "HEAD", every: bool = False, dry_run: bool = False, *,
            run_catalogs=catalogs, run_notebooks=execute, report=figure_report, say=print) -> int:
    """The chain: catalogs, stale notebooks re-executed, figure report. Returns 0 if all is in order.

    The three steps can be replaced (a test stubs the executor). Returns 1 for untranslated
    entries (nothing executed), a failed step's status, or 1 if the figure report lists mismatches.
    """
    if not dry_run:
        status = run_catalogs(root)
        if status:
            return status
        missing = untranslated(root)
        if missing:
            for lang, ids in missing.items():
                say(f"refresh: {len(ids)} untranslated entr{'y' if len(ids) == 1 else 'ies'} in "
                    f"ctxlib/locale/{lang}/LC_MESSAGES/ctxlib.po, e.g. {ids[0]!r}; translate, then run refresh again")
            return 1
    notebooks = (sorted(p.relative_to(root).as_posix() for p in (root / "lessons").glob("*/*.ipynb")) if every
                 else stale_notebooks(root, changed_files(root, since)))
    say("refresh: notebooks to re-execute: " + (", ".join(notebooks) or "none"))
    if dry_run:
        return 0
    status = run_notebooks(root, notebooks)
    if status:
        return status
    mismatches = report(root, notebooks)
    for line in mismatches:
        say(f"refresh: no longer matches a saved output: {line}")
    if not mismatches:
        say("refresh: every figure test agrees with the saved outputs" if notebooks else "refresh: nothing to check")
    return 1 if mismatches else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python3 run.py refresh", description=__doc__.split("\n\n")[0])
    parser.add_argument("--since", default="HEAD", help="compare with this commit (default HEAD, the last commit)")
    parser.add_argument("--all", action="store_true", help="re-execute every notebook")
    parser.add_argument("--dry-run", action="store_true", help="only list the notebooks that would be re-executed")
    args = parser.parse_args(argv)
    try:
        return refresh(ROOT, args.since, args.all, args.dry_run)
    except RuntimeError as exc:
        print(f"refresh: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
