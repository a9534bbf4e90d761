"""Tables the lessons show: an HTML table in JupyterLab, aligned plain text everywhere else.

``Table(header, rows)`` displayed in a notebook gives two forms of the same table: ``text/html``
(what JupyterLab and Voila render) and ``text/plain`` (what nbval compares, static viewers and
terminals show). Plain-text columns are aligned by *display width*, not by character count: a
Devanagari vowel sign takes no column of its own (``wcwidth``), so Hindi headers line up too::

    >>> print(Table(["file", "tokens"], [["shop/vat.py", 1234]]))
    file         tokens
    shop/vat.py   1,234

Whole numbers get thousands separators; floats are shown as given by ``number_format``.
"""
from __future__ import annotations

import html
import numbers

from wcwidth import wcswidth


def _cell(value, number_format: str) -> str:
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value)
    if isinstance(value, numbers.Integral):
        return f"{value:,}"
    if isinstance(value, numbers.Real):
        return format(value, number_format)
    return str(value)


def _width(text: str) -> int:
    w = wcswidth(text)
    return len(text) if w < 0 else w  # a control character: fall back to its length


class Table:
    """A header and rows of cells (str or numbers); ``str()`` is aligned text, ``_repr_html_`` an HTML table."""

    def __init__(self, header, rows, *, title: str = "", number_format: str = ".2f", indent: int = 0):
        """
        Args:
            header: the column names.
            rows: one sequence of cells per row, each as long as ``header``.
            title: an optional line shown above the table.
            number_format: the ``format`` spec for floats (ints always get thousands separators).
            indent: spaces before each plain-text line.
        Raises:
            ValueError: if a row's length differs from the header's.
        """
        self.header = [str(h) for h in header]
        rows = [list(row) for row in rows]
        for i, row in enumerate(rows):
            if len(row) != len(self.header):
                raise ValueError(f"row {i} has {len(row)} cells, the header has {len(self.header)}")
        self.rows = [[_cell(v, number_format) for v in row] for row in rows]
        self.numeric = [bool(rows) and all(isinstance(row[i], numbers.Real) and not isinstance(row[i], bool)
                                           for row in rows) for i in range(len(self.header))]
        self.title = title
        self.indent = indent

    def text(self) -> str:
        """The table as aligned plain text: numeric columns right-aligned, the rest left-aligned."""
        widths = [max([_width(h)] + [_width(r[i]) for r in self.rows]) for i, h in enumerate(self.header)]

        def line(cells):
            out = []
            for i, c in enumerate(cells):
                pad = " " * (widths[i] - _width(c))
                out.append(pad + c if self.numeric[i] else c + pad)
            return (" " * self.indent + "  ".join(out)).rstrip()

        lines = ([self.title] if self.title else []) + [line(self.header)] + [line(r) for r in self.rows]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        esc = lambda value: html.escape(value, quote=False)  # cell text: quotes need no escaping there, so a
        # quoted file excerpt ('release notes ...') reads as quoted in the HTML too
        style = lambda i: ' style="text-align:right"' if self.numeric[i] else ' style="text-align:left"'
        head = "".join(f"<th{style(i)}>{esc(h)}</th>" for i, h in enumerate(self.header))
        body = "".join("<tr>" + "".join(f"<td{style(i)}>{esc(c)}</td>" for i, c in enumerate(r)) + "</tr>"
                       for r in self.rows)
        caption = f"<caption>{esc(self.title)}</caption>" if self.title else ""
        return f'<table class="ctxlib-table">{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
