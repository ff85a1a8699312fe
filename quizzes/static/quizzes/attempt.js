// Countdown display only: the server decides when time is up. A few seconds after zero (the
// server's latency grace is 2 s) the page reloads and the server auto-submits the attempt.
(function () {
  var box = document.getElementById("quiz-timer");
  if (!box) return;
  var RELOAD_AFTER_S = 3; // s past zero: beyond the server's 2 s grace
  var left = parseInt(box.dataset.secondsLeft, 10);
  var out = box.querySelector("[data-remaining]");
  function show() {
    var shown = Math.max(0, left);
    var m = Math.floor(shown / 60), s = shown % 60;
    out.textContent = m + ":" + (s < 10 ? "0" : "") + s;
  }
  show();
  var timer = setInterval(function () {
    left -= 1;
    if (left <= -RELOAD_AFTER_S) { clearInterval(timer); window.location.reload(); return; }
    show();
  }, 1000);
})();

// A failed autosave (network down) must not look saved: say so next to the question.
(function () {
  var note = document.getElementById("autosave-note");
  if (!note) return;
  document.body.addEventListener("htmx:sendError", function (evt) {
    var section = evt.detail.elt.closest(".quiz-question");
    var status = section && section.querySelector(".save-status");
    if (!status) return;
    var span = document.createElement("span");
    span.className = "err";
    span.setAttribute("role", "alert");
    span.textContent = note.dataset.offlineMessage;
    status.replaceChildren(span);
  });
})();
