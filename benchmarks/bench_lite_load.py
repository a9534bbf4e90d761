"""Benchmark: first load of the browser build, from an empty browser profile to Python ready.

Serves a built site (``python3 run.py lite DIR``) from 127.0.0.1 with ``run.py``'s server and
opens Lesson 1 in headless Chromium, each run in a fresh profile (empty cache and storage, as a
learner's first visit), every request leaving 127.0.0.1 refused. Reports per run:

- "notebook shown": seconds from navigation to the lesson's first cell on screen;
- "Python ready": seconds until the kernel answers ``kernel_info``: Pyodide, every wheel the
  site preloads and ctxlib are loaded;
- "downloaded": the bytes the server sent for that run (every file the page and the kernel's
  worker fetched), and the site's size on disk.

    python benchmarks/bench_lite_load.py build/lite            # 3 runs, prints a Markdown table
    python benchmarks/bench_lite_load.py build/lite --runs 1

Loopback has no network latency: on a room's Wi-Fi add the time to move "bytes" over it.
"""
from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lesson", default="lessons/en/01_window_as_budget.ipynb")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    import test_lite  # the same page helpers the browser-build test uses

    spec = importlib.util.spec_from_file_location("run", ROOT / "run.py")
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    import http.server

    sent = [0]
    copy = http.server.SimpleHTTPRequestHandler.copyfile

    def counting_copy(self, source, outputfile):  # count what the server sends, whoever asked
        start = source.tell()
        copy(self, source, outputfile)
        sent[0] += source.tell() - start

    http.server.SimpleHTTPRequestHandler.copyfile = counting_copy
    server = run.lite_server(args.site, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    site = f"http://127.0.0.1:{server.server_address[1]}"
    rows = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=test_lite.CHROMIUM, args=test_lite.CHROMIUM_FLAGS)
        for _ in range(args.runs):
            with test_lite.tab(browser, site) as (page, refused):
                before = sent[0]
                timing = test_lite.open_lesson(page, site, args.lesson)
                time.sleep(1)  # let the last responses finish
                assert refused == [], refused
                rows.append((timing["notebook_shown_s"], timing["python_ready_s"], sent[0] - before))
        browser.close()
    server.shutdown()
    on_disk = sum(p.stat().st_size for p in args.site.rglob("*") if p.is_file())
    print(f"site on disk: {on_disk / 1e6:.1f} MB; {args.runs} runs, fresh profile each")
    print("| run | notebook shown (s) | Python ready (s) | downloaded (MB) |\n|---|---|---|---|")
    for n, (shown, ready, size) in enumerate(rows, 1):
        print(f"| {n} | {shown:.1f} | {ready:.1f} | {size / 1e6:.1f} |")
    print(f"| median | {statistics.median(r[0] for r in rows):.1f} | {statistics.median(r[1] for r in rows):.1f} | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
