"""Excel on Chinese Windows saves "CSV" as GBK. The upload refused such a roster with only "not
UTF-8"; the error now says which of Excel's types to save as, in the reader's language."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile

pytestmark = pytest.mark.django_db

UPLOAD = "/accounts/staff/roster/upload/"
GBK_ROSTER = "student_id,name,email,role\nnew1,张三,new1@example.edu,student\n".encode("gbk")


def _upload(client):
    file = SimpleUploadedFile("名单.csv", GBK_ROSTER, content_type="text/csv")
    return client.post(UPLOAD, {"file": file})


@pytest.mark.parametrize(
    ("lang", "hint"),
    [
        (
            "zh-hans",
            "文件不是 UTF-8 编码的 CSV。在 Excel 中用“另存为”，保存类型选“CSV UTF-8（逗号分隔）”",
        ),
        ("en", "In Excel, use “Save As” with the type “CSV UTF-8 (Comma delimited)”"),
    ],
)
def test_a_gbk_roster_is_refused_with_how_to_save_it_as_utf8(client_instructor, lang, hint) -> None:
    client_instructor.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = _upload(client_instructor)
    page = response.content.decode()
    assert response.status_code == 400
    assert hint in page
    assert 'name="payload"' not in page  # no preview: nothing to confirm
    assert not get_user_model().objects.filter(username="new1").exists()
