"""The one widget class the lessons share: ``interactive`` with a readable plain-text form."""
from __future__ import annotations

import ipywidgets as widgets

class Explorer(widgets.interactive):
    """An ``interactive`` control whose plain-text form is a short note, not its model's repr."""

    def __init__(self, function, note: str, **controls):
        self._note = note
        super().__init__(function, **controls)

    def __repr__(self) -> str:
        return self._note
