"""An uploaded file must be the chosen backend's kind of source: .py for Triton, .cu for CUDA (the
field's accept list and the starters' file names; runner.source.FILE_SUFFIXES). A .txt was read
as Python and refused by the syntax check in words that did not say what was wrong."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile

from gradinglab.models import Submission
from gradinglab.tests.labkit import correct_cuda_source, correct_source, make_assignment, purge

pytestmark = pytest.mark.django_db

URL = "/lab/problems/vector-add/"
TYPED = "import triton\n# half-way through my kernel\n"


def _post(client, backend: str, name: str, content: str):
    upload = SimpleUploadedFile(name, content.encode())
    return client.post(URL + "submit/", {"backend": backend, "source": TYPED, "file": upload})


def _error(response) -> str:
    html = response.content.decode()
    start = html.index('id="submit-error"')
    return html[start : html.index("</p>", start)]


@pytest.mark.parametrize(
    ("backend", "name", "wanted"),
    [
        ("triton", "kernel.txt", ".py"),
        ("triton", "kernel.cu", ".py"),
        ("cuda", "kernel.py", ".cu"),
        ("triton", "kernel", ".py"),
    ],
)
def test_a_file_of_another_kind_is_refused_and_the_code_kept(
    client_a, backend: str, name: str, wanted: str
) -> None:
    make_assignment()
    source = correct_source() if backend == "triton" else correct_cuda_source()
    response = _post(client_a, backend, name, source)
    assert response.status_code == 400
    error = _error(response)
    assert f"只接受 {wanted} 文件" in error and name in error and "编辑器中的代码已保留" in error
    assert "half-way through my kernel" in response.content.decode()
    assert not Submission.objects.exists()

    client_a.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = _error(_post(client_a, backend, name, source))
    assert f"takes {wanted} files only" in english and "只接受" not in english


@pytest.mark.parametrize(("backend", "name"), [("triton", "Kernel.PY"), ("cuda", "kernel.cu")])
def test_a_file_of_the_chosen_kind_is_submitted(
    client_a, django_capture_on_commit_callbacks, backend: str, name: str
) -> None:
    make_assignment()
    source = correct_source() if backend == "triton" else correct_cuda_source()
    purge()
    with django_capture_on_commit_callbacks(execute=True):
        response = _post(client_a, backend, name, source)
    assert response.status_code == 302, _error(response)
    assert Submission.objects.get().source == source
    purge()


def test_the_upload_field_accepts_the_same_kinds(client_a) -> None:
    make_assignment()
    assert 'accept=".py,.cu"' in client_a.get(URL).content.decode()


def test_a_file_saved_with_a_byte_order_mark_is_submitted_without_it(
    client_a, django_capture_on_commit_callbacks
) -> None:
    """Notepad's "UTF-8" has a BOM: the pre-check refused the file as a syntax error."""
    make_assignment()
    purge()
    with django_capture_on_commit_callbacks(execute=True):
        response = client_a.post(
            URL + "submit/",
            {
                "backend": "triton",
                "file": SimpleUploadedFile("k.py", "\ufeff".encode() + correct_source().encode()),
            },
        )
    assert response.status_code == 302, _error(response)
    assert Submission.objects.get().source == correct_source()
    purge()
