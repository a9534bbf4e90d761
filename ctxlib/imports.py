"""The import graph of a tree: which file imports which, for Lesson 3's ``imports`` signal.

Lesson 3, "Is the ranking any good?". A change often spans a module and its callers, so
``ranking.py`` gives the files that import, or are imported by, the best-ranked files a share
of their score. This module finds those neighbours: ``import_statements`` reads a text's
``import``/``from`` lines (each match checked to start its line), ``imported_modules`` resolves
relative ones against the file's own path, and ``ModuleIndex`` says which file a dotted name is
("src/jinja2/lexer.py" answers to ``lexer``, ``jinja2.lexer`` and ``src.jinja2.lexer`` when no
other file does). ``neighbours`` parses only the files whose text names one of the best files'
modules, and each distinct text once.

JavaScript and TypeScript files are linked by their relative imports (``js_imports``:
``import {x} from "./cart"``, ``require("../lib/util.js")``), resolved to a file of the tree as
bundlers resolve them.

Not handled: imports other than Python's and JavaScript's or TypeScript's relative ones (package
names, path aliases, Go's, Java's), ``importlib.import_module`` and other dynamic imports,
``sys.path`` changes, namespace packages split across folders.
"""
from __future__ import annotations

import itertools
import posixpath
import re

# ``from``, its blanks taken whole, the module (a run of dots and names: "..", "a.b", ".x"), blanks, ``import``.
# The module may be empty only after two blanks or more (as "from[ \t]+[ \t]+import" reads): the blanks were
# split between two [ \t]+ at every point, each split scanned on, and "from" before 1 MiB of spaces took hours.
_PY_FROM = re.compile(r"from[ \t]++(?:([\w.]++)[ \t]++|(?<=[ \t][ \t]))import[ \t]+\(?([\w, \t]+)")
_PY_IMPORT = re.compile(r"import[ \t]+([\w., \t]+)")


def at_line_start(text: str, i: int) -> bool:
    """Whether only spaces (or ``async``) stand between the start of ``i``'s line and offset ``i``.

    ``at_line_start("x = 1\\n    import os", 10)`` -> ``True``; ``at_line_start("# import os", 2)`` -> ``False``.
    """
    # Read back from i, not from its line's start: a 1 MiB line of "import a;" took 3 s that way.
    j = _space_before(text, i)
    if j > 4 and text.startswith("async", j - 5):
        j = _space_before(text, j - 5)
    return j == 0 or text[j - 1] == "\n" or j == 1 and text[0] == "\ufeff"  # after a byte order mark: the first line


def _space_before(text: str, i: int) -> int:
    # The start of the run of white space (not "\n") that ends at i.
    while i > 0 and text[i - 1] != "\n" and text[i - 1].isspace():
        i -= 1
    return i


def import_statements(text: str) -> tuple[tuple[str, ...], tuple[tuple[int, str, tuple[str, ...]], ...]]:
    """A text's imports before they are resolved against a path.

    Returns ``(plain, relative)``: the names of ``import a, b.c as d`` lines (``("a", "b.c")``), and
    per ``from ..x import y, z`` line ``(dots, "x", ("y", "z"))``; only statements that start a line.
    ``import_statements("import os\\nfrom . import a")`` -> ``(("os",), ((1, "", ("a",)),))``.
    """
    plain = []
    for m in _PY_IMPORT.finditer(text):
        if at_line_start(text, m.start()):
            plain += [n.strip().split(" ")[0] for n in m.group(1).split(",") if n.strip()]
    relative = []
    for m in _PY_FROM.finditer(text):
        if at_line_start(text, m.start()):
            source, names = m.group(1) or "", m.group(2)
            relative.append((len(source) - len(source.lstrip(".")), source.lstrip("."),
                             tuple(n.strip().split(" ")[0] for n in names.split(",") if n.strip())))
    return tuple(plain), tuple(relative)


def imported_modules(path: str, text: str, statements=None) -> tuple[str, ...]:
    """Dotted names a Python file imports, relative ones resolved against its own path, in order.

    Args:
        path: the file's POSIX path in the tree (only ``.py`` files import anything here).
        text: its text.
        statements: ``import_statements(text)`` if the caller has it (a copy's, say).
    Returns:
        ``imported_modules("pkg/a.py", "from .b import c")`` -> ``("pkg.b", "pkg.b.c")``.
    """
    if not path.endswith(".py"):
        return ()
    package = path[:-3].split("/")[:-1]
    plain, relative = import_statements(text) if statements is None else statements
    found = list(plain)
    for dots, base, names in relative:
        if dots:
            up = package[:len(package) - (dots - 1)] if dots - 1 <= len(package) else []
            base = ".".join(up + ([base] if base else []))
        found += [base] + [f"{base}.{n}".lstrip(".") for n in names]
    return tuple(m for m in dict.fromkeys(found) if m)


