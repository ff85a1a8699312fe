/* Problem page: CodeMirror over the source textarea (the form still posts the textarea), a draft
   autosaved on the server per backend, starter code per backend, and the history chart.
   All assets are served by PDC Lab; no inline script (CSP). */
(function () {
  "use strict";
  var textarea = document.getElementById("source");
  var backend = document.getElementById("backend");
  var form = document.getElementById("submit-form");
  var status = document.getElementById("draft-status");
  function readJson(id) {
    var el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : {};
  }
  var starters = readJson("starters");
  var drafts = readJson("drafts");
  var editor = null;
  var modes = { triton: "python", cuda: "text/x-c++src" };
  var AUTOSAVE_DELAY_MS = 1200; // ms after the last keystroke: one request per pause, not per key

  function value() { return editor ? editor.getValue() : (textarea ? textarea.value : ""); }
  function setValue(code) { if (editor) editor.setValue(code); else textarea.value = code; }
  function say(text, isError) {
    if (!status) return;
    status.textContent = text;
    status.classList.toggle("error", !!isError);
  }

  if (textarea && window.CodeMirror) {
    editor = window.CodeMirror.fromTextArea(textarea, {
      lineNumbers: true, indentUnit: 4, viewportMargin: 20,
      // contenteditable: the focusable element is inside the scrolled region (keyboard and
      // screen-reader access), not a hidden textarea beside it.
      inputStyle: "contenteditable",
      mode: modes[backend ? backend.value : "triton"],
      extraKeys: {
        // Keyboard users leave the editor with Esc then Tab (Tab alone indents code).
        Esc: function (cm) { cm.getInputField().blur(); var next = document.getElementById("file"); if (next) next.focus(); },
        Tab: function (cm) { cm.execCommand(cm.somethingSelected() ? "indentMore" : "insertSoftTab"); },
        "Shift-Tab": "indentLess",
      },
    });
    editor.getInputField().setAttribute("aria-describedby", "editor-help");
    editor.getInputField().setAttribute("aria-label", textarea.labels && textarea.labels[0] ? textarea.labels[0].textContent : "code");
    window.pdcEditor = editor;
  }

  var timer = null;
  var shown = backend ? backend.value : "";  // the backend whose code the editor holds
  var lastSaved = value();  // what the server holds for `shown`, as far as this page knows

  // Typed code the server does not hold yet also waits in this browser (per user, problem and
  // backend) until a save of it succeeds: a reload or a closed tab inside the autosave's pause,
  // or a save lost offline, must not cost the student what they typed. `base` is the server's
  // copy the code was typed over: kept code is put back only over that same copy, never over a
  // draft saved later from another computer.
  var localKey = form && form.dataset.localKey;
  function slot(name) { return localKey + ":" + name; }
  function kept(name) { return window.pdcUnsaved.get(slot(name)); }
  function keep(name, entry) { if (localKey) window.pdcUnsaved.set(slot(name), entry); }
  function saved(name, code) {  // the server now holds `code` for `name`
    var entry = kept(name);
    if (entry) keep(name, entry.code === code ? null : { base: code, code: entry.code });
  }

  function save(name, code) {
    timer = null;
    if (!form || !form.dataset.draftUrl) return Promise.resolve();
    if (name === undefined) { name = shown; code = value(); }
    if (code === (name === shown ? lastSaved : drafts[name])) return Promise.resolve();
    var body = new FormData();
    body.append("backend", name);
    body.append("source", code);
    body.append("csrfmiddlewaretoken", form.querySelector("[name=csrfmiddlewaretoken]").value);
    say(form.dataset.saving, false);
    return fetch(form.dataset.draftUrl, { method: "POST", body: body, credentials: "same-origin" })
      .then(function (r) { return r.json().then(function (d) { return { ok: r.ok, d: d }; }); })
      .then(function (res) {
        if (res.ok && res.d.saved) {
          if (name === shown) lastSaved = code;
          drafts[name] = code;
          saved(name, code);
          say(res.d.message, false);
        } else say(res.d.error || form.dataset.saveFailed, true);
      })
      .catch(function () { say(form.dataset.saveFailed, true); });
  }
  function edited() {
    keep(shown, { base: lastSaved, code: value() });
    if (timer) clearTimeout(timer);
    timer = setTimeout(save, AUTOSAVE_DELAY_MS);
  }
  // The page opens with the server's copy; code kept over that very copy comes back, and is saved.
  function restore() {
    var entry = kept(shown);
    if (!entry) return;
    if (entry.base !== value() || entry.code === value()) { keep(shown, null); return; }
    setValue(entry.code);
    save().then(function () {
      if (lastSaved === entry.code) say(form.dataset.restored, false);
    });
  }
  if (editor) editor.on("change", function (_cm, change) { if (change.origin !== "setValue") edited(); });
  else if (textarea) textarea.addEventListener("input", edited);
  window.pdcSaveDraft = function () { if (timer) clearTimeout(timer); return save(); };
  restore();

  if (form) form.addEventListener("submit", function () { if (editor) editor.save(); });

  if (backend) {
    backend.addEventListener("change", function () {
      // What was typed for the backend being left is saved for it, not dropped with the switch.
      if (timer) { clearTimeout(timer); timer = null; }
      save(shown, value());
      shown = backend.value;
      var code = drafts[shown] !== undefined ? drafts[shown] : starters[shown];
      if (editor) editor.setOption("mode", modes[shown]);
      if (code !== undefined) { setValue(code); lastSaved = code; }
      restore();
    });
  }

  var chartData = document.getElementById("chart-data");
  var canvas = document.getElementById("history-chart");
  if (chartData && canvas && window.Chart) {
    pdcChartColours();
    var d = JSON.parse(chartData.textContent);
    new window.Chart(canvas, {
      type: "line",
      data: {
        labels: d.labels,
        datasets: [
          { label: d.names.median_ms, data: d.median_ms, yAxisID: "ms" },
          { label: d.names.speedup, data: d.speedup, yAxisID: "ratio" },
          { label: d.names.roofline_pct, data: d.roofline_pct, yAxisID: "ratio" },
        ],
      },
      options: { spanGaps: true, maintainAspectRatio: false, scales: { ms: { position: "left" }, ratio: { position: "right" } } },
    });
  }
})();

