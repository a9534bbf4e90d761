"""The per-turn chart as SVG, for where matplotlib cannot be imported (the browser build).

Lesson 2's chart (see ``charts.turn_chart``) drawn with nothing but strings: the same bars
(one per turn, stacked by block kind, reply on top), the same dashed context-window line, the
same tick labels ("turn / stop_reason"), title, legend and optional zoom panel, from the same
``occupancy`` rows. Each bar segment carries its token count in ``data-tokens``, so a test can
read the drawn numbers back. Pyodide has no matplotlib wheel on the package index.

Where the text gets its font: JupyterLab shows an ``image/svg+xml`` output as an ``<img>``, and
an image cannot use the page's web fonts, so Devanagari in it renders as boxes wherever the
system has no Devanagari font (a fresh machine running the browser build). ``SvgChart`` is
therefore shown inline, as ``text/html`` (``_repr_html_``): the ``<svg>`` is part of the page and
its text is drawn with the page's fonts, which in the browser build include ctxlib's Noto Sans
Devanagari (``lite/custom.css``, family "ctxlib Devanagari"). The browser shapes the Devanagari
(conjuncts, matras). The inline SVG carries its text alternative (``role="img"``, ``aria-label``
and ``<title>``), ``lang``, and scales down to the output area's width (``max-width: 100%``).

Not handled: saving to PNG (a desktop figure has ``savefig``; this one has ``svg`` only).
"""
from __future__ import annotations

import html
import textwrap

PANEL_W, PANEL_H, LEFT, TOP, BOTTOM, LEGEND_W = 380, 300, 70, 44, 58, 225
# The page's fonts first (the browser build's Devanagari web font), then whatever the system has.
FONT_STYLE = ('font-family: var(--jp-content-font-family, \'ctxlib Devanagari\', sans-serif); '
              'max-width: 100%; height: auto')


class SvgChart:
    """One chart as SVG text; Jupyter shows it inline through ``_repr_html_`` (see the module docstring).

    ``svg`` is the standalone SVG; ``alt`` its one-sentence text alternative
    (``charts.chart_alt``), also its plain text; ``lang`` the language of its labels.
    """

    def __init__(self, svg: str, title: str, alt: str = "", lang: str = "en"):
        self.svg, self.title, self.alt, self.lang = svg, title, alt or title, lang

    def _repr_svg_(self) -> str:
        return self.svg

    def _repr_html_(self) -> str:
        label = html.escape(self.alt, quote=True)
        inline = self.svg.replace('role="img">', f'role="img" aria-label="{label}" lang="{self.lang}" '
                                  f'style="{FONT_STYLE}"><title>{html.escape(self.alt)}</title>', 1)
        return f'<figure class="ctxlib-chart" lang="{self.lang}" style="margin: 0.5em 0">{inline}</figure>'

    def __repr__(self) -> str:
        return self.alt


