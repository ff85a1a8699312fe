"""Lecture Markdown -> plain readable text, for search matching and the snippets shown with hits.

A snippet is a slice of this text shown as-is (escaped, with the query marked), so nothing of the
Markdown may survive: emphasis stars, backticks, heading hashes, table pipes and rules, admonition
headers (``!!! note "编者补充"`` keeps only its title), figure placeholders, link targets and
``{#anchor}`` attributes go; math is spelled out (``$X_1 \\times A$`` -> ``X_1 × A``). Code keeps
its characters (students search for ``__syncthreads``), only its fences and backticks go.
"""

from __future__ import annotations

import re

MD_ESCAPE_RE = re.compile(r"\\([\\`*_\[\]<>|#$])")
FENCE_RE = re.compile(r"^\s*```")
ADMONITION_RE = re.compile(r'^\s*!!!\s*[\w-]+(?:\s+"(?P<title>[^"]*)")?\s*$')
FIGURE_RE = re.compile(r"^\s*!figure\s+\S+\s*$")
TABLE_RULE_RE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
LINE_PREFIX_RE = re.compile(r"^\s*(?:>\s*)*(?:#{1,6}\s+|[-*+]\s+)?")
ANCHOR_RE = re.compile(r"\s*\{#[\w-]+\}")
CODE_SPAN_RE = re.compile(r"(`+)(?P<code>.+?)\1")
MATH_RE = re.compile(r"\$\$(?P<block>.+?)\$\$|\$(?P<inline>[^$\n]+?)\$", re.S)
IMAGE_RE = re.compile(r"!\[(?P<alt>[^\]]*)\]\([^)]*\)")
LINK_RE = re.compile(r"\[(?P<text>[^\]]+)\]\((?:[^()\s]|\([^)]*\))*\)")
STRONG_RE = re.compile(r"(\*\*|__)(?=\S)(?P<text>.+?)(?<=\S)\1")
EM_RE = re.compile(r"(?<![\w*\\])\*(?=[^\s*])(?P<text>[^*\n]+?)(?<=[^\s*\\])\*(?![\w*])")
TABLE_PIPE_RE = re.compile(r"\s*(?<!\\)\|\s*")
PLACEHOLDER = "\x00{}\x00"  # keeps code and math away from the Markdown rules; never in the notes

# LaTeX commands of the notes, spelled as the characters a reader sees.
LATEX_SYMBOLS = {
    "times": "×", "cdot": "·", "to": "→", "rightarrow": "→", "leftarrow": "←",
    "leftrightarrow": "↔", "Leftrightarrow": "⇔", "Rightarrow": "⇒", "le": "≤", "leq": "≤",
    "ge": "≥", "geq": "≥", "neq": "≠", "ne": "≠", "approx": "≈", "sim": "~", "in": "∈",
    "sum": "Σ", "prod": "Π", "infty": "∞", "nabla": "∇", "partial": "∂", "top": "⊤",
    "odot": "⊙", "otimes": "⊗", "oplus": "⊕", "cup": "∪", "cap": "∩", "gg": "≫", "ll": "≪",
    "dots": "…", "ldots": "…", "cdots": "⋯", "lceil": "⌈", "rceil": "⌉", "lfloor": "⌊",
    "rfloor": "⌋", "ell": "ℓ", "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ",
    "epsilon": "ε", "eta": "η", "theta": "θ", "lambda": "λ", "mu": "μ", "pi": "π",
    "sigma": "σ", "tau": "τ", "phi": "φ", "psi": "ψ", "omega": "ω", "Delta": "Δ",
    "Theta": "Θ", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω", "bmod": "mod",
    "quad": " ", "qquad": " ", "left": "", "right": "", "big": "", "Big": "", "bigl": "",
    "bigr": "",
}  # fmt: skip
LATEX_GROUP_CMDS = ("text", "mathrm", "mathbf", "mathit", "mathcal", "operatorname", "textbf")
LATEX_GROUP_RE = re.compile(r"\\(?:" + "|".join(LATEX_GROUP_CMDS) + r")\s*\{(?P<text>[^{}]*)\}")
LATEX_FRAC_RE = re.compile(r"\\d?frac\s*\{(?P<num>[^{}]*)\}\s*\{(?P<den>[^{}]*)\}")
LATEX_SQRT_RE = re.compile(r"\\sqrt\s*\{(?P<arg>[^{}]*)\}")
LATEX_SCRIPT_RE = re.compile(r"(?P<op>[_^])\{(?P<arg>[^{}]*)\}")
LATEX_CMD_RE = re.compile(r"\\(?P<name>[A-Za-z]+)(?P<space>\s*)(?P<next>[A-Za-z0-9]?)")


