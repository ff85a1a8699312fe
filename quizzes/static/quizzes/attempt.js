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

// The sticky bar's height, which grows when its timer note or its navigator wraps, is where a
// question jumped to (or an answer tabbed to) must start: quiz.css reads it as scroll padding.
(function () {
  var bar = document.getElementById("quiz-bar");
  if (!bar) return;
  function measure() {
    document.documentElement.style.setProperty("--quiz-bar-height", bar.offsetHeight + "px");
  }
  measure();
  if (window.ResizeObserver) new window.ResizeObserver(measure).observe(bar);
  else window.addEventListener("resize", measure);
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

// A typed answer waits 600 ms before its autosave: until the server has it, it is also kept in
// this browser, and a reload (or a closed tab) in that pause puts it back and saves it. It comes
// back only over the value it was typed over, never over an answer saved since.
(function () {
  var nav = document.querySelector(".quiz-nav");
  var inputs = document.querySelectorAll(".quiz-question form input[type=text]");
  if (!nav || !inputs.length) return;
  var prefix = "quiz:" + nav.dataset.attempt + ":";
  var saved = new Map();  // input -> the value the server holds, as far as this page knows
  function key(input) { return prefix + input.form.getAttribute("action"); }
  function kept(input) { return window.pdcUnsaved.get(key(input)); }
  function keep(input, entry) { window.pdcUnsaved.set(key(input), entry); }
  inputs.forEach(function (input) {
    saved.set(input, input.value);
    input.addEventListener("input", function () {
      keep(input, { base: saved.get(input), value: input.value });
    });
    var entry = kept(input);
    if (!entry) return;
    if (entry.base !== input.value || entry.value === input.value) { keep(input, null); return; }
    input.value = entry.value;
    // htmx (a deferred script) saves it once it has taken over the page's forms.
    window.addEventListener("load", function () {
      input.dispatchEvent(new Event("change", { bubbles: true }));
    });
  });
  document.body.addEventListener("htmx:beforeRequest", function (evt) {
    var input = evt.detail.elt.querySelector && evt.detail.elt.querySelector("input[type=text]");
    if (input && saved.has(input)) input.dataset.sending = input.value;
  });
  document.body.addEventListener("htmx:afterRequest", function (evt) {
    var input = evt.detail.elt.querySelector && evt.detail.elt.querySelector("input[type=text]");
    var xhr = evt.detail.xhr;
    if (!input || !saved.has(input) || !xhr || xhr.getResponseHeader("X-Quiz-Saved") !== "1") return;
    var sent = input.dataset.sending;
    saved.set(input, sent);
    var entry = kept(input);
    if (entry) keep(input, entry.value === sent ? null : { base: sent, value: entry.value });
  });
})();

// Question navigator: answered marks follow the autosave; "flag for review" is kept in this
// browser per attempt (a note to oneself, not part of the answer).
(function () {
  var nav = document.querySelector(".quiz-nav");
  if (!nav) return;
  var key = "pdc-quiz-flags-" + nav.dataset.attempt;
  var flags = {};
  try { flags = JSON.parse(window.localStorage.getItem(key) || "{}"); } catch (e) { flags = {}; }
  function link(pk) { return nav.querySelector("a[data-question='" + pk + "']"); }
  function show(pk) {
    var btn = document.querySelector("button[data-flag='" + pk + "']");
    var on = !!flags[pk];
    if (btn) btn.setAttribute("aria-pressed", on ? "true" : "false");
    var a = link(pk);
    if (a) a.classList.toggle("flagged", on);
  }
  document.querySelectorAll("button[data-flag]").forEach(function (btn) {
    var pk = btn.dataset.flag;
    show(pk);
    btn.addEventListener("click", function () {
      if (flags[pk]) delete flags[pk]; else flags[pk] = true;
      try { window.localStorage.setItem(key, JSON.stringify(flags)); } catch (e) { /* private mode */ }
      show(pk);
    });
  });
  document.body.addEventListener("htmx:afterSwap", function (evt) {
    var target = evt.detail.target;
    if (!target || !target.id || target.id.indexOf("status-") !== 0) return;
    var a = link(target.id.slice("status-".length));
    if (a && target.querySelector("[data-saved='1']")) {
      a.classList.add("answered");
      var state = a.querySelector(".nav-state");
      if (state) state.textContent = nav.dataset.answeredText || state.textContent;
    }
  });
  var form = document.getElementById("submit-form");
  if (form) form.addEventListener("submit", function (evt) {
    var open = nav.querySelectorAll("a:not(.answered)").length;
    var text = form.dataset.submitQuestion;  // not data-confirm: site.js would ask a second time
    // Two forms, as the page's language writes them: "1 question is" / "3 questions are".
    var left = open === 1 ? form.dataset.unansweredOne : form.dataset.unanswered.replace("%(n)s", open);
    if (open) text = left + "\n" + text;
    if (!window.confirm(text)) evt.preventDefault();
  });
})();
