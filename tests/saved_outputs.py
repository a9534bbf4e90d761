"""Reading a lesson notebook's saved outputs, for the tests that check the figures a lesson states."""
import json
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
