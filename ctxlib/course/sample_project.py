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

``build_sample_git_repository(dest)`` makes the same folder a git repository with a short,
realistic history (``HISTORY``: a first commit, then seven small fixes and features, each
with its message), for Lesson 3's "Is the ranking any good?": ``ctxlib eval`` mines it. Author,
committer and dates are fixed, so the commit hashes are the same on every machine.
"""
from __future__ import annotations

from pathlib import Path

from ctxlib import safefile
from ctxlib.i18n import N_, WordedError

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
        ``Path(dest)``. Each file is written atomically (``ctxlib.safefile.write_atomically``).
    Raises:
        OSError: if ``dest`` cannot be written.

    ``ctxlib.fit.pack_repository(build_sample_project(tmp), QUERY, BUDGET)`` is the lesson's
    first run: the repository (~11,000 tokens) does not fit in 2,000.
    """
    root = Path(dest)
    for rel, data in sample_files().items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        safefile.write_atomically(target, data)
    return root


# Oldest first after the first commit: (message, [(path, text before, text after), ...]).
# The first commit holds every file as it was before these edits; the last leaves the folder
# exactly as ``build_sample_project`` writes it.
HISTORY = [
    ("Round VAT to whole cents, half up, as the finance team does",
     [("shop/vat.py", "from decimal import Decimal\n\n# Rates",
       "from decimal import Decimal\n\nfrom .money import round_cents\n\n# Rates"),
      ("shop/vat.py", "    return net * rate\n", "    return round_cents(net * rate)\n")]),
    ("Restart the invoice numbers every year",
     [("shop/invoice.py", "    if last_number is None:\n",
       "    if last_number is None or not last_number.startswith(f\"{year}-\"):\n")]),
    ("Reverse charge: no VAT on the lines of invoices to EU business buyers",
     [("shop/invoice.py", "        rate = vat_rate(self.buyer_country, category)\n",
       "        rate = Decimal(\"0\") if self.reverse_charge else vat_rate(self.buyer_country, category)\n")]),
    ("Bulk discount: 10% from 50 items, 5% from 10",
     [("shop/pricing.py", "BULK_TIERS = [(10, Decimal(\"0.05\"))]",
       "BULK_TIERS = [(50, Decimal(\"0.10\")), (10, Decimal(\"0.05\"))]"),
      ("shop/pricing.py", "    \"\"\"The bulk discount rate for a quantity: 5% from 10 items.\"\"\"",
       "    \"\"\"The bulk discount rate for a quantity: 10% from 50 items, 5% from 10.\"\"\"")]),
    ("Refuse float amounts when parsing money: binary rounding loses cents",
     [("shop/money.py", "    \"\"\"Parse a price from a str, int or Decimal.\"\"\"\n",
       "    \"\"\"Parse a price from a str, int or Decimal; floats are refused (binary rounding).\"\"\"\n"
       "    if isinstance(value, float):\n        raise TypeError(\"use Decimal or str for money, not float\")\n")]),
    ("Coupon codes ignore case and surrounding spaces",
     [("shop/pricing.py", "    coupon = COUPONS.get(code)\n", "    coupon = COUPONS.get(code.strip().upper())\n")]),
    ("Adding a product that is already in the cart increases its quantity",
     [("shop/cart.py", "        product = find_product(sku)\n        self.lines",
       "        product = find_product(sku)\n        for line in self.lines:\n"
       "            if line.product.sku == product.sku:\n                line.quantity += quantity\n"
       "                return\n        self.lines")]),
]
FIRST_MESSAGE = "Shop service: catalog, cart, pricing, VAT, invoices and orders"
AUTHOR = ("Asha Rao", "asha@shop.example")
FIRST_DATE = 1_704_103_200  # 2024-01-01 10:00 UTC; each later commit is one day after the last


def _commit(repo, texts: dict[str, bytes], ignored, message: str, parent: bytes | None, when: int) -> bytes:
    """One commit of ``texts`` (``{path: bytes}``, the files ``ignored`` leaves out) on top of ``parent``; its id."""
    from dulwich.index import commit_tree
    from dulwich.objects import Blob, Commit

    entries = []
    for rel, data in sorted(texts.items()):
        if ignored.match_file(rel):
            continue
        blob = Blob.from_string(data)
        repo.object_store.add_object(blob)
        entries.append((rel.encode("utf-8"), blob.id, 0o100644))
    commit = Commit()
    commit.tree = commit_tree(repo.object_store, entries)
    commit.parents = [parent] if parent else []
    commit.author = commit.committer = f"{AUTHOR[0]} <{AUTHOR[1]}>".encode("utf-8")
    commit.author_time = commit.commit_time = when
    commit.author_timezone = commit.commit_timezone = 0
    commit.message = (message + "\n").encode("utf-8")  # git commit -m ends the message with a newline
    repo.object_store.add_object(commit)
    return commit.id


def build_sample_git_repository(dest) -> Path:
    """The sample project in ``dest`` as a git repository whose history is ``HISTORY``.

    Args:
        dest: a folder (str or Path) that does not exist yet or is empty.
    Returns:
        ``Path(dest)``: the same files as ``build_sample_project(dest)``, plus ``.git`` with
        eight commits on ``main`` and an index that matches the last one (files ignored by the
        project's ``.gitignore`` are on disk but not committed). The hashes are the same every
        time, and the same as ``git add -A; git commit`` would make: author, committer and dates
        are fixed (``tests/test_history.py`` builds it with the git command too and compares).
    Raises:
        ValueError: if ``dest`` is a non-empty folder.
        OSError: if ``dest`` cannot be written.

    The repository is written with dulwich, in pure Python, so no ``git`` command is needed:
    the lesson runs the same on a laptop without git and in the browser build.
    """
    import pathspec
    from dulwich.index import build_index_from_tree
    from dulwich.repo import Repo

    root = Path(dest)
    if root.exists() and any(root.iterdir()):
        raise WordedError.of(N_("{root}: not empty; the sample repository needs an empty folder"), root=str(root))
    final = sample_files()
    texts = dict(final)
    for _, edits in reversed(HISTORY):  # undo the history, newest edit first
        for path, before, after in reversed(edits):
            text = texts[path].decode("utf-8")
            if text.count(after) != 1:
                raise AssertionError(f"HISTORY does not match {path}: {after[:40]!r}")
            texts[path] = text.replace(after, before).encode("utf-8")
    root.mkdir(parents=True, exist_ok=True)
    for rel, data in texts.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    ignored = pathspec.GitIgnoreSpec.from_lines(texts[".gitignore"].decode("utf-8").splitlines())
    repo = Repo.init(str(root), default_branch=b"main")
    config = repo.get_config()
    config.set((b"core",), b"autocrlf", b"false")  # the files' bytes as they are, whatever the machine's git says
    config.write_to_path()
    when = FIRST_DATE
    head = _commit(repo, texts, ignored, FIRST_MESSAGE, None, when)
    for message, edits in HISTORY:
        when += 86_400
        for path, before, after in edits:
            texts[path] = texts[path].decode("utf-8").replace(before, after, 1).encode("utf-8")
            (root / path).write_bytes(texts[path])
        head = _commit(repo, texts, ignored, message, head, when)
    repo.refs[b"refs/heads/main"] = head
    repo.refs.set_symbolic_ref(b"HEAD", b"refs/heads/main")
    build_index_from_tree(str(root), repo.index_path(), repo.object_store, repo[head].tree)
    repo.close()
    assert texts == final, "the history must end at the sample project"
    return root