def _panel(rows, kinds, colors, xlabel: str, window: int, low: int, high: float, x0: float, y0: float = 0,
           ticks: bool = True) -> list[str]:
    height = high - low
    top_y = TOP + y0
    y = lambda tokens: top_y + PANEL_H * (1 - (tokens - low) / height)  # noqa: E731
    step = PANEL_W / len(rows)
    width = step * 0.7
    out = [f'<rect x="{x0}" y="{top_y}" width="{PANEL_W}" height="{PANEL_H}" fill="none" stroke="#444"/>']
    for tick in range(6):  # five intervals on the token axis
        tokens = low + height * tick / 5
        out.append(f'<text x="{x0 - 6}" y="{y(tokens) + 4:.1f}" text-anchor="end" font-size="11">{tokens:,.0f}</text>')
    for i, row in enumerate(rows):
        bottom, cx = 0, x0 + step * (i + 0.5)
        for kind in kinds:
            tokens = row[kind]
            top, base = max(min(bottom + tokens, high), low), max(min(bottom, high), low)
            if top > base:
                out.append(f'<rect x="{cx - width / 2:.1f}" y="{y(top):.1f}" width="{width:.1f}" '
                           f'height="{y(base) - y(top):.1f}" fill="{colors[kind]}" stroke="white" stroke-width="0.5" '
                           f'data-turn="{row["turn"]}" data-kind="{kind}" data-tokens="{tokens}"/>')
            bottom += tokens
        if ticks:
            out.append(f'<text x="{cx:.1f}" y="{top_y + PANEL_H + 14}" text-anchor="middle" font-size="10">'
                       f'{row["turn"]}<tspan x="{cx:.1f}" dy="12">{html.escape(str(row["stop_reason"]))}</tspan></text>')
    out.append(f'<line x1="{x0}" x2="{x0 + PANEL_W}" y1="{y(window):.1f}" y2="{y(window):.1f}" stroke="black" '
               f'stroke-dasharray="6 4" stroke-width="1.2" data-window="{window}"/>')
    out.append(f'<text x="{x0 + PANEL_W / 2}" y="{top_y + PANEL_H + 44}" text-anchor="middle" font-size="12">'
               f'{html.escape(xlabel)}</text>')
    return out


def svg_turn_chart(rows: list[dict], kinds: tuple, colors: dict, labels: dict, window: int,
                   zoom_tokens: int | None = None, alt: str = "", lang: str = "en") -> SvgChart:
    """The SVG twin of ``charts.turn_chart``'s figure.

    Args:
        rows: ``transcript.occupancy(simulation)``: per turn, tokens by kind, ``turn``, ``stop_reason``.
        kinds: the stacked kinds bottom to top (``transcript.LOOP_KINDS`` then ``"reply"``).
        colors, labels: ``charts.COLORS`` and ``charts._labels(lang)`` (its "window" and "zoom" are
            functions of a token count).
        window: the context window in tokens (the dashed line).
        zoom_tokens: if given, a second panel with only the top ``zoom_tokens`` of the window.
        alt, lang: the text alternative (``charts.chart_alt``) and the labels' language.
    Returns:
        an ``SvgChart``, at most 980 px wide (two panels).
    """
    highest = max(window, *(sum(row[k] for k in kinds) for row in rows))
    panels = [(0, highest * 1.05)]
    if zoom_tokens:
        panels.append((window - zoom_tokens, highest + zoom_tokens * 0.05))
    width = LEFT + len(panels) * (PANEL_W + LEFT) + 10
    legend_y = TOP + PANEL_H + BOTTOM + 10
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{legend_y + 70}" '
             f'viewBox="0 0 {width} {legend_y + 70}" font-family="sans-serif" role="img">',
             f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="15">{html.escape(labels["title"])}</text>',
             f'<text x="16" y="{TOP + PANEL_H / 2}" font-size="12" text-anchor="middle" '
             f'transform="rotate(-90 16 {TOP + PANEL_H / 2})">{html.escape(labels["ylabel"])}</text>']
    for n, (low, high) in enumerate(panels):
        x0 = LEFT + n * (PANEL_W + LEFT)
        parts += _panel(rows, kinds, colors, labels["xlabel"], window, low, high, x0)
        if n == 1:
            parts.append(f'<text x="{x0 + PANEL_W / 2}" y="{TOP - 6}" text-anchor="middle" font-size="11">'
                         f'{html.escape(labels["zoom"](zoom_tokens))}</text>')
    entries = [(labels[k], f'<rect width="12" height="12" fill="{colors[k]}"/>') for k in kinds]
    entries.append((labels["window"](window),
                    '<line x1="0" x2="14" y1="6" y2="6" stroke="black" stroke-dasharray="4 3"/>'))
    parts += _legend(entries, width, legend_y)
    parts.append("</svg>")
    return SvgChart("\n".join(parts), labels["title"], alt, lang)


