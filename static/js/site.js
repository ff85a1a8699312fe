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
