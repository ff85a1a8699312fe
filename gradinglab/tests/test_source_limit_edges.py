"""MAX_SOURCE_BYTES at its edges, through every door a source comes in: the editor's form, the API
and the worker count the same UTF-8 bytes. Exactly at the limit is accepted, one byte over is
refused in the same words (the editor keeping the student's code); Chinese comments count three
bytes a character everywhere, and the newlines a browser sends (CRLF) count as the student's LF.
Bad bodies (empty, NUL, a lone surrogate, JSON that is no object, a body over the request cap)
each get a clear 4xx, never a 500, and nothing is stored."""

from __future__ import annotations

import html
import json

import pytest

from gradinglab.models import Submission
from gradinglab.runner.source import MAX_SOURCE_BYTES, SourceProblem, source_problem
from gradinglab.tests.labkit import correct_source, make_assignment

pytestmark = pytest.mark.django_db

URL = "/lab/problems/vector-add/"
API = "/api/v1/submissions"
TOO_LARGE = "代码超过 256 KiB"
LINE = 100  # characters a padding line holds at most: the pre-check reads a long line slowly


def sized(size: int, filler: str = "x") -> str:
    """The correct kernel padded with comment lines of ``filler`` to exactly ``size`` UTF-8 bytes."""
    source = correct_source()
    left = size - len(source.encode())
    width = len(filler.encode())
    lines = []
    while left > LINE:
        count = min(LINE // len(filler), (left - 3) // width)
        lines.append("# " + filler * count + "\n")
        left -= 3 + count * width
    lines.append("#" + "x" * (left - 2) + "\n" if left >= 2 else "\n" * left)
    padded = source + "".join(lines)
    assert len(padded.encode()) == size
    return padded


def _api(client, source, **fields):
    body = {"problem": "vector-add", "backend": "triton", "source": source, **fields}
    return client.post(API, data=json.dumps(body), content_type="application/json")


def _form(client, source: str):
    return client.post(URL + "submit/", {"backend": "triton", "source": source})


def _editor(page: str) -> str:
    """The editor's text as a browser reads it: HTML drops one newline right after <textarea>."""
    start = page.index('id="source"')
    start = page.index(">", start) + 1
    text = html.unescape(page[start : page.index("</textarea>", start)])
    return text.removeprefix("\n")


def _said(page: str) -> str:
    start = page.index('id="submit-error"')
    return html.unescape(page[start : page.index("</p>", start)])


@pytest.mark.parametrize("filler", ["x", "中文注释"])
def test_exactly_at_the_limit_is_accepted_by_the_form_and_the_api(client_a, filler) -> None:
    make_assignment(rate_limit_count=10)
    source = sized(MAX_SOURCE_BYTES, filler)
    assert _api(client_a, source).status_code == 201
    assert _form(client_a, source).status_code == 302
    assert source_problem(source) is None  # what the worker checks before grading
    assert [len(s.source.encode()) for s in Submission.objects.all()] == [MAX_SOURCE_BYTES] * 2


@pytest.mark.parametrize("filler", ["x", "中文注释"])
def test_one_byte_over_is_refused_alike_and_the_editor_keeps_the_code(client_a, filler) -> None:
    make_assignment(rate_limit_count=10)
    source = sized(MAX_SOURCE_BYTES + 1, filler)
    api = _api(client_a, source)
    assert api.status_code == 400 and api.json()["detail"] == TOO_LARGE
    form = _form(client_a, source)
    page = form.content.decode()
    assert form.status_code == 400 and _said(page).endswith(TOO_LARGE)
    assert _editor(page) == source
    assert source_problem(source) == SourceProblem.TOO_LARGE  # the worker refuses it too
    assert not Submission.objects.exists()


def test_code_that_begins_with_a_blank_line_is_kept_whole_in_the_editor(client_a) -> None:
    make_assignment()
    source = "\n" + sized(MAX_SOURCE_BYTES)
    page = _form(client_a, source).content.decode()
    assert _said(page).endswith(TOO_LARGE)
    assert _editor(page) == source


def test_a_browsers_crlf_counts_as_the_students_lf(client_a) -> None:
    """A textarea is sent with CRLF newlines: a file at the limit stays at the limit."""
    make_assignment()
    source = sized(MAX_SOURCE_BYTES)
    assert _form(client_a, source.replace("\n", "\r\n")).status_code == 302
    assert Submission.objects.get().source == source


@pytest.mark.parametrize(
    ("source", "said"),
    [("", "提交的代码为空"), (" \n\t\n", "提交的代码为空"), ("a\x00b", "代码中含有 NUL 字节")],
    ids=["empty", "whitespace", "nul"],
)
def test_empty_or_nul_source_is_a_clear_refusal(client_a, source, said) -> None:
    make_assignment()
    api = _api(client_a, source)
    assert api.status_code == 400 and said in json.dumps(api.json(), ensure_ascii=False)
    form = _form(client_a, source)
    assert form.status_code == 400 and _said(form.content.decode()).endswith(said)
    assert not Submission.objects.exists()


@pytest.mark.parametrize("field", ["source", "problem", "backend"])
def test_a_lone_surrogate_in_the_json_body_is_a_400(client_a, field) -> None:
    """JSON's "\\ud800" escape decodes to a str PostgreSQL cannot store."""
    make_assignment()
    body = {"problem": "vector-add", "backend": "triton", "source": correct_source()}
    body[field] = body[field] + "\ud800"
    response = client_a.post(API, data=json.dumps(body), content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    assert response.json()["detail"]
    assert not Submission.objects.exists()


def test_surrogate_bytes_in_a_form_body_are_no_500(client_a) -> None:
    """A form body is decoded with replacement characters: the encoded surrogate cannot reach the
    database; the kernel it makes is refused by the pre-check, the page kept."""
    make_assignment()
    body = "backend=triton&source=x%ED%A0%80"
    response = client_a.post(
        URL + "submit/", body, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 400
    assert not Submission.objects.exists()


@pytest.mark.parametrize("body", ["[]", "1", "null", '"source"', "[{}]", "{"])
def test_a_json_body_that_is_no_object_is_a_400(client_a, body) -> None:
    make_assignment()
    response = client_a.post(API, data=body, content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    assert response.json()["detail"]


def test_a_body_over_the_request_cap_is_a_413_naming_the_cap(client_a, settings) -> None:
    make_assignment()
    response = _api(client_a, "x" * settings.PDC_MAX_REQUEST_BYTES)
    assert response.status_code == 413
    assert f"{settings.PDC_MAX_REQUEST_BYTES // 1024} KiB" in response.json()["detail"]
    assert not Submission.objects.exists()
