#!/usr/bin/env python3
"""A git merge driver for gettext catalogs: merge two .po files entry by entry (Babel).

git's line-based merge of two branches that each added entries to a sorted catalog either
conflicts or, with the union driver, glues neighbouring entries together. This merges by
message id instead: every id from either side is kept; where only one side changed an entry's
translation since the common ancestor, that change wins; where both changed it differently,
ours is kept and the id is reported. Set it up once:

    git config merge.po.driver "python3 tools/merge_po.py %O %A %B"

(``.gitattributes`` names the driver for ``*.po``.) Exit status 0: merged into %A.
"""
from __future__ import annotations

import sys

from babel.messages.pofile import read_po, write_po


def read(path):
    with open(path, "rb") as f:
        return read_po(f)


def main(base: str, ours: str, theirs: str) -> int:
    ancestor, merged, other = read(base), read(ours), read(theirs)
    for m in other:
        if not m.id:
            continue
        mine, old = merged.get(m.id), ancestor.get(m.id)
        if mine is None:
            merged[m.id] = m
        elif m.string and mine.string != m.string:
            if not mine.string or (old is not None and mine.string == old.string):
                mine.string = m.string  # only the other side changed it
            elif old is None or m.string != old.string:
                print(f"merge_po: {m.id!r}: both sides translated it differently; kept ours", file=sys.stderr)
    with open(ours, "wb") as f:
        write_po(f, merged, omit_header=True, sort_output=True, width=76)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
