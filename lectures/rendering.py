"""Markdown -> HTML for lectures, run once at import time (never per request).

Pipeline: fenced code and ``$…$`` / ``$$…$$`` math are cut out first (so Markdown never sees
them), the rest goes through python-markdown, then code comes back highlighted by Pygments and
math comes back as MathML from latex2mathml. A formula latex2mathml cannot parse is shown as
code, never as raw ``$…$``. Raw HTML in the Markdown is escaped, never passed through, and what
Markdown makes is cleaned by an allow-list (``clean``) before code, math and figures come back.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import markdown
import nh3
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from latex2mathml.converter import convert as latex_to_mathml
from markdown.extensions.toc import slugify_unicode
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import RegexLexer, bygroups
from pygments.lexers import get_lexer_by_name
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text
from pygments.util import ClassNotFound

from lectures.markdown_linear import LinearTocExtension, use_linear

FENCE_RE = re.compile(r"^(?P<indent> *)```(?P<lang>[\w+-]*)\s*$")
# A diagram placed by convert_notes: "!figure <slug>" on a line of its own (lectures/figures/).
FIGURE_RE = re.compile(r"^!figure (?P<slug>[a-z0-9-]+)$", re.M)
# Display math may wrap over several source lines (a long formula); inline math stays on one.
MATH_RE = re.compile(r"\$\$(?P<block>(?s:.+?))\$\$|\$(?P<inline>[^$\n]+?)\$")
LINK_RE = re.compile(r'href="sec:(?P<num>\d+\.\d+(?:\.\d+)?)"')
PYGMENTS_STYLE = "friendly"
PYGMENTS_DARK_STYLE = "github-dark"  # every token colour >= 4.5:1 on its #0d1117 background
CODE_CSS_CLASS = "codehilite"

MD_EXTENSIONS = ["tables", "attr_list", "admonition", "sane_lists"]  # + toc, per call

# What Markdown may make of staff text, and nothing else. attr_list writes any attribute a line
# asks for ("{: hx-post=… hx-trigger=load }", "{: onerror=… }"), and a link any URL
# ("javascript:…"): in an announcement or a lecture they would act in every reader's browser with
# the reader's session (htmx sends the CSRF token of <body>; the CSP does not stop a same-origin
# request). Headings keep their ids (the sections' anchors, "{#sec-8-1}"), admonitions their class.
_ADMONITIONS = {"note", "tip", "hint", "important", "warning", "caution", "attention", "danger"}
_ALLOWED_TAGS = {
    *("p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote"),
    *("pre", "code", "em", "strong", "a", "img", "div"),
    *("table", "thead", "tbody", "tr", "th", "td"),
}
_ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title"},
    "ol": {"start"},
    "th": {"style"},  # only text-align (filter_style_properties), the tables extension's
    "td": {"style"},
    **{f"h{level}": {"id"} for level in range(1, 7)},
}
_ALLOWED_CLASSES = {"div": {"admonition", "toc", *_ADMONITIONS}, "p": {"admonition-title"}}
# "sec:" is this module's own cross-reference, mapped to a URL after cleaning (LINK_RE).
_URL_SCHEMES = {"http", "https", "mailto", "sec"}
_PLACEHOLDER = re.compile(r"PDCX[A-Z]\d+X")


class MlirLexer(RegexLexer):
    """Small MLIR lexer: Pygments 2.19 ships none, and the notes have MLIR examples."""

    name = "MLIR"
    aliases = ["mlir"]
    tokens = {
        "root": [
            (r"//.*$", Comment.Single),
            (r"%[\w.$-]+", Name.Variable),
            (r"@[\w.$-]+", Name.Function),
            (r"\^[\w.$-]+", Name.Label),
            (r"\b(func|return|ins|outs|to|step|iter_args)\b", Keyword),
            (r"\b(tensor|memref|vector)(<)", bygroups(Keyword.Type, Punctuation)),
            (r"\b([if]\d+|index|bf16)\b", Keyword.Type),
            (r"\b([a-z_]+)(\.)([\w.]+)", bygroups(Name.Namespace, Punctuation, Name.Builtin)),
            (r"\d+\.\d+(e[+-]?\d+)?|\d+", Number),
            (r'"[^"]*"', String),
            (r"->|[=:]", Operator),
            (r"[(){}\[\]<>,x]", Punctuation),
            (r"\s+", Text),
            (r"\w+", Name),
        ]
    }


_UNCLOSED_FENCE = gettext_lazy("以 ``` 开始的代码块没有结束。")

# The most Markdown one render takes, in characters. The longest text rendered today is 6,418
# characters (content/course/cheatsheet.md; a lecture section or a problem statement is under
# 2,300), and a whole lecture file, were staff to paste one into one box, is under 20,000.
# What python-markdown still does in O(n²) (each inline match re-searches its paragraph from the
# start, each block is re-tested after every heading line in it: upstream #161/#798;
# lectures/markdown_linear.py has the rest) costs about 19 s at 50,000 characters of "`a" or
# "# a" lines on the 2-core VM, 4 s alone at 30,000 (11 s beside another): under gunicorn's 30 s
# worker timeout, and 4.7 times the longest text of today.
MAX_SOURCE_CHARS = 30_000
_TOO_LONG = gettext_lazy("文本有 %(size)d 个字符，单次渲染最多 %(limit)d 个字符；请缩短或拆分。")


class RenderError(ValueError):
    """Markdown that cannot be rendered; ``line`` is 1-based within the rendered text."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line

    def at_line(self) -> str:
        """The message with its line, as staff read it next to the box they typed in."""
        return _("第 %(line)d 行：%(message)s") % {"line": self.line, "message": self}


