"""The site crawler shared by the one-language test (Django test client) and the phone-width test
(Chromium): which links are pages, and what on a page counts as user-interface text.

Content is exempt: an element with its own `lang` attribute (lecture text, question stems,
Chinese course titles carry lang="zh-CN"; grader output lang="en"), and code (`code`, `pre`, `kbd`, `samp`,
`math`, `textarea`, `translate="no"`). Everything else is UI and must be in the page's language.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

# Never followed: they change state, download files, or are not HTML pages.
SKIP = re.compile(
    r"^/(accounts/logout|i18n|static|media|api|healthz|favicon)"
    r"|/(source|starter/\w+|csv|export)/?$|\.(csv|json|py|cu|txt)$|/api/"
    r"|^/admin/(logout|password_change|jsi18n|r/|autocomplete)"
    r"|/(delete|history)/$|^/admin/.*/add/$"
)
MAX_PER_PATTERN = 2  # pages per URL shape (/lab/submissions/<n>/): the template is the same
MAX_ADMIN_QUERY = 0  # admin changelists with filters in the query string add nothing new

CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
# Stored codes that must never be shown as they are.
CODES_UNDERSCORE = re.compile(
    r"\b(wrong_answer|compile_error|runtime_error|memory_limit|needs_gpu|infrastructure_error"
    r"|in_progress|not_started|net_correct|all_or_nothing)\b"
)
CODES_BARE = {
    "queued",
    "running",
    "accepted",
    "rejected",
    "timeout",
    "submitted",
    "declined",
    "open",
    "graded",
    "released",
    "excused",
    "missing",
    "student",
    "ta",
    "instructor",
    "lab",
    "quiz",
    "exam",
    "true",
    "false",
    "TRUE",
    "FALSE",
    "practice",
    "selftest",
    "penalty",
    "grace",
}
INTERNAL_KEY = re.compile(r"\b(lab|quiz|submission|attempt|exam):\d+\b")
# Words that are the same in both languages (names of things, units, acronyms).
SHARED_WORDS = {
    w.lower()
    for w in (
        "PDC Lab PyTorch Triton CUDA GPU CPU API JSON CSV KiB MiB GB TFLOP FLOP ms sha256 NVIDIA HBM3"
        " Markdown SM L2 ptxas nvcc Python Django admin PDC AI dtype float32 float16 bfloat16 int32"
        " roofline TA H100 H200 A100 L40S RTX RTX4090 RTX5090 OK ID Email URL sha GFLOPS Esc Tab"
    ).split()
}
WORD = re.compile(r"[A-Za-z][A-Za-z'-]{2,}")

# <title> repeats the page's h1, content title included; the h1 is checked.
_SKIP_TAGS = {
    "script", "style", "code", "pre", "kbd", "samp", "math", "textarea", "svg", "noscript", "title"
}  # fmt: skip
_VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "wbr",
}
_ATTRS = ("title", "aria-label", "placeholder", "alt")
# Inputs that are not fields a person fills in (a button says its own name).
_UNNAMED = {"hidden", "submit", "button", "reset", "image"}


def normalise_lang(code: str) -> str:
    return "zh" if code.lower().startswith("zh") else code.lower()[:2]


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page_lang = ""
        self.stack: list[tuple[str, bool, bool]] = []  # (tag, exempt, data)
        self.ui: list[str] = []
        self.data: list[str] = []  # stored values the admin shows: checked for codes and keys only
        self.links: list[str] = []
        self.ids: list[str] = []
        self.h1s = 0
        self.label_for: set[str] = set()
        self.controls: list[tuple[str, str]] = []  # (id, name) of fields no label names yet

    def _exempt(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def _data(self) -> bool:
        return bool(self.stack) and self.stack[-1][2]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v or "") for k, v in attrs}
        if tag == "html":
            self.page_lang = normalise_lang(a.get("lang", ""))
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if a.get("id"):
            self.ids.append(a["id"])
        self._note_structure(tag, a)
        # An element that states its own language is content (lecture text, a Chinese course
        # title, grader output), whatever that language is; UI text never carries `lang`.
        own_lang = tag != "html" and "lang" in a
        # data-content: free text people typed (a reason, a comment) whose language is theirs.
        free_text = "data-content" in a
        exempt = (
            self._exempt()
            or tag in _SKIP_TAGS
            or a.get("translate") == "no"
            or own_lang
            or free_text
        )
        classes = a.get("class", "").split()
        # The admin's list cells and read-only values are stored data (a title as written).
        data = (
            self._data()
            or "readonly" in classes
            or "help" in classes
            or (tag in ("td", "th") and any(c.startswith("field-") for c in classes))
        )
        if not exempt and not data:
            for name in _ATTRS:
                if a.get(name):
                    self.ui.append(a[name])
            if tag == "input" and a.get("type") in ("submit", "button") and a.get("value"):
                self.ui.append(a["value"])
        if tag not in _VOID:
            self.stack.append((tag, exempt, data))

    def _note_structure(self, tag: str, a: dict[str, str]) -> None:
        """What accessibility needs of the markup: one h1, and a name for every form field."""
        self.h1s += tag == "h1"
        if tag == "label" and a.get("for"):
            self.label_for.add(a["for"])
        field = tag in ("select", "textarea") or (tag == "input" and a.get("type") not in _UNNAMED)
        named = "aria-label" in a or "aria-labelledby" in a or "title" in a
        if field and not named and not any(t == "label" for t, _e, _d in self.stack):
            self.controls.append((a.get("id", ""), a.get("name", "")))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        if not self._exempt() and data.strip():
            (self.data if self._data() else self.ui).append(data.strip())


def parse(html: str) -> _Page:
    page = _Page()
    page.feed(html)
    return page


def problems(page: _Page, *, data_words: set[str], structure: bool = True) -> list[str]:
    """What is wrong with this parsed page's UI text for its own language (empty: nothing)."""
    found: list[str] = []
    # A repeated id breaks labels and in-page links (parts of a page are rendered apart).
    found += [f"repeated id: {i!r}" for i in sorted({i for i in page.ids if page.ids.count(i) > 1})]
    if structure and page.h1s != 1:
        found.append(f"{page.h1s} h1 headings (a page has one)")
    if structure:
        unlabelled = [n for i, n in page.controls if i not in page.label_for]
        found += [f"form field without a label: {n!r}" for n in unlabelled]
    for text in page.data:  # an identifier column (a category key) is fine; a status code is not
        if CODES_UNDERSCORE.search(text):
            found.append(f"raw code in a stored value: {text!r}")
    for text in page.ui:
        if CODES_UNDERSCORE.search(text):
            found.append(f"raw status code: {text!r}")
        if text in CODES_BARE:
            found.append(f"raw code: {text!r}")
        if INTERNAL_KEY.search(text):
            found.append(f"internal key: {text!r}")
        if page.page_lang == "en" and CJK.search(text):
            found.append(f"Chinese on an English page: {text!r}")
        if page.page_lang == "zh":
            english = _english_ui(text, data_words)
            if english:
                found.append(f"English on a Chinese page: {text!r} ({english})")
    return found


