"""The archive of earlier terms: fingerprints only (no code, no names, no ids), matched against
this term's submissions; a bad file is refused whole with a message that says why."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from similarity import conf
from similarity.models import ArchivedFingerprint
from similarity.services import archive_export, similarity_run_execute, similarity_run_request
from similarity.tests.corpus import INDEPENDENT
from similarity.tests.kit import softmax_assignment, students, submit

pytestmark = pytest.mark.django_db


def _last_term():
    assignment = softmax_assignment(title="Softmax 2025")
    users = students(["old1", "old2"])
    submit(assignment, users["old1"], INDEPENDENT[13])
    submit(assignment, users["old2"], INDEPENDENT[4])
    return assignment, users


def test_export_holds_fingerprints_only_and_a_reused_kernel_matches(client_ta, tmp_path) -> None:
    old_assignment, old_users = _last_term()
    response = client_ta.post("/staff/similarity/archive/export/", {"term": "2025-fall"})
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    text = response.content.decode()
    document = json.loads(text)
    assert document["algorithm"] == conf.ALGORITHM and len(document["entries"]) == 2
    for forbidden in ("stu_old1", "stu_old2", "tl.load", "softmax_kernel", "import"):
        assert forbidden not in text
    # Each entry: the problem, the backend, a random ref and hashes; nothing that leads back.
    assert all(set(e) == {"problem", "backend", "ref", "hashes"} for e in document["entries"])
    ids = {str(s.pk) for s in old_assignment.submissions.all()} | {
        str(u.pk) for u in old_users.values()
    }
    assert not {e["ref"] for e in document["entries"]} & ids
    # This term: the archive is imported, and a student hands in last term's kernel 13.
    path = tmp_path / "archive.json"
    path.write_text(text, encoding="utf-8")
    old_assignment.submissions.all().delete()
    call_command("similarity_archive", "import", str(path))
    assert ArchivedFingerprint.objects.filter(term="2025-fall").count() == 2
    call_command("similarity_archive", "import", str(path))  # idempotent
    assert ArchivedFingerprint.objects.count() == 2
    assignment = softmax_assignment()
    now = students(["new1", "new2"])
    reused = submit(assignment, now["new1"], INDEPENDENT[13].replace("vmax", "best_so_far"))
    submit(assignment, now["new2"], INDEPENDENT[0])
    run = similarity_run_request(assignment=assignment, actor=None)
    run = similarity_run_execute(run_id=run.pk)
    assert run.archive_compared == 2
    top = run.pairs.order_by("rank").first()
    assert top.submission_a == reused and top.archived.term == "2025-fall"
    assert top.fraction >= conf.REVIEW_THRESHOLD
    page = client_ta.get(f"/staff/similarity/pairs/{top.pk}/").content.decode()
    assert '<mark class="shared">' in page and "2025-fall" in page


def _doc(**change):
    document = archive_export(assignments=[], term="2024-spring")
    document["entries"] = [{"problem": "softmax", "backend": "triton", "ref": "ab" * 8,
                            "hashes": [1, 2, 3]}]  # fmt: skip
    document.update(change)
    return json.dumps(document).encode()


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"\xff\xfe not json", "JSON"),
        (b"[" * 5000 + b"]" * 5000, "JSON"),  # nested past the parser's recursion limit
        (b"[1, 2]", "format"),
        (_doc(version=7), "7"),
        (_doc(algorithm="copydetect"), "copydetect"),
        (_doc(term="../../etc"), "2025-fall"),
        (
            _doc(
                entries=[
                    {
                        "problem": "softmax",
                        "backend": "triton",
                        "ref": "ab" * 8,
                        "hashes": [1],
                        "source": "x = 1",
                    }
                ]
            ),
            "hashes",
        ),  # fmt: skip
        (
            _doc(
                entries=[{"problem": "softmax", "backend": "java", "ref": "ab" * 8, "hashes": [1]}]
            ),
            "1",
        ),  # fmt: skip
        (
            _doc(
                entries=[
                    {
                        "problem": "softmax",
                        "backend": "triton",
                        "ref": "ab" * 8,
                        "hashes": ["1", -5],
                    }
                ]
            ),
            "2^63",
        ),  # fmt: skip
    ],
)
def test_a_bad_archive_is_a_form_error_and_imports_nothing(client_ta, raw, message) -> None:
    upload = SimpleUploadedFile("archive.json", raw, content_type="application/json")
    response = client_ta.post("/staff/similarity/archive/import/", {"file": upload})
    assert response.status_code == 400
    body = response.content.decode()
    assert 'class="errorlist' in body and message in body
    assert not ArchivedFingerprint.objects.exists()


def test_the_command_refuses_a_bad_file_with_a_message(tmp_path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(_doc(version=2))
    with pytest.raises(CommandError, match="2"):
        call_command("similarity_archive", "import", str(path))
    with pytest.raises(CommandError, match="cannot read"):
        call_command("similarity_archive", "import", str(tmp_path / "missing.json"))


def test_a_good_upload_imports(client_ta) -> None:
    upload = SimpleUploadedFile("a.json", _doc(), content_type="application/json")
    response = client_ta.post("/staff/similarity/archive/import/", {"file": upload})
    assert response.status_code == 302
    assert ArchivedFingerprint.objects.get().hashes == [1, 2, 3]


def test_a_bad_term_on_export_is_a_form_error(client_ta) -> None:
    for term in ("", "../../etc/passwd", "x" * 41):
        response = client_ta.post("/staff/similarity/archive/export/", {"term": term})
        assert response.status_code == 400, term
        assert 'class="errorlist' in response.content.decode()
