"""A lecture page puts its introduction, every section and several inline figures on one page,
each rendered apart: no id may repeat on it (a repeated id breaks in-page links and is an
accessibility error). Headings inside sections used to become ``_1``, ``kernel``, ... in each
section; figures each defined the arrow marker ``arrow``."""

from __future__ import annotations

import re

import pytest
from django.conf import settings

from lectures.models import Lecture

pytestmark = pytest.mark.django_db
ID_RE = re.compile(r'\bid="([^"]+)"')


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_no_id_repeats_on_any_lecture_page(imported, client_a, lang) -> None:
    client_a.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    repeated = {}
    for number in Lecture.objects.values_list("number", flat=True):
        ids = ID_RE.findall(client_a.get(f"/lectures/{number}/").content.decode())
        assert len(ids) > 20  # the page and its sections are there
        if len(ids) != len(set(ids)):
            repeated[number] = sorted({i for i in ids if ids.count(i) > 1})
    assert repeated == {}


def test_a_heading_inside_a_section_is_named_after_the_section(imported, client_a) -> None:
    page = client_a.get("/lectures/2/").content.decode()
    # "### Kernel 程序" in 2.11: readable (Chinese kept, not "_1"), and its section's own.
    assert '<h3 id="sec-2-11--kernel-程序">Kernel 程序</h3>' in page
