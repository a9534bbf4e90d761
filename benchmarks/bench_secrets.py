"""Time the secret scanner, old (``check_same_secrets.old_find_secrets``) against new, interleaved.

Three inputs, each scanned as the packer does (``first_only=True``), rules loaded and expressions
compiled beforehand, in this process: the 80 files ``ctxlib pack`` weighs on the standard library
for "parse http headers", the corpus of ``tests/test_credentials.py`` (x200), and every text file
of the standard library. Old and new alternate; the fastest of ``--repeat`` rounds is printed.

    nice -n 10 .venv/bin/python benchmarks/bench_secrets.py --repeat 5 [--no-stdlib]
"""
from __future__ import annotations

import argparse
import sys
import sysconfig
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from check_same_secrets import corpus_texts, old_find_secrets, tree_texts  # noqa: E402

from ctxlib import credentials, fit  # noqa: E402


def scan(find, texts, first_only=True) -> float:
    t0 = time.perf_counter()
    for path, text in texts:
        find(text, path, first_only=first_only)
    return time.perf_counter() - t0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-stdlib", action="store_true", help="skip the whole standard library")
    parser.add_argument("--all-findings", action="store_true", help="first_only=False")
    args = parser.parse_args(argv)
    files = tree_texts(sysconfig.get_paths()["stdlib"])
    top80 = [(p, files[p]) for p, _ in fit.rank_query(files, "parse http headers").relevant[:80]]
    inputs = {"top80": top80, "corpus x200": list(corpus_texts().items()) * 200}
    if not args.no_stdlib:
        inputs["stdlib"] = list(files.items())
    for name, texts in inputs.items():
        chars = sum(len(t) for _, t in texts)
        scan(old_find_secrets, texts, not args.all_findings)  # warm: compile what the rules need
        scan(credentials.find_secrets, texts, not args.all_findings)
        best = {"old": float("inf"), "new": float("inf")}
        for _ in range(args.repeat if name != "stdlib" else max(1, args.repeat // 3)):
            for label, find in (("old", old_find_secrets), ("new", credentials.find_secrets)):
                best[label] = min(best[label], scan(find, texts, not args.all_findings))
        print(f"{name}: {len(texts)} texts, {chars:,} chars: old {best['old']:.4f} s, new {best['new']:.4f} s, "
              f"{best['old'] / best['new']:.2f}x", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
