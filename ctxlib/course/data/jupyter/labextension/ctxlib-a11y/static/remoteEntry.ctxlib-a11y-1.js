/* ctxlib course: what ipywidgets 8 leaves out for screen readers and keyboards, added to the
   course's own controls (read by hand; no build step, no imports, nothing fetched).
   A JupyterLab federated extension (JupyterLab, JupyterLite, Voila): the container below is the
   module-federation interface JupyterLab loads (get/init), with one plugin that watches the page:
   - a quick check's radio buttons (.ctxlib-quiz .widget-radio-box) become one labelled radio group:
     role="radiogroup" named by the question's heading, one shared name, so Tab reaches the group
     once and the arrow keys move the choice (the browser's own radio-group keyboard rules);
   - a quick check's check boxes are one labelled group (role="group");
   - the feedback box is a live region (role="status", aria-live="polite"), made so before the
     first feedback arrives, so a screen reader announces each verdict;
   - every slider handle (role="slider") of ipywidgets gets its slider's label as its accessible name;
   - course content in Hindi (a quick check or control marked ctxlib-lang-hi, Markdown and outputs
     whose letters are mostly Devanagari) is marked lang="hi". */
var _JUPYTERLAB;
(function () {
  "use strict";
  var DEVANAGARI = /[\u0900-\u097F]/g;
  var LETTERS = /[A-Za-z\u0900-\u097F]/g;
  var groups = 0;

  function isHindi(text) {
    var letters = (text.match(LETTERS) || []).length;
    return letters > 0 && (text.match(DEVANAGARI) || []).length / letters > 0.3;
  }

  function headingFor(box) {
    // The question (QuestionView) is the output just before the quick check's widget.
    var child = box.closest(".jp-OutputArea-child");
    var previous = child && child.previousElementSibling;
    var heading = previous && previous.querySelector(".ctxlib-question-heading");
    if (!heading) return null;
    if (!heading.id) heading.id = "ctxlib-question-" + (++groups);
    return heading.id;
  }

  function label(element, box) {
    var id = headingFor(box);
    if (id) element.setAttribute("aria-labelledby", id);
    else element.setAttribute("aria-label", box.getAttribute("data-ctxlib-label") || "quick check");
  }

  function groupInput(input, name) {
    input.name = name;
    // The arrow keys belong to the group, not to the notebook's "select the next cell" shortcut
    // (JupyterLab skips its shortcuts for a focused element carrying this attribute).
    input.setAttribute("data-lm-suppress-shortcuts", "true");
  }

  function patchQuiz(box) {
    if (box.hasAttribute("data-ctxlib-a11y")) {
      // Radio inputs are re-created when options change: keep them in the group.
      var known = box.getAttribute("data-ctxlib-a11y");
      box.querySelectorAll('.widget-radio-box input[type="radio"]').forEach(function (input) {
        if (!input.name) groupInput(input, known);
      });
      return;
    }
    var name = "ctxlib-quick-check-" + (++groups);
    box.setAttribute("data-ctxlib-a11y", name);
    var lang = box.classList.contains("ctxlib-lang-hi") ? "hi" : box.classList.contains("ctxlib-lang-en") ? "en" : null;
    if (lang) {
      box.setAttribute("lang", lang);
      var question = headingFor(box) && document.getElementById(headingFor(box)).closest(".ctxlib-question");
      if (question) question.setAttribute("lang", lang);  // the question shown above the box
    }
    var radios = box.querySelector(".widget-radio-box");
    if (radios) {
      radios.setAttribute("role", "radiogroup");
      label(radios, box);
      radios.querySelectorAll('input[type="radio"]').forEach(function (input) { groupInput(input, name); });
    }
    var checks = box.querySelectorAll(".widget-checkbox");
    if (checks.length) {
      var column = checks[0].parentElement;
      column.setAttribute("role", "group");
      label(column, box);
    }
    box.querySelectorAll(".widget-html").forEach(function (result) {
      // The feedback box: the HTML widget of the quick check (its content node persists).
      var content = result.querySelector(".widget-html-content") || result;
      content.setAttribute("role", "status");
      content.setAttribute("aria-live", "polite");
    });
  }

  function patchSlider(slider) {
    var handle = slider.querySelector(".noUi-handle");
    if (!handle || handle.hasAttribute("aria-label")) return;
    handle.setAttribute("data-lm-suppress-shortcuts", "true");  // arrows move the handle, not the cell
    var text = (slider.querySelector(".widget-label") || {}).textContent || "";
    if (text.trim()) {
      handle.setAttribute("aria-label", text.trim());
      var readout = slider.querySelector(".widget-readout");
      if (readout) readout.setAttribute("aria-label", text.trim());
    }
  }

  function patchLang(element) {
    if (element.hasAttribute("lang")) return;
    // innerText: the words a reader sees (a <style> block's text would count otherwise).
    if (isHindi(element.innerText || "")) element.setAttribute("lang", "hi");
  }

  function patch(root) {
    root.querySelectorAll(".ctxlib-quiz").forEach(patchQuiz);
    root.querySelectorAll(".widget-slider").forEach(patchSlider);
    root.querySelectorAll(".jp-RenderedMarkdown, .jp-OutputArea-output, .ctxlib-question, .widget-vbox")
      .forEach(patchLang);
  }

  var scheduled = false;
  function schedule() {
    if (scheduled) return;
    scheduled = true;
    window.requestAnimationFrame(function () { scheduled = false; patch(document); });
  }

  var plugin = {
    id: "ctxlib-a11y:plugin",
    description: "Accessible names, groups, live feedback and lang for the ctxlib course's controls.",
    autoStart: true,
    activate: function () {
      new MutationObserver(schedule).observe(document.body, {childList: true, subtree: true});
      schedule();
    }
  };

  var container = {
    init: function () { return Promise.resolve(); },
    get: function (module) {
      if (module !== "./extension") {
        return Promise.reject(new Error('Module "' + module + '" does not exist in container.'));
      }
      return Promise.resolve(function () { return {__esModule: true, default: [plugin]}; });
    }
  };
  _JUPYTERLAB = window._JUPYTERLAB = window._JUPYTERLAB || {};
  _JUPYTERLAB["ctxlib-a11y"] = container;
})();
