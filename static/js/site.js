// Site-wide behaviour that used to live in inline handlers (the CSP allows no inline script).
(function () {
  "use strict";
  // <select data-autosubmit>: submit its form on change (the language switch).
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target.matches && target.matches("select[data-autosubmit]") && target.form) {
      target.form.submit();
    }
  });
  // <form data-confirm="question">: ask before submitting; cancel keeps the page as it is.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) {
      event.preventDefault();
    }
  });
  // <form data-forget-unsaved> (log out): the unsaved copies go (pdcUnsaved, below), so the next
  // person at a shared computer cannot read them.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.hasAttribute && form.hasAttribute("data-forget-unsaved")) window.pdcUnsaved.forgetAll();
  });
})();

// Copies of typed work the server does not hold yet (the lab editor's code, a quiz's typed
// answers), kept in this browser until a save succeeds (lab.js, attempt.js): one store under one
// prefix, so that logging out forgets them all. An entry of null forgets one.
window.pdcUnsaved = (function () {
  "use strict";
  var PREFIX = "pdc-unsaved:";
  function get(key) {
    try { return JSON.parse(window.localStorage.getItem(PREFIX + key) || "null"); } catch (e) { return null; }
  }
  function set(key, entry) {
    try {
      if (entry) window.localStorage.setItem(PREFIX + key, JSON.stringify(entry));
      else window.localStorage.removeItem(PREFIX + key);
    } catch (e) { /* private mode or full: the server autosave still runs */ }
  }
  function forgetAll() {
    try {
      Object.keys(window.localStorage).forEach(function (key) {
        if (key.indexOf(PREFIX) === 0) window.localStorage.removeItem(key);
      });
    } catch (e) { /* storage unavailable: nothing was kept */ }
  }
  return { get: get, set: set, forgetAll: forgetAll };
})();

// The navigation marks the section the current page belongs to (aria-current).
(function () {
  "use strict";
  var path = window.location.pathname;
  document.querySelectorAll(".nav-links a[data-nav]").forEach(function (a) {
    if (path.indexOf(a.getAttribute("href")) === 0) a.setAttribute("aria-current", "page");
  });
  // Widths from data-percent (a style attribute would need 'unsafe-inline'; CSSOM does not).
  document.querySelectorAll("[data-percent]").forEach(function (el) {
    el.style.width = Math.max(0, Math.min(100, Number(el.getAttribute("data-percent")))) + "%";
  });
})();

// What scrolls sideways inside itself (a wide table, code, a long formula) takes keyboard focus,
// so that it can be scrolled without a mouse (WCAG 2.1.1); checked again when the width changes.
(function () {
  "use strict";
  function mark() {
    document.querySelectorAll(".table-wrap, pre, math, .diff, .source").forEach(function (el) {
      if (el.scrollWidth > el.clientWidth + 1) {
        if (!el.hasAttribute("tabindex")) el.setAttribute("tabindex", "0");
      } else if (el.getAttribute("tabindex") === "0") {
        el.removeAttribute("tabindex");
      }
    });
  }
  mark();
  window.addEventListener("resize", mark);
})();

// <a data-history-back>: the browser's Back button (a refused request's page: back to the form with
// what was typed in it). Its href is where it goes without script or without history.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-history-back]");
    if (link && window.history.length > 1) {
      event.preventDefault();
      window.history.back();
    }
  });
})();

// <form data-max-bytes="N" data-too-large="message" data-error-target="id">: the server refuses a
// request body over N bytes (PDC_MAX_REQUEST_BYTES) from its Content-Length, before any view sees
// it, with a page of its own; the student would leave the form. So the chosen files are measured
// here, when picked and again on submit, and an over-size form is not sent: the message goes into
// the form's own error line and everything typed stays where it is.
(function () {
  "use strict";
  var PART_OVERHEAD = 200; // bytes: one multipart part's boundary and headers, rounded up

  function utf8Bytes(text) {
    // A form sends each line break as CRLF: one byte more per "\n".
    return new Blob([text]).size + (text.match(/\n/g) || []).length;
  }
  // The multipart body this form would send, to within a few hundred bytes.
  function bodyBytes(form) {
    var total = 0;
    new FormData(form).forEach(function (value) {
      total += PART_OVERHEAD + (typeof value === "string" ? utf8Bytes(value) : value.size);
    });
    return total;
  }
  function errorLine(form) {
    var id = form.getAttribute("data-error-target");
    return id ? document.getElementById(id) : null;
  }
  // True when the form fits; otherwise says so in its error line. Clears only its own message.
  function check(form) {
    var limit = Number(form.getAttribute("data-max-bytes"));
    var message = form.getAttribute("data-too-large");
    var line = errorLine(form);
    var fits = !(limit > 0) || bodyBytes(form) <= limit;
    if (line && !fits) {
      line.textContent = message;
      line.setAttribute("data-size-error", "");
    } else if (line && line.hasAttribute("data-size-error")) {
      line.textContent = "";
      line.removeAttribute("data-size-error");
    }
    return fits;
  }
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (input.type === "file" && input.form && input.form.hasAttribute("data-max-bytes")) {
      check(input.form);
    }
  });
  // On document, so it runs after the form's own submit listeners (the editor copies its code
  // into the textarea there) and measures what would really be sent.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.hasAttribute && form.hasAttribute("data-max-bytes") && !check(form)) {
      event.preventDefault(); // focus stays on the button, its error line right below it
    }
  });
})();

// A form that came back with errors: its first error comes into view and takes focus (the field it
// names, or the form-wide list itself), so that on a long page (a student's gradebook page, five
// staff forms under a long table, the lab's submit button under the problem statement) nobody has
// to hunt for what went wrong, and a screen reader reads it out. An error is a Django form's
// .errorlist, or a form's own error line that the server filled (data-form-error: the lab's).
(function () {
  "use strict";
  function focusFirstError() {
    var first = document.querySelector("main .errorlist, main [data-form-error]");
    if (!first) return;
    var form = first.closest("form");
    var listed = first.classList.contains("errorlist") && !first.classList.contains("nonfield");
    var field = listed && form && form.querySelector('[aria-invalid="true"]');
    if (field) {
      field.focus();
      return;
    }
    first.setAttribute("tabindex", "-1");
    first.focus();
  }
  // Once the page's own scripts have run (they come after this one, before DOMContentLoaded): the
  // lab's editor replaces its textarea, above the error, with a box of another height.
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", focusFirstError);
  } else {
    focusFirstError();
  }
})();