class ModuleIndex:
    """Which file a dotted module name is, among ``paths``: "src/jinja2/lexer.py" answers to "lexer",
    "jinja2.lexer" and "src.jinja2.lexer", when no other file does (else ``None``). Files are grouped
    by their name's last dotted part once; a name is resolved when it is asked for (``get``)."""

    def __init__(self, paths):
        self.by_last: dict[str, list[str]] = {}  # a module's last dotted part -> the paths that can be it
        for path in paths:
            if path.endswith(".py"):
                folders, _, name = path[:-3].rpartition("/")
                if name == "__init__":
                    if not folders:
                        continue
                    name = folders.rpartition("/")[2]
                self.by_last.setdefault(name.rpartition(".")[2], []).append(path)
        self.known: dict[str, str | None] = {}
        # (last part, number of dotted parts) -> {those last parts of a path: [paths]}: a file that imports
        # a0.x, a1.x... is not checked against every x.py once per import (5,000 against 1,000 took 6 s)
        self.tails: dict[tuple[str, int], dict[tuple[str, ...], list[str]]] = {}
        self.dotted: dict[str, tuple[list[str], set[int]]] = {}

    def get(self, module: str) -> str | None:
        """The one file ``module`` names, or ``None`` (no file, or more than one)."""
        if module not in self.known:
            last, want = module.rpartition(".")[2], tuple(module.split("."))
            if (last, len(want)) not in self.tails:
                tails: dict[tuple[str, ...], list[str]] = {}
                for path in self.by_last.get(last, ()):
                    flat, ends = self.dotted[path] if path in self.dotted else self.dotted.setdefault(path, _dotted(path))
                    if len(want) in ends:
                        tails.setdefault(tuple(flat[-len(want):]), []).append(path)
                self.tails[last, len(want)] = tails
            found = self.tails[last, len(want)].get(want, [])
            self.known[module] = found[0] if len(found) == 1 else None
        return self.known[module]


