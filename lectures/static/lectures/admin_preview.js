// Live Markdown preview in the lectures admin: posts the textarea to the admin preview endpoint
// (same renderer as the import) at most every 400 ms while typing. Served by us; no CDN.
(function () {
  "use strict";
  const DEBOUNCE_MS = 400;
  function csrf() {
    const el = document.querySelector("input[name=csrfmiddlewaretoken]");
    return el ? el.value : "";
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".md-preview").forEach(function (box) {
      const src = document.getElementById(box.dataset.source);
      if (!src) return;
      const url = window.location.pathname.replace(/(\d+\/change|add)\/$/, "preview/");
      let timer = null;
      src.addEventListener("input", function () {
        clearTimeout(timer);
        timer = setTimeout(function () {
          const body = new URLSearchParams({ markdown: src.value });
          fetch(url, { method: "POST", body: body, headers: { "X-CSRFToken": csrf() } })
            .then(function (r) { return r.json(); })
            .then(function (data) {
              if (data.html !== undefined) { box.innerHTML = data.html; } else { box.textContent = data.error; }
            });
        }, DEBOUNCE_MS);
      });
    });
  });
})();