@dataclass
class Rendered:
    html: str
    code_blocks: int = 0
    math_fallbacks: list[str] = field(default_factory=list)


def _lexer(lang: str):
    if lang == "mlir":
        return MlirLexer()
    try:
        return get_lexer_by_name(lang or "text")
    except ClassNotFound:
        return get_lexer_by_name("text")


def highlight_code(code: str, lang: str) -> str:
    formatter = HtmlFormatter(cssclass=CODE_CSS_CLASS, wrapcode=True)
    body = highlight(code, _lexer(lang), formatter)
    label = html.escape(lang or "text")
    return body.replace(
        f'<div class="{CODE_CSS_CLASS}">', f'<div class="{CODE_CSS_CLASS}" data-lang="{label}">', 1
    )


def pygments_css() -> str:
    """The stylesheet served as ``lectures/pygments.css`` (see test_rendering)."""
    return HtmlFormatter(style=PYGMENTS_STYLE).get_style_defs(f".{CODE_CSS_CLASS}") + "\n"


def pygments_dark_css() -> str:
    """The code colours of the dark theme (``static/vendor/pygments/github-dark.css``, see
    test_rendering): only the token rules, scoped under ``html body`` to win over the light rules
    of site.css."""
    scope = f"html body .{CODE_CSS_CLASS}"
    defs = HtmlFormatter(style=PYGMENTS_DARK_STYLE).get_style_defs(scope)
    return "\n".join(line for line in defs.splitlines() if line.startswith(scope)) + "\n"


def math_html(latex: str, display: bool) -> tuple[str, bool]:
    """(HTML, ok): MathML, or a readable ``<code>`` fallback when latex2mathml fails."""
    try:
        mathml = latex_to_mathml(latex.strip(), display="block" if display else "inline")
    except Exception:  # latex2mathml raises many unrelated types on bad input
        cls = "math-fallback math-block" if display else "math-fallback"
        return f'<code class="{cls}" title="LaTeX">{html.escape(latex.strip())}</code>', False
    return _clean_math(_MTEXT.sub(_unescape_text_mode, mathml)), True


