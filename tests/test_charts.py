"""The per-turn chart: bar heights, the window line, Devanagari labels and the English fallback."""
import io
import warnings

import matplotlib
import pytest
from matplotlib.figure import Figure

from ctxlib.course import charts
from ctxlib.course.charts import FONT_PATH, devanagari_family, turn_chart
from ctxlib.transcript import Loop, simulate

TRACE_RUN = simulate(Loop(fill_tokens=176_412))


@pytest.fixture(autouse=True)
def fresh_font_cache():
    devanagari_family.cache_clear()
    yield
    devanagari_family.cache_clear()


def legend_texts(fig):
    return [text.get_text() for text in fig.legends[0].get_texts()]


def test_bars_stack_each_kind_per_turn_under_the_window_line():
    fig = turn_chart(TRACE_RUN)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    heights = {container.get_label(): [bar.get_height() for bar in container]
               for container in ax.containers}
    assert heights["retrieved files"] == [176_412] * 3
    assert heights["tool output (diagnostics)"] == [0, 1_588, 0]
    assert heights["diffs of earlier attempts"] == [0, 6_000, 12_000]
    assert heights["reply (patch)"] == [6_000, 6_000, 1_588]
    tops = [sum(column) for column in zip(*heights.values())]
    assert tops == [192_412, 200_000, 200_000]
    window_line = ax.get_lines()[0]
    assert list(window_line.get_ydata()) == [200_000, 200_000]
    assert [t.get_text() for t in ax.get_xticklabels()] == [
        "1\nend_turn", "2\nend_turn", "3\nmax_tokens"]


def test_english_labels_and_zoom_panel():
    fig = turn_chart(TRACE_RUN, "en", zoom_tokens=30_000)
    assert len(fig.axes) == 2
    assert fig.axes[1].get_ylim()[0] == 170_000
    assert "context window (200,000 tokens)" in legend_texts(fig)
    assert fig.get_suptitle() == "What each request carries, turn by turn"


def test_hindi_labels_render_in_devanagari_without_missing_glyphs():
    assert FONT_PATH.stat().st_size < 1_000_000
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig = turn_chart(TRACE_RUN, "hi", zoom_tokens=30_000)
        fig.savefig(io.BytesIO(), format="png")
    assert not [w for w in caught if "Glyph" in str(w.message) or "fall back" in str(w.message)]
    assert "पिछली कोशिशों के diffs" in legend_texts(fig)
    assert fig.get_suptitle() == "हर turn में request के साथ क्या-क्या जाता है"
    assert devanagari_family() == "Noto Sans Devanagari"


def test_the_bundled_font_carries_its_licence():
    licence = (FONT_PATH.parent / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert "Google" in licence


def test_without_a_devanagari_font_hindi_falls_back_to_english_and_warns_once(monkeypatch):
    monkeypatch.setattr(charts, "_font_file", lambda: None)
    with pytest.warns(UserWarning, match="no Devanagari font was found; Hindi chart labels fall back to English"):
        fig = turn_chart(TRACE_RUN, "hi")
    assert "retrieved files" in legend_texts(fig)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        turn_chart(TRACE_RUN, "hi")


def test_an_old_matplotlib_falls_back_to_english(monkeypatch):
    monkeypatch.setattr(matplotlib, "__version__", "3.10.8")
    with pytest.warns(UserWarning, match=r"matplotlib 3\.10\.8 cannot shape Devanagari"):
        fig = turn_chart(TRACE_RUN, "hi")
    assert fig.get_suptitle() == "What each request carries, turn by turn"


@pytest.mark.parametrize("kwargs, message", [
    ({"language": "fr"}, "language must be 'en' or 'hi', got 'fr'"),
    ({"zoom_tokens": 0}, "zoom_tokens must be a whole number of tokens >= 1, got 0"),
])
def test_bad_arguments_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        turn_chart(TRACE_RUN, **kwargs)


def test_a_chart_shows_as_an_image_with_its_text_alternative_no_wider_than_the_output(monkeypatch):
    fig = turn_chart(TRACE_RUN)
    # The tallest bars are turns 2 and 3 (200,000 tokens each, see above); the first is named.
    alt = ("Chart: What each request carries, turn by turn. One stacked bar per turn (3 turns), coloured by "
           "block kind; the tallest is 200,000 tokens at turn 2, against the 200,000-token context window "
           "(dashed line).")
    assert fig.ctxlib_alt == alt and repr(fig) == alt
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj, raw=False: shown.append((obj, raw)))
    charts.show(fig)
    (bundle, raw), = shown
    assert raw and set(bundle) == {"text/html", "text/plain"} and bundle["text/plain"] == alt
    page = bundle["text/html"]
    assert f'alt="{alt}"' in page and "max-width: 100%" in page and "width: 700px" in page
    assert page.startswith('<figure class="ctxlib-chart" lang="en"') and 'src="data:image/png;base64,' in page


def test_the_hindi_chart_says_what_it_shows_in_hindi():
    fig = turn_chart(TRACE_RUN, "hi")
    assert fig.ctxlib_alt.startswith("चार्ट: हर turn में request के साथ क्या-क्या जाता है। हर turn का एक stacked bar (3 turns)")
    assert "turn 2 में 200,000 tokens का है" in fig.ctxlib_alt
    assert 'lang="hi"' in charts.chart_html(fig)
