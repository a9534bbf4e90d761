"""The one widget class the lessons share: ``interactive`` with a readable plain-text form.

Its sliders show their numbers with thousands separators (``180,000``, as the lessons' prose
writes them) in every language: the readout format gets d3-format's ``,`` grouping.
"""
from __future__ import annotations

import re

import ipywidgets as widgets


def grouped_readout(control):
    """``control`` itself; an ``IntSlider`` or ``FloatSlider`` (and their range forms) that can reach
    1,000 gets thousands separators.

    ``"d"`` becomes ``",d"`` and ``".2f"`` becomes ``",.2f"``; a slider that stays below 1,000, a
    format that already groups, or one with fill, width or sign, is left as the caller set it.
    """
    sliders = (widgets.IntSlider, widgets.FloatSlider, widgets.IntRangeSlider, widgets.FloatRangeSlider)
    if (isinstance(control, sliders) and abs(control.max) >= 1_000
            and re.fullmatch(r"(\.\d+)?[a-z]", control.readout_format or "")):
        control.readout_format = "," + control.readout_format
    return control


class Explorer(widgets.interactive):
    """An ``interactive`` control whose plain-text form is a short note, not its model's repr."""

    def __init__(self, function, note: str, **controls):
        self._note = note
        super().__init__(function, **{name: grouped_readout(c) for name, c in controls.items()})

    def __repr__(self) -> str:
        return self._note