def _group(text: str) -> str:
    """``a`` stays ``a``; ``n+1`` becomes ``(n+1)``, so that a/b and x^y read unambiguously."""
    text = text.strip()
    return text if len(text) <= 1 or text.isalnum() else f"({text})"


def latex_text(latex: str) -> str:
    """A formula as readable text: ``\\frac{K-1}{M}`` -> ``(K-1)/M``, ``\\alpha`` -> ``α``."""
    text = latex
    for _ in range(4):  # inner groups first; the notes nest at most three deep
        text = LATEX_GROUP_RE.sub(lambda m: m["text"], text)
        text = LATEX_FRAC_RE.sub(lambda m: f"{_group(m['num'])}/{_group(m['den'])}", text)
        text = LATEX_SQRT_RE.sub(lambda m: f"√{_group(m['arg'])}", text)
        text = LATEX_SCRIPT_RE.sub(lambda m: m["op"] + _group(m["arg"]), text)
    text = re.sub(r"\\[,;:! ]", " ", text)
    text = LATEX_CMD_RE.sub(_command, text)
    text = text.replace("{", "").replace("}", "").replace("\\\\", " ").replace("&", " ")
    text = re.sub(r"\s+([)\]⌉⌋,])", r"\1", re.sub(r"([(\[⌈⌊])\s+", r"\1", text))
    return re.sub(r"\s+", " ", text).strip()


def _command(m: re.Match) -> str:
    """``\\alpha n`` -> ``α n`` (a space only where letters would otherwise run together)."""
    word = LATEX_SYMBOLS.get(m["name"], m["name"])
    space = m["space"] and " " or (" " if m["next"] and word[-1:].isalnum() else "")
    return word + space + m["next"]


def _inline(line: str, kept: list[str]) -> str:
    """One line of prose: code spans and math set aside, Markdown markup dropped."""

    def keep(text: str) -> str:
        kept.append(text)
        return PLACEHOLDER.format(len(kept) - 1)

    line = CODE_SPAN_RE.sub(lambda m: keep(m["code"].strip()), line)
    line = MATH_RE.sub(lambda m: keep(latex_text(m["block"] or m["inline"])), line)
    line = ANCHOR_RE.sub("", line)
    line = IMAGE_RE.sub(lambda m: m["alt"], line)
    line = LINK_RE.sub(lambda m: m["text"], line)
    line = STRONG_RE.sub(lambda m: m["text"], line)
    line = EM_RE.sub(lambda m: m["text"], line)
    if line.lstrip().startswith("|"):
        line = TABLE_PIPE_RE.sub(" ", line)
    return MD_ESCAPE_RE.sub(r"\1", line).replace("&lt;", "<").replace("&gt;", ">")


def plain_text(markdown_text: str) -> str:
    """Searchable, readable text of a Markdown body, whitespace collapsed to single spaces."""
    out: list[str] = []
    kept: list[str] = []
    in_code = False
    for line in markdown_text.split("\n"):
        if FENCE_RE.match(line):
            in_code = not in_code
        elif in_code:
            out.append(line)
        elif m := ADMONITION_RE.match(line):
            out.append(m["title"] or "")
        elif not (FIGURE_RE.match(line) or TABLE_RULE_RE.match(line)):
            out.append(_inline(LINE_PREFIX_RE.sub("", line, count=1), kept))
    text = "\n".join(out)
    text = re.sub("\x00(\\d+)\x00", lambda m: kept[int(m[1])], text)
    return re.sub(r"\s+", " ", text).strip()
