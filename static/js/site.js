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
