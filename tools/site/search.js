// The course's search: every word of the query must occur in a section (case and Unicode
// normalisation ignored), in the page's language first. The index (search-index.js) is built
// with the site; nothing is fetched, so it works from a static host and from a folder alike.
(function () {
  "use strict";
  const norm = s => s.normalize("NFC").toLocaleLowerCase();
  const params = new URLSearchParams(window.location.search);
  const query = (params.get("q") || "").trim();
  const input = document.getElementById("q");
  if (input) input.value = query;
  const status = document.getElementById("status");
  const list = document.getElementById("results");
  if (!query || !status || !list) return;
  const lang = document.documentElement.lang;
  const words = norm(query).split(/\s+/).filter(Boolean);
  const hits = (window.CTXLIB_SEARCH || []).filter(e => {
    const hay = norm(e.t + " " + e.x);
    return words.every(w => hay.includes(w));
  });
  hits.sort((a, b) => (a.l === lang ? 0 : 1) - (b.l === lang ? 0 : 1));
  const fill = (template, n) => template.replace("{n}", n).replace("{query}", query);
  status.textContent = hits.length ? fill(status.dataset.results, hits.length) : fill(status.dataset.none, 0);
  for (const e of hits.slice(0, 100)) {
    const li = document.createElement("li");
    li.lang = e.l;
    const a = document.createElement("a");
    a.href = "../" + e.u;
    a.textContent = e.t;
    const where = document.createElement("div");
    where.className = "where";
    where.textContent = e.p;
    const text = norm(e.x);
    const at = Math.max(0, text.indexOf(words[0]) - 60);
    const snippet = document.createElement("div");
    const piece = e.x.slice(at, at + 200);
    const found = norm(piece).indexOf(words[0]);
    if (found >= 0) {
      snippet.append((at > 0 ? "… " : "") + piece.slice(0, found));
      const mark = document.createElement("mark");
      mark.textContent = piece.slice(found, found + words[0].length);
      snippet.append(mark, piece.slice(found + words[0].length) + " …");
    } else {
      snippet.textContent = piece + " …";
    }
    li.append(a, where, snippet);
    list.append(li);
  }
})();
