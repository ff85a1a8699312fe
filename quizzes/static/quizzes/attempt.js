// Countdown display only: the server decides when time is up. At zero the page reloads and the
// server auto-submits the attempt.
(function () {
  var box = document.getElementById("quiz-timer");
  if (!box) return;
  var left = parseInt(box.dataset.secondsLeft, 10);
  var out = box.querySelector("[data-remaining]");
  function show() {
    var m = Math.floor(left / 60), s = left % 60;
    out.textContent = m + ":" + (s < 10 ? "0" : "") + s;
  }
  show();
  var timer = setInterval(function () {
    left -= 1;
    if (left <= 0) { clearInterval(timer); window.location.reload(); return; }
    show();
  }, 1000);
})();