def _english_ui(text: str, data_words: set[str]) -> str:
    """An English UI string on a Chinese page: a text with no Chinese at all but English words, or
    a phrase of three English words in a row. Chinese text with an English technical term in it
    (kernel, mask, Amdahl) is how the course is written and passes."""
    words = [
        w
        for w in WORD.findall(text)
        if w.lower() not in SHARED_WORDS and w.lower() not in data_words
    ]
    if not words:
        return ""
    if not CJK.search(text):
        return ", ".join(words)
    phrase = re.search(r"[A-Za-z]{2,}(?:[ -][A-Za-z]{2,}){2,}", text)
    if phrase and any(w.lower() not in SHARED_WORDS for w in re.split(r"[ -]", phrase.group(0))):
        return phrase.group(0)
    return ""


def shape(path: str) -> str:
    return re.sub(r"\d+", "<n>", path)


def page_links(base_url: str, hrefs: Iterable[str]) -> list[str]:
    """Same-site links among a page's hrefs (a parsed page's ``links``) that are pages, as paths
    with their query string."""
    out = []
    for href in hrefs:
        if href.startswith(("#", "mailto:", "javascript:")):
            continue
        url = urlsplit(urljoin(base_url, href))
        if url.netloc and url.netloc != urlsplit(base_url).netloc:
            continue
        path = url.path + (f"?{url.query}" if url.query else "")
        if SKIP.search(url.path) or (url.path.startswith("/admin/") and url.query):
            continue
        out.append(path)
    return out


class Frontier:
    """Breadth-first order, at most MAX_PER_PATTERN pages per URL shape."""

    def __init__(self, start: list[str]) -> None:
        self.todo = list(start)
        self.seen: set[str] = set(start)
        self.per_shape: dict[str, int] = {}

    def add(self, paths: list[str]) -> None:
        for p in paths:
            if p in self.seen:
                continue
            self.seen.add(p)
            self.todo.append(p)

    def __iter__(self):
        while self.todo:
            p = self.todo.pop(0)
            key = shape(p)
            if self.per_shape.get(key, 0) >= MAX_PER_PATTERN:
                continue
            self.per_shape[key] = self.per_shape.get(key, 0) + 1
            yield p
