"""How many learners one machine serves: ``run.py hub``'s hub with N learners running Lesson 1 at once.

For each room size N it starts the hub on 127.0.0.1 in a fresh temporary room, signs N learners
in over HTTP, asks for all N servers at once (as a room does when the instructor says "go"),
then starts a kernel per learner and runs every code cell of Lesson 1 (English) in all N kernels
at once, and measures:

- **server start**: from asking the hub for a learner's server to the hub calling it ready
  (seconds, p50 and the slowest);
- **Lesson 1**: from starting the learner's kernel to the end of the lesson's last cell
  (kernel start, imports, every cell; p50 and the slowest);
- **CPU time**: the CPU seconds (user + system) each learner's server and kernel used, start
  and lesson included: unlike wall times, this hardly depends on what else the machine runs,
  so it gives the idle machine's time for a room: learners x CPU seconds / cores;
- **memory**: the proportional set size (PSS, which splits shared pages fairly; MB) of each
  learner's Jupyter server and of each kernel after the lesson, and of the hub and its proxy.

Usage: ``.venv/bin/python benchmarks/bench_hub.py [N ...]`` (default: 1 5 10 20). Needs the hub
(``python3 run.py hub --install-only``). Only loopback is used. The load average before each
room is printed: on a machine shared with other work the times are upper bounds.
"""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
import requests

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "bench-room-password"
LESSON = ROOT / "lessons" / "en" / "01_window_as_budget.ipynb"


def load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


run = load("run", ROOT / "run.py")
hub_client = load("hub_client", ROOT / "tools" / "hub_client.py")


def lesson_code() -> list[str]:
    """Lesson 1's code cells, in order, as a learner's Run All sends them."""
    cells = json.loads(LESSON.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code" and "".join(c["source"]).strip()]


def pss_mb(process: psutil.Process) -> float:
    return process.memory_full_info().pss / 1e6


def cpu_s(process: psutil.Process) -> float:
    times = process.cpu_times()
    return times.user + times.system


def at_once(function, items) -> list:
    """``function(item)`` for every item, each in its own thread, all started together; the results in order."""
    results, errors = [None] * len(items), []

    def work(i, item):
        try:
            results[i] = function(item)
        except Exception as exc:  # reported after all threads end
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i, item)) for i, item in enumerate(items)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return results


def remove_room_users(room: Path) -> None:
    """As root the hub made a system user for each learner (``ctx-<name>``, home in ``room``): remove them, so that
    the next room (a new folder) can make its own; the hub refuses a user whose home is another room's."""
    if not run.running_as_root():
        return
    import pwd

    for entry in pwd.getpwall():
        if entry.pw_name.startswith("ctx-") and Path(entry.pw_dir).is_relative_to(room):
            subprocess.run(["userdel", entry.pw_name], check=False, capture_output=True)


def measure_room(n: int) -> dict:
    """Run a room of ``n`` learners through Lesson 1; returns the measurements (seconds, MB)."""
    room = Path(tempfile.mkdtemp(prefix=f"ctxlib-bench-room-{n}-"))
    run.room_private(room)  # as run.py hub makes it: as root, learners' users pass through the room to their homes
    port = run.free_port()
    url = f"http://127.0.0.1:{port}"
    log = (room / "hub.log").open("w")
    hub = subprocess.Popen(run.hub_command(), cwd=room, stdout=log, stderr=subprocess.STDOUT,
                           env=run.hub_environment(room, "127.0.0.1", port, PASSWORD), start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if requests.get(f"{url}/hub/api/", timeout=2).status_code == 200:
                    break
            except requests.ConnectionError:
                pass
            if time.monotonic() > deadline or hub.poll() is not None:
                raise RuntimeError(f"the hub did not start; see {room / 'hub.log'}")
            time.sleep(0.3)
        learners = [hub_client.Learner(url, f"learner{i:03d}", PASSWORD) for i in range(n)]
        load_before = os.getloadavg()[0]

        def start(learner):
            began = time.monotonic()
            learner.start_server()
            learner.wait_until_ready(timeout_s=600)
            return time.monotonic() - began

        starts = at_once(start, learners)
        cells = lesson_code()

        def lesson(learner):
            began = time.monotonic()
            learner.start_kernel()
            for code in cells:
                learner.run(code, timeout_s=600)
            return time.monotonic() - began

        lessons = at_once(lesson, learners)
        hub_process = psutil.Process(hub.pid)
        servers, kernels, proxy, cpu = [], [], [], []
        for child in hub_process.children(recursive=True):
            command = " ".join(child.cmdline())
            if "jupyterhub-singleuser" in command:
                servers.append(pss_mb(child))
                cpu.append(cpu_s(child))
            elif "ipykernel_launcher" in command:
                kernels.append(pss_mb(child))
                cpu.append(cpu_s(child))
            elif "configurable-http-proxy" in command or "node" in Path(child.cmdline()[0]).name:
                proxy.append(pss_mb(child))
        return {
            "learners": n, "load_before": load_before,
            "start_p50": statistics.median(starts), "start_max": max(starts),
            "lesson_p50": statistics.median(lessons), "lesson_max": max(lessons),
            "server_mb": statistics.mean(servers), "kernel_mb": statistics.mean(kernels),
            "cpu_per_learner": sum(cpu) / n,
            "hub_mb": pss_mb(hub_process) + sum(proxy), "kernels": len(kernels), "servers": len(servers),
            "total_mb": pss_mb(hub_process) + sum(proxy) + sum(servers) + sum(kernels),
        }
    finally:
        hub.send_signal(signal.SIGTERM)  # the hub stops every learner's server itself
        try:
            hub.wait(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(hub.pid, signal.SIGKILL)
        log.close()
        remove_room_users(room)
        if sys.exc_info()[0] is None:  # kept after a failure, for its hub.log
            shutil.rmtree(room, ignore_errors=True)


def main(sizes: list[int]) -> None:
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, "
          f"{psutil.virtual_memory().total / 1e9:.1f} GB memory; Lesson 1: {len(lesson_code())} code cells")
    print("| learners | load before | server start p50 / slowest (s) | Lesson 1 p50 / slowest (s) "
          "| CPU s per learner | per server (MB) | per kernel (MB) | hub + proxy (MB) | total (MB) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in sizes:
        m = measure_room(n)
        assert m["kernels"] == n and m["servers"] == n, m
        print(f"| {n} | {m['load_before']:.1f} | {m['start_p50']:.1f} / {m['start_max']:.1f} "
              f"| {m['lesson_p50']:.1f} / {m['lesson_max']:.1f} | {m['cpu_per_learner']:.1f} | {m['server_mb']:.0f} | {m['kernel_mb']:.0f} "
              f"| {m['hub_mb']:.0f} | {m['total_mb']:,.0f} |", flush=True)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [1, 5, 10, 20])
