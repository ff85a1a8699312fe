"""English similarity pages count in English: "1 submission", "1 archived fingerprint", "1 shared
fingerprint". Chinese writes one and many alike, so each count goes through a plural form."""

from __future__ import annotations

from html import unescape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from similarity.models import SimilarityPair, SimilarityRun
from similarity.tests.test_access import pair_world  # noqa: F401  (fixture)
from similarity.tests.test_archive import _doc

pytestmark = pytest.mark.django_db


def _page(client, url: str) -> str:
    client.cookies["django_language"] = "en"
    response = client.get(url)
    assert response.status_code == 200, url
    return unescape(response.content.decode())


@pytest.mark.parametrize(
    ("subs", "archived", "said"),
    [
        (1, 1, "Compared 1 submission and 1 archived fingerprint."),
        (2, 5, "Compared 2 submissions and 5 archived fingerprints."),
    ],
)
def test_run_summary_counts(pair_world, client_ta, subs, archived, said) -> None:  # noqa: F811
    assignment, _users, _a, _b, pair = pair_world
    SimilarityRun.objects.filter(pk=pair.run_id).update(
        submissions_compared=subs, archive_compared=archived
    )
    assert said in _page(client_ta, f"/staff/similarity/assignments/{assignment.pk}/")


def test_pair_summary_counts_one_shared_fingerprint(pair_world, client_ta) -> None:  # noqa: F811
    *_rest, pair = pair_world
    SimilarityPair.objects.filter(pk=pair.pk).update(shared=1)
    page = _page(client_ta, f"/staff/similarity/pairs/{pair.pk}/")
    assert "(1 shared fingerprint)." in page


def test_import_of_one_fingerprint(client_ta) -> None:
    client_ta.cookies["django_language"] = "en"
    upload = SimpleUploadedFile("a.json", _doc(), content_type="application/json")
    response = client_ta.post("/staff/similarity/archive/import/", {"file": upload}, follow=True)
    assert "Imported 1 fingerprint of 2024-spring." in unescape(response.content.decode())
