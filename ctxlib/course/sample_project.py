"""The lesson's sample repository, a small shop service, copied to disk deterministically.

Lesson 3, "Choosing context in a real repository". The project itself is a folder of real
files, ``ctxlib/course/shop/``, that a learner can open and browse: pricing, cart, VAT and
invoice modules with their tests (and a few bugs a ticket might ask to fix), an account module
whose words trap substring counting ("activate", "private" both contain "vat"), long documents
that repeat the query words, a vendored folder listed in ``.gitignore``, a PNG, a legacy CSV
export that is not UTF-8, a ``.env`` with a fake Stripe key and a deploy config with AWS's
documented example key. Every secret in it is fake.

``build_sample_project(dest)`` copies that folder, the same bytes every time, so the lesson
can read, rank and pack it without touching the installed package.
"""
from __future__ import annotations

import os
from pathlib import Path

QUERY = "vat invoice"
BUDGET = 2_000
SAMPLE_DIR = Path(__file__).with_name("shop")


def sample_files() -> dict[str, bytes]:
    """Every file of the sample project, ``{POSIX path: bytes}``, sorted by path.

    Read from ``SAMPLE_DIR``; ``__pycache__`` folders (left by running its tests) are not part of it.
    """
    files = {}
    for path in SAMPLE_DIR.rglob("*"):
        rel = path.relative_to(SAMPLE_DIR)
        if path.is_file() and "__pycache__" not in rel.parts and not rel.name.endswith(".pyc"):
            files[rel.as_posix()] = path.read_bytes()
    return dict(sorted(files.items()))


def build_sample_project(dest) -> Path:
    """Copy the sample shop project into ``dest`` and return its path.

    Args:
        dest: a folder (str or Path); created if missing. Files already there with the same
            names are replaced; nothing else is touched.
    Returns:
        ``Path(dest)``. Each file is written atomically (a temporary file, then ``os.replace``).
    Raises:
        OSError: if ``dest`` cannot be written.

    ``ctxlib.fit.pack_repository(build_sample_project(tmp), QUERY, BUDGET)`` is the lesson's
    first run: the repository (~11,000 tokens) does not fit in 2,000.
    """
    root = Path(dest)
    for rel, data in sample_files().items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target)
    return root
