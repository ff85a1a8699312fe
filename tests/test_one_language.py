"""Must hold 3 (issue 15): one language at a time. A crawler visits every page a student, a TA and an
instructor reach, in Chinese and in English, and fails on a raw status code, an internal key
(`lab:9`), Chinese UI text on an English page or English UI text on a Chinese page (content marked
with its `lang` is exempt, see tests/crawl.py); and, outside the Django admin, on a repeated id,
a page without exactly one h1, or a form field no label names. The .po files have no
untranslated or fuzzy entry."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests import crawl
from tests.uiworld import build_world

ROOT = Path(settings.BASE_DIR)
START = ["/", "/lectures/", "/quizzes/", "/lab/", "/grades/", "/accounts/profile/"]
STAFF_START = ["/grades/staff/", "/admin/"]


def _data_words(world) -> set[str]:
    """Identifiers that are data, not UI: usernames, nicknames, problem slugs, question bank ids."""
    from gradinglab.models import Problem, WorkerNode
    from quizzes.models import Question

    words = {"student_a", "student_b", "kernel-fan", "ta_wang", "prof_zhao"}
    words |= {s.lower() for s in Problem.objects.values_list("slug", flat=True)}
    words |= {b.lower() for b in Question.objects.values_list("bank_id", flat=True)}
    words |= {n.lower() for n in WorkerNode.objects.values_list("name", flat=True)}
    return {w for text in words for w in crawl.WORD.findall(text)} | {w.lower() for w in words}


def _crawl(
    client: Client, start: list[str], data_words: set[str]
) -> tuple[int, list[tuple[str, str]]]:
    frontier = crawl.Frontier(start)
    visited, failures = 0, []
    for path in frontier:
        response = client.get(path)
        if response.status_code in (301, 302):
            continue
        content_type = response.get("Content-Type", "")
        if response.status_code == 403 and path.startswith("/admin/"):
            continue  # the admin links objects this role may not open; it answers 403, fine
        if response.status_code != 200:
            failures.append((f"HTTP {response.status_code}", path))
            continue
        if not content_type.startswith("text/html"):
            continue
        visited += 1
        parsed = crawl.parse(response.content.decode())  # once: parsing is most of the crawl's time
        # The admin's markup is Django's: a tabular inline's cells are labelled by their column
        # heading and a split date-time has one label for two inputs, which this check can't see.
        ours = not path.startswith("/admin/")
        found = crawl.problems(parsed, data_words=data_words, structure=ours)
        failures += [(p, path) for p in found]
        frontier.add(crawl.page_links(f"http://testserver{path}", parsed.links))
    return visited, failures


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_every_page_speaks_one_language(lang: str) -> None:
    world = build_world()
    data_words = _data_words(world)
    report: dict[str, list[str]] = {}  # problem -> where
    total = 0
    for user, start in (
        (world.student, START),
        (world.ta, START + STAFF_START),
        (world.instructor, START + STAFF_START),
    ):
        client = Client(HTTP_ACCEPT_LANGUAGE=lang)
        client.force_login(user)
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
        visited, failures = _crawl(client, start, data_words)
        assert visited > 20, f"{user.username}: only {visited} pages reached"
        total += visited
        for problem, path in failures:
            report.setdefault(problem, []).append(f"{user.username} {path}")
    lines = [f"{p}  [{len(w)}x, e.g. {w[0]}]" for p, w in sorted(report.items())]
    assert not report, f"{len(report)} problems over {total} pages:\n" + "\n".join(lines)


# Template text a translation tag does not hold: everything left after the tags, comments and
# variables are cut out. The crawl above sees GET pages only; this also covers what a form's
# POST renders (the roster's line errors once joined them with a bare "：").
_TEMPLATE_TAGS = re.compile(
    r"\{%\s*blocktrans(?:late)?\b.*?\{%\s*endblocktrans(?:late)?\s*%\}"
    r"|\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}|\{#.*?#\}|\{\{.*?\}\}|\{%.*?%\}",
    re.S,
)


def test_templates_hold_no_chinese_outside_translation_tags() -> None:
    templates = [p for p in ROOT.glob("*/templates/**/*.html") if ".venv" not in p.parts]
    templates += list(ROOT.glob("templates/**/*.html"))
    assert len(templates) > 50  # the glob found the project's templates
    stray = [
        f"{path.relative_to(ROOT)}: {line.strip()[:80]!r}"
        for path in templates
        for line in _TEMPLATE_TAGS.sub("", path.read_text(encoding="utf-8")).splitlines()
        if crawl.CJK.search(line)
    ]
    assert not stray, "\n".join(stray)