# latex2mathml copies \text{…} into <mtext> unescaped and \href{…} into an href: a formula in
# staff text could hold any element or URL ("$\text{<div hx-post=… hx-trigger=load>}$" posted
# with every reader's session, an audit found). Presentation MathML only, and its layout
# attributes; the lectures' 629 formulas come out the same but for entities written as characters.
_MATHML_TAGS = {
    *("math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msqrt", "mroot", "mfrac"),
    *("msub", "msup", "msubsup", "munder", "mover", "munderover", "mtable", "mtr", "mtd"),
    *("mstyle", "mpadded", "mphantom", "menclose", "mmultiscripts", "mprescripts", "none"),
}
_MATHML_ATTRIBUTES = {
    "*": {
        *("xmlns", "display", "displaystyle", "scriptlevel", "mathvariant", "mathsize"),
        *("fence", "form", "stretchy", "symmetric", "largeop", "movablelimits", "separator"),
        *("lspace", "rspace", "minsize", "maxsize", "width", "height", "depth", "voffset"),
        *("accent", "accentunder", "linethickness", "notation", "columnalign", "rowalign"),
        *("columnspacing", "rowspacing", "columnlines", "rowlines", "frame"),
    }
}


def _clean_math(mathml: str) -> str:
    return nh3.clean(mathml, tags=_MATHML_TAGS, attributes=_MATHML_ATTRIBUTES, link_rel=None)


# latex2mathml copies \text{...} into <mtext> as written, so the text-mode escapes of LaTeX stayed
# visible (lecture 5 showed "BLOCK\_SIZE"); in LaTeX they stand for the character itself.
_MTEXT = re.compile(r"(<mtext>)(.*?)(</mtext>)", re.S)
_TEXT_ESCAPE = re.compile(r"\\([_%#])|\\&(?!#x)")


def _unescape_text_mode(match: re.Match[str]) -> str:
    body = _TEXT_ESCAPE.sub(lambda m: m[1] or "&amp;", match[2])
    return match[1] + body + match[3]


class _Stash:
    """Holds cut-out pieces keyed by placeholders that Markdown leaves untouched."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.items: list[str] = []

    def put(self, value: str) -> str:
        self.items.append(value)
        return f"PDCX{self.kind}{len(self.items) - 1}X"

    def restore(self, text: str) -> str:
        # One pass: a replace per piece walked the whole page once per formula ("$x$ " * 8000,
        # 32 KB: 6.6 s).
        if not self.items:
            return text
        key = re.compile(rf"<p>PDCX{self.kind}(\d+)X</p>|PDCX{self.kind}(\d+)X")
        return key.sub(lambda m: self._item(m[1] or m[2], m[0]), text)

    def _item(self, number: str, placeholder: str) -> str:
        i = int(number)
        return self.items[i] if i < len(self.items) else placeholder


def _cut_code(text: str, code: _Stash) -> tuple[str, int]:
    out: list[str] = []
    lines = text.split("\n")
    i, count = 0, 0
    while i < len(lines):
        m = FENCE_RE.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        indent, start = m["indent"], i
        body: list[str] = []
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            inner = FENCE_RE.match(lines[i])
            if inner and inner["lang"]:
                raise RenderError(_UNCLOSED_FENCE, start + 1)
            body.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i])
            i += 1
        if i == len(lines):
            raise RenderError(_UNCLOSED_FENCE, start + 1)
        out += ["", indent + code.put(highlight_code("\n".join(body), m["lang"])), ""]
        count += 1
        i += 1
    return "\n".join(out), count


def _cut_figures(text: str, stash: _Stash) -> str:
    """Each ``!figure slug`` line becomes the figure's slot (kept away from Markdown); the page
    fills it in the reader's language (``lectures.figures.in_language``)."""
    from lectures.figures import BY_SLUG, figure_slot

    def repl(m: re.Match[str]) -> str:
        if m["slug"] not in BY_SLUG:
            line = text.count("\n", 0, m.start()) + 1
            raise RenderError(_("没有名为 %(slug)s 的图。") % {"slug": m["slug"]}, line)
        return stash.put(figure_slot(m["slug"]))

    return FIGURE_RE.sub(repl, text)


