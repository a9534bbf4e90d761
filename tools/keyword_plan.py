#!/usr/bin/env python3
"""Write ctxlib/data/keyword_plan.json: the LiteralSet plan of the secret scanner's keywords.

Planning the prefilter for ~490 keywords takes ~50 ms each time a process first scans; the plan is plain data, so
it ships with the rules. Run this after changing a rule's keywords or ctxlib/literalset.py; tests/test_credentials.py
fails until the file matches ``literalset.plan_of(credentials.keyword_list())``.

    python3 tools/keyword_plan.py
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ctxlib import credentials, literalset, safefile  # noqa: E402


def main() -> None:
    words = credentials.keyword_list()
    path = credentials.KEYWORD_PLAN
    text = json.dumps({"literals": words, "plan": literalset.plan_of(words)}, ensure_ascii=False, separators=(",", ":"))
    safefile.write_atomically(path, text + "\n")
    print(f"wrote {path.relative_to(ROOT)}: {len(words)} keywords, {len(text):,} characters")


if __name__ == "__main__":
    main()
