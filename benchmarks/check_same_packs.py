"""Check that a speed change changed no result: packs, ranks and scores, byte for byte.

Packs several queries at several budgets on three trees (the standard library as
``bench_pack.py`` reads it, a repository given with ``--repo``, the course's sample project),
with every strategy's default and a few options, and writes everything a pack returns (its
text, chosen files and views, scores, skipped reasons) plus the full rankings of the
``signals`` and ``bm25`` scorers to one JSON file. Run it before a change with ``--save``, after
it with ``--compare``: any difference is printed and the exit status is 1.

    python benchmarks/check_same_packs.py --repo /tmp/tree --save /tmp/before.json
    python benchmarks/check_same_packs.py --repo /tmp/tree --compare /tmp/before.json

``--repo`` should be a fixed copy (``git archive``), not the worktree being edited.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import sysconfig
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ctxlib import fit, repo  # noqa: E402

STDLIB = sysconfig.get_paths()["stdlib"]
QUERIES = ["parse http headers", "http cookie parsing expires", "json decoder error position",
           "Fix NO_PROXY handling in urllib.request getproxies_environment",
           "first turn ceiling budget", "vat invoice total discount"]
BUDGETS = [2_000, 13_000, 70_000]
OPTIONS = [{}, {"strategy": "footholds"}, {"view": "ranges", "fmt": "markdown"}, {"strategy": "density"}]


def _pack_record(files, query, budget, skipped, **options) -> dict:
    try:
        pack = fit.pack_files(files, query, budget, encoding="o200k_base", skipped=skipped, **options)
    except ValueError as exc:
        return {"error": str(exc)}
    return {"sha256": hashlib.sha256(pack.text.encode("utf-8", "surrogatepass")).hexdigest(),
            "used": pack.used_tokens, "tokenized": pack.files_tokenized, "read": pack.files_read,
            "chosen": [[c.path, c.view, c.tokens, repr(c.score), repr(c.value), c.ranges, list(c.copies)]
                       for c in pack.chosen],
            "skipped": [[s.path, str(s.reason), repr(s.params)] for s in pack.skipped], "note": pack.query_note}


def _ranks(files, query) -> dict:
    out = {}
    for scorer in ("signals", "bm25"):
        try:
            ranked = fit.rank(files, query, scorer)
        except ValueError as exc:
            out[scorer] = str(exc)
            continue
        out[scorer] = hashlib.sha256(repr([(p, repr(s)) for p, s in ranked]).encode()).hexdigest()
        out[scorer + "_top"] = [[p, repr(s)] for p, s in ranked[:15]]
    return out


def _trees(repo_root: str | None):
    yield "stdlib", STDLIB, ["site-packages/", "dist-packages/"]
    if repo_root:
        yield "repo", repo_root, []
    from ctxlib.course.sample_project import build_sample_project

    tmp = tempfile.mkdtemp(prefix="same_packs_")
    yield "sample", str(build_sample_project(Path(tmp) / "shop")), []


def collect(repo_root: str | None) -> dict:
    results = {}
    long_query = (Path(STDLIB, "argparse.py").read_text() * 2)[:20_000]  # a pasted text (a fixed file): select_terms bounds it
    for name, root, exclude in _trees(repo_root):
        found = repo.read_repo(root, exclude=exclude)
        files = {f.path: f.text for f in found.files}
        results[f"{name}/read"] = {"files": [f.path for f in found.files],
                                   "sha256": hashlib.sha256("".join(f.text for f in found.files)
                                                            .encode("utf-8", "surrogatepass")).hexdigest(),
                                   "skipped": [[s.path, str(s.reason), repr(s.params)] for s in found.skipped],
                                   "notes": [[s.path, str(s.reason)] for s in found.notes]}
        for query in QUERIES + [long_query]:
            results[f"{name}/rank/{query[:40]}"] = _ranks(files, query)
            for budget in BUDGETS:
                for options in OPTIONS if query != long_query else [{}]:
                    key = f"{name}/pack/{query[:40]}/{budget}/{json.dumps(options, sort_keys=True)}"
                    results[key] = _pack_record(files, query, budget, found.skipped, **options)
        print(name, "done", file=sys.stderr)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", help="a fixed copy of a repository to pack too")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--save", help="write the results to this JSON file")
    group.add_argument("--compare", help="compare with the results in this JSON file")
    args = parser.parse_args()
    results = json.loads(json.dumps(collect(args.repo)))
    if args.save:
        Path(args.save).write_text(json.dumps(results, indent=1))
        print(f"saved {len(results)} results to {args.save}")
        return 0
    before = json.loads(Path(args.compare).read_text())
    differ = [key for key in sorted(set(before) | set(results)) if before.get(key) != results.get(key)]
    for key in differ[:20]:
        print("DIFFERS:", key)
    print(f"{len(results) - len(differ)} of {len(results)} results identical; {len(differ)} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
