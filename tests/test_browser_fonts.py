"""The course serves its own Devanagari font to the browser: the configuration run.py writes, the
server extension that serves the files, and the CSS that uses them. Checked here without a browser;
tests/test_browser.py shows it working in Chromium with no system Devanagari font."""
import importlib.util
import json
import logging
import re
from pathlib import Path
from types import SimpleNamespace

import ipywidgets as widgets

from ctxlib.course import jupyter_fonts
from ctxlib.course.widgets.explorer import Explorer, grouped_readout

ROOT = Path(__file__).resolve().parents[1]


def run_module():
    spec = importlib.util.spec_from_file_location("run", ROOT / "run.py")
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    return run


def test_run_py_writes_the_server_extension_custom_css_and_the_voila_static_files(tmp_path):
    config, data = tmp_path / "etc", tmp_path / "share"
    (config).mkdir()
    (config / "jupyter_lab_config.json").write_text('{"LabApp": {"collaborative": false}}', encoding="utf-8")
    run_module().write_jupyter_config(config, data)
    assert json.loads((config / "jupyter_server_config.d" / "ctxlib.json").read_text()) == {
        "ServerApp": {"jpserver_extensions": {"ctxlib.course.jupyter_fonts": True}}}
    # An existing setting is kept beside the one the course needs.
    assert json.loads((config / "jupyter_lab_config.json").read_text()) == {
        "LabApp": {"collaborative": False, "custom_css": True}}
    # The presenting template (tools/present, installed by install_present_template) links these.
    static = data / "voila" / "templates" / "ctxlib" / "static"
    font = static / "NotoSansDevanagari-Regular.ttf"
    assert font.read_bytes() == (jupyter_fonts.FONT_DIR / font.name).read_bytes()
    assert (static / "custom.css").read_text() == (jupyter_fonts.CUSTOM_DIR / "custom.css").read_text()
    assert "voila/templates/ctxlib/static/custom.css" in (ROOT / "tools" / "present" / "index.html.j2").read_text()


def test_the_extension_adds_the_css_and_font_folders_once_after_the_users_own():
    settings = {"static_custom_path": ["/home/learner/.jupyter/custom"]}
    app = SimpleNamespace(web_app=SimpleNamespace(settings=settings), log=logging.getLogger("test"))
    served = settings["static_custom_path"]
    jupyter_fonts._load_jupyter_server_extension(app)
    jupyter_fonts._load_jupyter_server_extension(app)
    assert served is settings["static_custom_path"]  # the same list LabApp's /custom/ handler holds
    assert served == ["/home/learner/.jupyter/custom", str(jupyter_fonts.CUSTOM_DIR), str(jupyter_fonts.FONT_DIR)]
    assert jupyter_fonts._jupyter_server_extension_points() == [{"module": "ctxlib.course.jupyter_fonts"}]


def test_custom_css_declares_the_bundled_face_for_devanagari_only_and_puts_it_first():
    css = (jupyter_fonts.CUSTOM_DIR / "custom.css").read_text()
    face = re.search(r"@font-face\s*{(.*?)}", css, re.S).group(1)
    assert f'font-family: "{jupyter_fonts.FONT_FAMILY}"' in face
    source = re.search(r'url\("([^"]+)"\)', face).group(1)
    assert (jupyter_fonts.FONT_DIR / source).is_file()  # served from the font folder, beside custom.css
    assert "unicode-range: U+0900-097F" in face  # Latin text keeps JupyterLab's fonts
    for variable in ("--jp-content-font-family", "--jp-ui-font-family", "--jp-code-font-family"):
        assert re.search(rf'{variable}:[^;]*"{jupyter_fonts.FONT_FAMILY}"', css), variable


def test_sliders_show_thousands_separators():
    assert grouped_readout(widgets.IntSlider(value=180_000, max=200_000)).readout_format == ",d"
    assert grouped_readout(widgets.FloatSlider(max=5_000)).readout_format == ",.2f"
    assert grouped_readout(widgets.IntSlider(value=4, max=8)).readout_format == "d"  # never 4 digits
    assert grouped_readout(widgets.IntSlider(max=9_000, readout_format=",d")).readout_format == ",d"
    assert grouped_readout(widgets.IntSlider(max=9_000, readout_format="+05d")).readout_format == "+05d"  # as set
    text = widgets.Text()
    assert grouped_readout(text) is text
    explorer = Explorer(lambda budget: None, note="[note]", budget=widgets.IntSlider(value=2_000, max=10_000))
    assert explorer.children[0].readout_format == ",d" and repr(explorer) == "[note]"
