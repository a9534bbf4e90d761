"""Reading a lesson notebook's saved outputs, for the tests that check the figures a lesson states."""
import html
import json
import re
from pathlib import Path

LESSONS = Path(__file__).resolve().parent.parent / "lessons"


def code_cells(lang: str, name: str) -> list[dict]:
    nb = json.loads((LESSONS / lang / name).read_text(encoding="utf-8"))
    return [cell for cell in nb["cells"] if cell["cell_type"] == "code"]


def source(cell: dict) -> str:
    return "".join(cell["source"])


def outputs(lang: str, name: str) -> list[dict]:
    return [out for cell in code_cells(lang, name) for out in cell["outputs"]]


def cells_text(cells: list[dict]) -> str:
    """What the cells printed, as a reader sees it: stdout and plain-text results, one cell per line.

    A cell's stdout may be saved in several pieces (a slow line is flushed early), so a cell's
    outputs are joined as printed.
    """
    return "\n".join(
        "".join("".join(out.get("text", "")) + "".join(out.get("data", {}).get("text/plain", ""))
                for out in cell["outputs"])
        for cell in cells)


def saved_text(lang: str, name: str) -> str:
    return cells_text(code_cells(lang, name))


# --- The figures a lesson's prose states (issue 21, item 6) -----------------------------------------
# A figure is a number of two or more digits, a number with thousands separators or a decimal point,
# or a percentage; "180k", "12 million", "12 लाख" and "1.2 करोड़" are read as 180,000, 12,000,000,
# 1,200,000 and 12,000,000. Not figures: numbers in
# code spans and code blocks, link targets, the section number of a heading, the top cell's reading
# time (tests/test_practice.py checks it against the prose), and bibliographic numbers (a year such
# as 2023, an arXiv id such as 2307.03172).
FIGURE = re.compile(r"(?<![\w.,/-])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(%|k\b|[ -]million\b| लाख| करोड़)?(?![\w/]|\.\d)")
SCALE = {"k": 1_000, " million": 1_000_000, "-million": 1_000_000, " लाख": 100_000, " करोड़": 10_000_000}
READING_TIME = re.compile(r"(Reading time|पढ़ने का समय):[^.।]*[.।]")
BIBLIOGRAPHIC = re.compile(r"(19|20)\d\d|\d{4}\.\d{4,5}")


def normalize(number: str, suffix: str | None) -> str:
    """'180' + 'k' -> '180,000'; '1.2' + ' million' -> '1,200,000'; '12' + ' लाख' -> '1,200,000'; '35' + '%' -> '35%'."""
    if suffix in SCALE:
        return f"{round(float(number.replace(',', '')) * SCALE[suffix]):,}"
    return number + (suffix or "")


def figures_in(text: str) -> list[str]:
    """The figures in ``text``, normalized, in order (see FIGURE); single digits are left out."""
    found = []
    for m in FIGURE.finditer(text):
        number, suffix = m.group(1), m.group(2)
        if suffix is None and len(number.replace(",", "").replace(".", "")) < 2:
            continue  # 1 to 9: counts a sentence could as well spell out ("three failures")
        if suffix is None and BIBLIOGRAPHIC.fullmatch(number):
            continue
        found.append(normalize(number, suffix))
    return found


def prose_figures(lang: str, name: str) -> list[tuple[int, str]]:
    """(cell index, figure) for every figure the markdown cells of a lesson state."""
    nb = json.loads((LESSONS / lang / name).read_text(encoding="utf-8"))
    found = []
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        text = source(cell)
        text = re.sub(r"```.*?```", " ", text, flags=re.S)
        text = re.sub(r"`[^`]*`", " ", text)
        text = re.sub(r"\]\([^)]*\)", "]", text)
        text = re.sub(r"https?://\S+|github\.com/\S+", " ", text)
        text = re.sub(r"^#+ \d+\.", " ", text, flags=re.M)
        text = READING_TIME.sub(" ", text)
        text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
        found += [(i, figure) for figure in figures_in(text)]
    return found


def output_figures(lang: str, name: str) -> set[str]:
    """Every figure in a lesson's saved outputs: printed text, plain-text results and HTML tables."""
    parts = []
    for cell in code_cells(lang, name):
        for out in cell["outputs"]:
            data = out.get("data", {})
            parts += ["".join(out.get("text", "")), "".join(data.get("text/plain", ""))]
            if "text/html" in data:
                parts.append(html.unescape(re.sub(r"<[^>]+>", " ", "".join(data["text/html"]))))
    text = "\n".join(parts)
    return {normalize(m.group(1), m.group(2)) for m in FIGURE.finditer(text)} | {m.group(1) for m in FIGURE.finditer(text)}
