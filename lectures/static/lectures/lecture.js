/* Lecture page: the TOC folds away on narrow screens, shows which sections are read (the
   "读完了" buttons' state) and where the reader is (aria-current on the section in view). */
(function () {
  "use strict";
  var toc = document.querySelector("details[data-toc]");
  if (!toc) return;
  var NARROW_PX = 900; // the layout stacks the TOC above the text below this width (lectures.css)
  if (window.matchMedia("(max-width: " + NARROW_PX + "px)").matches) toc.open = false;

  var links = {};
  toc.querySelectorAll("a[href^='#']").forEach(function (a) { links[a.getAttribute("href").slice(1)] = a; });
  function markRead() {
    document.querySelectorAll(".lecture-section").forEach(function (sec) {
      var btn = sec.querySelector(".read-button");
      var link = links[sec.id];
      if (link) link.classList.toggle("is-read", !!btn && btn.getAttribute("aria-pressed") === "true");
    });
  }
  markRead();
  document.body.addEventListener("htmx:afterSwap", markRead);
  toc.addEventListener("click", function (e) {
    if (e.target.closest("a") && window.matchMedia("(max-width: " + NARROW_PX + "px)").matches) toc.open = false;
  });

  if (!("IntersectionObserver" in window)) return;
  var current = null;
  var observer = new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) {
      if (!entry.isIntersecting) return;
      var link = links[entry.target.id];
      if (!link || link === current) return;
      if (current) current.removeAttribute("aria-current");
      link.setAttribute("aria-current", "location");
      current = link;
    });
  }, { rootMargin: "0px 0px -70% 0px" });
  document.querySelectorAll(".lecture-section, .lecture-subsection").forEach(function (s) { observer.observe(s); });
})();