def _legend(entries: list[tuple[str, str]], width: int, legend_y: int) -> list[str]:
    """The legend's SVG elements: ``entries`` are ``(label, swatch SVG)``, laid out from ``legend_y`` (pixels) in
    as many entries per row as fit in ``width`` pixels, 18 pixels a row."""
    per_row = max(1, (width - LEFT) // LEGEND_W)
    return [f'<g transform="translate({LEFT + (i % per_row) * LEGEND_W} {legend_y + (i // per_row) * 18})">{swatch}'
            f'<text x="18" y="10" font-size="11">{html.escape(text)}</text></g>' for i, (text, swatch) in enumerate(entries)]


def svg_panels_chart(panels: list[tuple[str, list[dict]]], kinds: tuple, colors: dict, kind_labels: dict,
                     window: int, texts: dict, columns: int = 2, alt: str = "", lang: str = "en") -> SvgChart:
    """Several stacked-bar panels on one token axis, one per ``(title, rows)``: ``charts.removal_chart`` as SVG.

    Args:
        panels: per panel its title (a rule's name) and its rows (``overflow.tokens_by_kind``).
        kinds: the stacked kinds bottom to top, ``"reply"`` last; colors, kind_labels: per kind.
        window: the context window in tokens (the dashed line in every panel).
        texts: ``title``, ``xlabel``, ``ylabel`` and ``window`` (the legend's line), already translated.
        columns: panels per row (``charts.removal_chart`` passes at most 2: 980 px).
        alt, lang: the text alternative (``charts.chart_alt``) and the labels' language.
    Returns:
        an ``SvgChart``; kinds that never occur are left out of the bars and the legend; a rule's
        name longer than a panel's width is wrapped onto more lines.
    """
    present = [k for k in kinds if any(row[k] for _, rows in panels for row in rows)]
    highest = max(window, *(sum(row[k] for k in present) for _, rows in panels for row in rows))
    columns = min(columns, len(panels))
    rows_n = -(-len(panels) // columns)
    panel_h = TOP + PANEL_H + BOTTOM
    width = LEFT + columns * (PANEL_W + LEFT) + 10
    legend_y = 10 + rows_n * panel_h
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{legend_y + 110}" '
             f'viewBox="0 0 {width} {legend_y + 110}" font-family="sans-serif" role="img">',
             f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="15">{html.escape(texts["title"])}</text>']
    for n, (title, rows) in enumerate(panels):
        x0, y0 = LEFT + (n % columns) * (PANEL_W + LEFT), (n // columns) * panel_h + 10
        parts += _panel(rows, present, colors, texts["xlabel"], window, 0, highest * 1.05, x0, y0,
                        ticks=len(rows) <= 8)
        lines = textwrap.wrap(title, 60) or [""]
        first_y = TOP + y0 - 6 - 13 * (len(lines) - 1)
        spans = "".join(f'<tspan x="{x0 + PANEL_W / 2}" dy="{0 if i == 0 else 13}">{html.escape(line)}</tspan>'
                        for i, line in enumerate(lines))
        parts.append(f'<text x="{x0 + PANEL_W / 2}" y="{first_y}" text-anchor="middle" font-size="11" '
                     f'data-rule="{html.escape(title)}">{spans}</text>')
        if n % columns == 0:
            cy = TOP + y0 + PANEL_H / 2
            parts.append(f'<text x="16" y="{cy}" font-size="12" text-anchor="middle" '
                         f'transform="rotate(-90 16 {cy})">{html.escape(texts["ylabel"])}</text>')
    entries = [(kind_labels[k], f'<rect width="12" height="12" fill="{colors[k]}"/>') for k in present]
    entries.append((texts["window"], '<line x1="0" x2="14" y1="6" y2="6" stroke="black" stroke-dasharray="4 3"/>'))
    parts += _legend(entries, width, legend_y)
    parts.append("</svg>")
    return SvgChart("\n".join(parts), texts["title"], alt, lang)

