"""pytest setup shared by the unit tests and nbval.

Every test, and every notebook kernel nbval starts, records quick-check attempts in a
throwaway progress file, never in the learner's ``~/.ctxlib``.
"""
import os
import tempfile

os.environ["CTXLIB_PROGRESS"] = os.path.join(tempfile.mkdtemp(prefix="ctxlib-test-"), "progress.json")

try:  # hypothesis's property tests: new examples on every run here, a fixed set in CI (.ci/run sets CTXLIB_HYPOTHESIS=ci),
    # so a red CI can be rerun to the same result; a failure found here is kept as an example in the test
    from hypothesis import settings

    settings.register_profile("ci", derandomize=True, database=None)
    settings.register_profile("explore")
    settings.load_profile(os.environ.get("CTXLIB_HYPOTHESIS", "explore"))
except ImportError:  # the offline workshop install runs nbval alone, without the test extras
    pass


def pytest_configure(config):
    """nbval compares a chart's alt text, not its PNG bytes (tools/nbval_sanitize.cfg), unless told otherwise."""
    if hasattr(config.option, "nbval_sanitize_with") and not config.option.nbval_sanitize_with:
        config.option.nbval_sanitize_with = os.path.join(os.path.dirname(__file__), "tools", "nbval_sanitize.cfg")


# Test groups that skip themselves when this machine lacks something, and how to enable them.
# The end of every run names each group that was skipped, so a green run cannot hide them.
SKIPPABLE_GROUPS = {
    "test_browser.py": ("browser tests (JupyterLab and Voila in headless Chromium)",
                        "install Chromium: sudo apt-get install chromium   (Debian/Ubuntu)"),
    "test_hub.py": ("hub test (a JupyterHub on 127.0.0.1 with five learners)",
                    "install the hub and its proxy: python3 run.py hub --install-only"),
    "test_install.py": ("the library alone in a fresh venv (no Jupyter, ctxlib pack works)",
                        "make a wheelhouse while online (python3 run.py wheelhouse DIR) and set CTXLIB_WHEELHOUSE=DIR"),
    "test_mcp.py": ("tests of ctxlib mcp with the SDK's own client",
                    "install the [mcp] extra: .venv/bin/pip install -e '.[mcp]' (python3 run.py setup does it)"),
    "test_offline.py": ("checks that the run has no network",
                        "they run only where there is none, as in CI: .ci/run runs the suite in a network "
                        "namespace with only loopback up (unshare --net) and sets CTXLIB_OFFLINE=1"),
    "test_lite.py": ("browser-build tests (the course as a JupyterLite site, in headless Chromium)",
                     "build the site once (npm and the package index): python3 run.py lite build/lite"),
}
# A notebook's cells marked "# NBVAL_SKIP": what they print is the learner's own (their repository).
NOTEBOOK_GROUP = ("notebook cells nbval does not compare",
                  "nothing to enable: open the lesson (python3 run.py lab) and run the cell; its output is yours")


def nbval_skip_reason(source: str) -> str:
    """Why a "# NBVAL_SKIP" cell is skipped: the comment lines right after the marker, as one sentence."""
    lines = source.splitlines()
    start = next((i + 1 for i, line in enumerate(lines) if line.strip().startswith("# NBVAL_SKIP")), len(lines))
    said = []
    for line in lines[start:]:
        if not line.strip().startswith("#"):
            break
        said.append(line.strip().lstrip("#").strip())
    return " ".join(said) or "the cell is marked # NBVAL_SKIP"


def pytest_runtest_setup(item):
    """An nbval cell marked # NBVAL_SKIP is skipped with the reason its comment gives, not a bare "Skipped"."""
    options, cell = getattr(item, "options", None), getattr(item, "cell", None)
    if isinstance(options, dict) and options.get("skip") and cell is not None:
        import pytest

        pytest.skip(f"{item.nodeid.split('::')[0]}: {nbval_skip_reason(cell.source)}")


def pytest_terminal_summary(terminalreporter):
    """After the run: each group of skipped tests, why, and how to enable it; or that none was skipped."""
    groups = {}
    for report in terminalreporter.stats.get("skipped", []):
        file = os.path.basename(report.nodeid.split("::")[0])
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        groups.setdefault(file, []).append(reason.removeprefix("Skipped: "))
    terminalreporter.write_sep("-", "skipped test groups")
    if not groups:
        terminalreporter.write_line("none: every collected test ran")
    for file, reasons in sorted(groups.items()):
        name, enable = SKIPPABLE_GROUPS.get(file, NOTEBOOK_GROUP if file.endswith(".ipynb") else
                                            (f"tests in {file}", "see the reason: each names what it needs"))
        terminalreporter.write_line(f"skipped {len(reasons)} {name}: {reasons[0]}")
        for other in sorted(set(reasons) - {reasons[0]}):
            terminalreporter.write_line(f"  also: {other}")
        terminalreporter.write_line(f"  to run them: {enable}")