def _dotted(path: str) -> tuple[list[str], set[int]]:
    # ``path``'s module name split at its dots, and how many dotted parts each name it answers to has: its module
    # and each tail that starts at a folder (src/jinja2/lexer.py is src.jinja2.lexer, jinja2.lexer and lexer).
    # "src/a.b/c.py" -> (["src", "a", "b", "c"], {1, 3, 4}).
    parts = path[:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    flat = ".".join(parts).split(".")
    ends, n = set(), 0
    for part in reversed(parts):
        n += part.count(".") + 1
        ends.add(n)
    return flat, ends


MAX_JS_IMPORTS = 1_000  # distinct specifiers resolved per file: a real module has far fewer, a hostile one no more
JS_EXTENSIONS = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")
# A relative specifier after from, import, require( or import(: "./cart", '../lib/util.js'.
_JS_SPECIFIER = re.compile(r"""(?:\bfrom|\bimport|\brequire[ \t]*\(|\bimport[ \t]*\()[ \t]*['"](\.\.?/[^'"\n]*)['"]""")
_TS_FOR_JS = {".js": (".ts", ".tsx"), ".jsx": (".tsx",), ".mjs": (".mts",), ".cjs": (".cts",)}


def js_imports(path: str, text: str, files, only=None, specifiers=None) -> tuple[str, ...]:
    """The files of ``files`` that a JavaScript or TypeScript file imports by a relative specifier, in order.

    Args:
        path: the importing file's POSIX path in the tree.
        text: its text.
        files: the tree's paths (a dict or a set: only ``in`` is asked).
        only: if given, the files wanted (``neighbours``: the best three); a specifier is resolved only
            if its target can name one of them (``js_targets``), and only they are returned. 2,000 copies
            of an index.ts with 1,000 imports, none of a best file, took 33 s to resolve in full.
        specifiers: ``js_specifiers(text)`` if the caller has it (a copy's, say).
    Returns:
        each specifier resolved as bundlers do: the path as written, then with each of
        ``JS_EXTENSIONS``, then its folder's ``index`` file; a ``.js`` written for a ``.ts`` file (TypeScript's
        ES modules) resolves to the ``.ts``. One that leaves the tree or names no file is dropped; only
        the first ``MAX_JS_IMPORTS`` distinct specifiers are looked at.
        ``js_imports("src/app.ts", "import {total} from './cart'", {"src/cart.ts"})`` -> ``("src/cart.ts",)``.
    """
    folder, found = path.rpartition("/")[0], []
    aims = None if only is None else {t for wanted in only for t in js_targets(wanted)} - {""}
    # A target's last part is a part of the folder or of the specifier: if no aim's last part is a part of
    # the folder, a specifier that has none of them is not even joined to it.
    names = {t.rpartition("/")[2] for t in aims or ()}
    anywhere = aims is None or not names.isdisjoint(folder.split("/"))
    for spec in js_specifiers(text) if specifiers is None else specifiers:
        if not anywhere and names.isdisjoint(spec.split("/")):
            continue
        target = posixpath.normpath(posixpath.join(folder, spec))
        if target == ".." or target.startswith("../") or aims is not None and target not in aims:
            continue
        stem, ext = posixpath.splitext(target)
        tries = [target, *(target + e for e in JS_EXTENSIONS), *(f"{target}/index{e}" for e in JS_EXTENSIONS),
                 *(stem + e for e in _TS_FOR_JS.get(ext, ()))]
        hit = next((t for t in tries if t in files), None)
        if hit and hit != path and (only is None or hit in only):
            found.append(hit)
    return tuple(dict.fromkeys(found))


def js_specifiers(text: str) -> tuple[str, ...]:
    """A text's distinct relative specifiers, in order, the first ``MAX_JS_IMPORTS`` of them:
    ``js_specifiers("import a from './a'; require('../b')")`` -> ``("./a", "../b")``."""
    return tuple(itertools.islice(dict.fromkeys(_JS_SPECIFIER.findall(text)), MAX_JS_IMPORTS))


def js_targets(path: str) -> set[str]:
    """Every normalised specifier target that ``js_imports`` can resolve to ``path`` (and a few that it cannot).

    A target resolves to the first of its tries in the tree, so ``path`` is one of them: ``path`` itself,
    ``path`` without its extension, its folder for an ``index`` file, the ``.js`` written for a ``.ts``.
    ``js_targets("src/cart/index.ts")`` -> ``{"src/cart/index.ts", "src/cart/index", "src/cart", "src/cart/index.js"}``.
    """
    targets = {path}
    for e in JS_EXTENSIONS:
        if path.endswith(e):
            targets.add(path[:-len(e)])
            if path.endswith("/index" + e):
                targets.add(path[:-len("/index" + e)])
    for written, meant in _TS_FOR_JS.items():
        targets.update(path[:-len(e)] + written for e in meant if path.endswith(e))
    return targets


def _module_name(path: str) -> str | None:
    # What an import of ``path`` writes: a Python module's last name, a JavaScript file's name without its
    # extension (its folder's for an index file); None for other files.
    if path.endswith(".py"):
        return last_name(path)
    if path.endswith(JS_EXTENSIONS):
        folders, _, name = path.rpartition("/")
        stem = name.rpartition(".")[0]
        return folders.rpartition("/")[2] if stem == "index" and folders else stem
    return None


def last_name(path: str) -> str:
    """The name a module is imported by last: ``"src/jinja2/lexer.py"`` -> ``"lexer"``; ``"debug/__init__.py"`` -> ``"debug"``."""
    parts = path[:-3].split("/")
    return parts[-2] if parts[-1] == "__init__" and len(parts) > 1 else parts[-1]


def neighbours(files: dict[str, str], candidates, top, copy_of=None, skip=None) -> dict[str, list[str]]:
    """The files that import, or are imported by, one of ``top``: ``{path: [top files, ...]}``.

    Args:
        files: ``{POSIX path: text}``, the whole tree (what a dotted name can resolve to).
        candidates: the paths that may import a top file (e.g. those holding a query term), in order.
        top: the best files, e.g. the three best ranked.
        copy_of: ``{path: the first path with the same text}`` (``identical.first_copies``): each
            distinct text is looked at and parsed once.
        skip: ``skip(path) -> bool`` for files that take no part (``ranking.py``: tests).
    Returns:
        for each neighbour, the top files it is linked to, in the order found. Importing a top file
        means writing its module's last name (``last_name``): a text that holds none is not parsed.
    """
    found: dict[str, list[str]] = {}
    if not top:
        return found
    index, names = ModuleIndex(files), {n for n in map(_module_name, top) if n}
    holds: dict[str, bool] = {}  # first copy -> whether its text holds one of the names
    statements: dict[str, tuple] = {}  # first copy -> its import statements
    specifiers: dict[str, tuple] = {}  # first copy -> its relative specifiers (a .js file may copy a .py)
    for path in candidates:
        if path not in top and not path.endswith((".py", *JS_EXTENSIONS)):
            continue  # imports nothing this module reads (a .txt, a .c): its text is not searched
        text = files[path]
        first = copy_of[path] if copy_of else path
        if path not in top:
            if first not in holds:
                holds[first] = any(name in text for name in names)
            if not holds[first]:
                continue
        if path.endswith(JS_EXTENSIONS):  # relative: resolved against this path, not its first copy's
            if first not in specifiers:
                specifiers[first] = js_specifiers(text)
            # a file that is not a top file is a neighbour only of the top files it imports
            targets = js_imports(path, text, files, None if path in top else top, specifiers[first])
        else:
            if first not in statements:
                statements[first] = import_statements(text)
            targets = [index.get(module) for module in imported_modules(path, text, statements[first])]
        for target in targets:
            if target and target != path and not (skip and (skip(path) or skip(target))):
                if target in top:
                    found.setdefault(path, []).append(target)
                if path in top:
                    found.setdefault(target, []).append(path)
    return found