/* Charts draw their text and grid in the page's colours (light or dark theme: static/css/dark.css
   re-defines the custom properties), read once when the page loads. */
function pdcChartColours() {
  var css = getComputedStyle(document.documentElement);
  var fg = css.getPropertyValue("--muted").trim(), grid = css.getPropertyValue("--border").trim();
  if (window.Chart && fg) window.Chart.defaults.color = fg;
  if (window.Chart && grid) window.Chart.defaults.borderColor = grid;
  return { fg: fg || "#4f5968", accent: css.getPropertyValue("--accent").trim() || "#2457c5" };
}

/* Submission page: the roofline chart (log-log): the memory roof (bandwidth x intensity) up to the
   ridge, the compute roof after it, this submission's point and the student's earlier ones. */
(function () {
  "use strict";
  var dataEl = document.getElementById("roofline-data");
  var canvas = document.getElementById("roofline-chart");
  if (!dataEl || !canvas || !window.Chart) return;
  var d = JSON.parse(dataEl.textContent);
  var labels = JSON.parse(document.getElementById("roofline-labels").textContent);
  var xs = [d.point.ai].concat(d.history.map(function (p) { return p.ai; }));
  var lo = Math.min(d.ridge, Math.min.apply(null, xs)) / 8;
  var hi = Math.max(d.ridge, Math.max.apply(null, xs)) * 8;
  var colours = pdcChartColours();
  // Chart.js ticks a log axis at 1, 2, 3 ... of every decade with two decimals: at 60, 80 and 100
  // the labels overlap, and 200 reads "200.00". Keep the decades only (0.01, 0.1, 1, 10, 100).
  function isDecade(value) {
    var exponent = Math.log10(value);
    return Math.abs(exponent - Math.round(exponent)) < 1e-6;
  }
  function decadeAxis(title) {
    return {
      type: "logarithmic",
      title: { display: true, text: title },
      afterBuildTicks: function (axis) { axis.ticks = axis.ticks.filter(function (t) { return isDecade(t.value); }); },
      ticks: { maxRotation: 0, callback: function (value) {
        var round = Number(value.toPrecision(1));
        return round >= 1 ? round.toLocaleString() : String(round);
      } },
    };
  }
  var roof = [lo, d.ridge, hi].map(function (x) { return { x: x, y: Math.min(d.peak_gflops, x * d.peak_gbps) }; });
  new window.Chart(canvas, {
    type: "scatter",
    data: {
      datasets: [
        { label: labels.roof, data: roof, showLine: true, pointRadius: 0, borderColor: colours.fg, borderWidth: 2 },
        { label: labels.history, data: d.history.map(function (p) { return { x: p.ai, y: p.gflops, tag: p.label }; }), pointRadius: 4, backgroundColor: "#9aa6b8" },
        { label: labels.point, data: [{ x: d.point.ai, y: d.point.gflops, tag: d.point.label }], pointRadius: 7, backgroundColor: colours.accent },
      ],
    },
    options: {
      maintainAspectRatio: false,
      scales: {
        x: decadeAxis(labels.x),
        y: decadeAxis(labels.y),
      },
      plugins: { tooltip: { callbacks: { label: function (ctx) {
        var p = ctx.raw; return (p.tag ? p.tag + ": " : "") + p.x.toPrecision(3) + " FLOP/B, " + p.y.toPrecision(4) + " GFLOP/s";
      } } } },
    },
  });
})();
