/* Problem page: CodeMirror editor over the source textarea (the form still posts the textarea),
   starter code per backend, and the history chart. All assets are served by PDC Lab. */
(function () {
  "use strict";
  var textarea = document.getElementById("source");
  var backend = document.getElementById("backend");
  var startersEl = document.getElementById("starters");
  var starters = startersEl ? JSON.parse(startersEl.textContent) : {};
  var editor = null;
  var modes = { triton: "python", cuda: "text/x-c++src" };
  if (textarea && window.CodeMirror) {
    editor = window.CodeMirror.fromTextArea(textarea, {
      lineNumbers: true, indentUnit: 4, mode: modes[backend ? backend.value : "triton"],
    });
    window.pdcEditor = editor;
    var form = document.getElementById("submit-form");
    if (form) form.addEventListener("submit", function () { editor.save(); });
  }
  if (backend) {
    var pristine = true;
    if (editor) editor.on("change", function (_cm, change) { if (change.origin !== "setValue") pristine = false; });
    backend.addEventListener("change", function () {
      var code = starters[backend.value];
      if (editor) {
        editor.setOption("mode", modes[backend.value]);
        if (pristine && code !== undefined) editor.setValue(code);
      } else if (textarea && code !== undefined && textarea.value === starters.triton) {
        textarea.value = code;
      }
    });
  }
  var chartData = document.getElementById("chart-data");
  var canvas = document.getElementById("history-chart");
  if (chartData && canvas && window.Chart) {
    var d = JSON.parse(chartData.textContent);
    new window.Chart(canvas, {
      type: "line",
      data: {
        labels: d.labels,
        datasets: [
          { label: "median ms", data: d.median_ms, yAxisID: "ms" },
          { label: "speedup ×", data: d.speedup, yAxisID: "ratio" },
          { label: "% roofline", data: d.roofline_pct, yAxisID: "ratio" },
        ],
      },
      options: { spanGaps: true, scales: { ms: { position: "left" }, ratio: { position: "right" } } },
    });
  }
})();
