"""A student's source is text on the TA's review page, never markup (selectors.highlighted).

The page is a TA's, signed in with the TA's powers, and shows two students' code: markup there
would act with the TA's session (an htmx attribute posts with the CSRF token of <body>; the CSP
does not stop a same-origin request). The one test that looked ("<script" not in the page) read
a corpus with no markup in it, so dropping the escaping failed nothing.
"""

from __future__ import annotations

import random

import pytest

from similarity.services import similarity_run_execute, similarity_run_request
from similarity.tests.corpus import INDEPENDENT, disguise
from similarity.tests.kit import softmax_assignment, students, submit

pytestmark = pytest.mark.django_db

SHARED = '# <div hx-post="/grades/staff/import/" hx-trigger="load">both</div>\n'
OWN = "# <img src=x onerror=alert(1)> only in the copy\n"
# Inside the copied kernel, so among the shared (marked) code, and after the last of it.
IN_CODE = "    label = \"<u hx-get='/grades/'>marked</u>\"\n"
TAIL = "# <s>after the shared code</s>\n"


def _with_markup(source: str) -> str:
    head, sep, rest = source.partition("    row = tl.program_id(0)\n")
    assert sep, "the corpus kernel changed: put IN_CODE elsewhere"
    return head + sep + IN_CODE + rest + TAIL


def test_markup_in_both_sources_is_shown_as_text(client_ta) -> None:
    assignment = softmax_assignment()
    users = students(["orig", "copy"])
    original = SHARED + _with_markup(INDEPENDENT[8])
    copied = SHARED + OWN + disguise(_with_markup(INDEPENDENT[8]), random.Random(3))
    submit(assignment, users["orig"], original, minutes_ago=30)
    submit(assignment, users["copy"], copied)
    run = similarity_run_execute(
        run_id=similarity_run_request(assignment=assignment, actor=None).pk
    )
    page = client_ta.get(f"/staff/similarity/pairs/{run.pairs.get().pk}/").content.decode()

    assert page.count('<mark class="shared">') >= 4  # the page shows the shared code as usual
    assert "<div hx-post" not in page and "<img src=x" not in page
    assert "<u hx-get" not in page and "<s>after" not in page
    text = page.replace('<mark class="shared">', "").replace("</mark>", "")  # spans may split it
    # (the copier's renaming reaches into the string: "hx-get" is "hx-get_w2" in the copy)
    assert text.count("&lt;u hx-get") == 2 and text.count("&gt;marked&lt;/u&gt;") == 2
    assert text.count("&lt;s&gt;after the shared code&lt;/s&gt;") == 2
    assert page.count("&lt;div hx-post=&quot;/grades/staff/import/&quot;") == 2
    assert page.count("&lt;img src=x onerror=alert(1)&gt;") == 1
