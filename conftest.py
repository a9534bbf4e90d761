"""pytest setup shared by the unit tests and nbval.

Every test, and every notebook kernel nbval starts, records quick-check attempts in a
throwaway progress file, never in the learner's ``~/.ctxlib``.
"""
import os
import tempfile

os.environ["CTXLIB_PROGRESS"] = os.path.join(tempfile.mkdtemp(prefix="ctxlib-test-"), "progress.json")