def _cut_math(text: str, math: _Stash, fallbacks: list[str]) -> str:
    def repl(m: re.Match[str]) -> str:
        display = m["block"] is not None
        latex = m["block"] if display else m["inline"]
        value, ok = math_html(latex, display)
        if not ok:
            fallbacks.append(latex)
        return math.put(value)

    return MATH_RE.sub(repl, text)


def _keep_attribute(_tag: str, _name: str, value: str) -> str | None:
    # A placeholder in an attribute ("[a](u "$x$")", "{#PDCXM0X}") would get MathML, whose quotes
    # end the attribute, after cleaning: drop the attribute, so they only ever land in text.
    return None if _PLACEHOLDER.search(value) else value


def clean(body: str) -> str:
    """Markdown's HTML with only the tags, attributes, classes and URLs above (ammonia, via nh3)."""
    return nh3.clean(
        body,
        tags=_ALLOWED_TAGS,
        attributes=_ALLOWED_ATTRIBUTES,
        allowed_classes=_ALLOWED_CLASSES,
        url_schemes=_URL_SCHEMES,
        filter_style_properties={"text-align"},
        attribute_filter=_keep_attribute,
        link_rel=None,
    )


def _prepared(text: str) -> tuple[str, _Stash, int]:
    """The stages that can refuse a text (RenderError): its length, its code fences, its figure
    names. Returns the text with code and figures cut out, their stash and the count of code
    blocks."""
    if len(text) > MAX_SOURCE_CHARS:
        # The line is where the text passes the limit: what to cut starts there.
        line = text.count("\n", 0, MAX_SOURCE_CHARS) + 1
        raise RenderError(_TOO_LONG % {"limit": MAX_SOURCE_CHARS, "size": len(text)}, line)
    code = _Stash("C")
    text, count = _cut_code(text, code)
    return _cut_figures(text, code), code, count


def check_markdown(text: str) -> None:
    """Raise the RenderError that render_markdown would raise for ``text``, without rendering it.
    The import checks every piece of the notes before it writes any, then renders each once to
    store it: the check no longer costs a second render (a third of the import's CPU)."""
    _prepared(text)


def render_markdown(text: str, link: Callable[[str], str] | None = None, ids: str = "") -> Rendered:
    """Render lecture Markdown; ``link`` maps a ``sec:N.M`` target to a URL. ``ids`` starts the
    id of every heading in ``text``: pieces rendered apart and shown on one page (a lecture's
    sections) would otherwise repeat ids such as ``_1``, which every Chinese heading became."""
    text, code, count = _prepared(text)
    math = _Stash("M")
    fallbacks: list[str] = []
    text = _cut_math(text, math, fallbacks)
    headings = LinearTocExtension(slugify=lambda value, sep: ids + slugify_unicode(value, sep))
    md = markdown.Markdown(extensions=[*MD_EXTENSIONS, headings], output_format="html")
    # Staff text is not trusted to carry HTML (as for announcements): raw tags and blocks come out
    # escaped, as text. Entities such as ``&lt;`` still work; code, math and figures are cut out
    # above and put back after Markdown, so the HTML this module builds is unaffected.
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    use_linear(md)
    body = clean(md.convert(text))
    body = code.restore(math.restore(body))
    if link is not None:
        body = LINK_RE.sub(lambda m: f'href="{html.escape(link(m["num"]))}"', body)
    return Rendered(html=body, code_blocks=count, math_fallbacks=fallbacks)


def render_inline(text: str) -> str:
    """Render a one-line title (may hold math) without the surrounding ``<p>``."""
    out = render_markdown(text).html.strip()
    if out.startswith("<p>") and out.endswith("</p>"):
        out = out[3:-4]
    return out
