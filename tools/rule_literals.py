#!/usr/bin/env python3
"""Write ctxlib/data/rule_literals.json: ``regexscan.required_literals`` of every pattern the secret rules use.

Reading a pattern (``literalread._read_literals``: the standard library's parser, then a walk) costs ~0.4 ms; a
process that scans read ~60-90 of them before its first file was done. The readings are plain data, so they ship
with the rules. Run this after changing a rule or ``regexscan``'s reading, on every Python the file should serve:
each run adds its Python to the file's list when its readings are the file's, and starts the list again otherwise.
``tests/test_regexscan.py`` fails while the file differs from the running Python's readings.

    python3 tools/rule_literals.py
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ctxlib import credentials, literalread, regexscan, safefile  # noqa: E402


def readings() -> dict[str, list | None]:
    """``{pattern: its reading}`` for every pattern a scan reads, as ``credentials._matches`` asks for them: a
    keyword template's rest (``regexscan.template_rest``), and a rule's own pattern as ``re`` reads it (``goregex``)
    where it has no rest or its rest proves no literal. A rule searched by runs (``rule.runs``) is never read."""
    found = {}
    for rule in credentials.rules()[0]:
        if rule.runs:  # regexscan.run_finditer: its runs, not its literals, tell where it can match
            continue
        pattern = credentials._compiled(rule.regex)
        if not isinstance(pattern, re.Pattern):
            continue
        split = regexscan.template_rest(pattern.pattern)
        if split is not None:
            found[split[0]] = literalread._read_literals(split[0])
        if split is None or found[split[0]] is None:
            found[pattern.pattern] = literalread._read_literals(pattern.pattern)
    return {source: None if reading is None else [list(entry) for entry in reading]
            for source, reading in sorted(found.items())}


def main() -> None:
    path = regexscan.KNOWN_READINGS
    found = readings()
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        stored = {}
    pythons = sorted(set(stored.get("python", [])) | {version}) if stored.get("readings") == found else [version]
    rows = ",\n".join(f"{json.dumps(source, ensure_ascii=False)}:{json.dumps(reading)}" for source, reading in found.items())
    text = f'{{"python":{json.dumps(pythons)},"readings":{{\n{rows}\n}}}}'  # one pattern a line: a change reads as one
    safefile.write_atomically(path, text + "\n")
    print(f"wrote {path.relative_to(ROOT)}: {len(found)} patterns, for Python {', '.join(pythons)}")


if __name__ == "__main__":
    main()
