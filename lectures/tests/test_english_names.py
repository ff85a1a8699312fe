"""English pages name the lectures in English (title and module from the files' front matter);
the lecture text stays the notes' Chinese, marked lang="zh-CN", and the page says so. A lecture
without English names shows its Chinese ones, marked; rows imported before the English names
existed take them on the next import without being taken for a staff edit."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings

from lectures.models import Lecture
from lectures.services import lecture_save_staff_edit
from lectures.tests.conftest import CONTENT
from lectures.tests.conftest import import_lectures as _import

pytestmark = pytest.mark.django_db

EN_TITLE = "CUDA by Example: Reduction and Tiled Convolution"
ZH_TITLE = "CUDA 实例：归约与分块卷积"
EN_LINES = re.compile(r"^(title_en|module_en): .*\n", re.M)


def _strip_english(path: Path) -> None:
    path.write_text(EN_LINES.sub("", path.read_text(encoding="utf-8")), encoding="utf-8")


def _get(client, url: str, lang: str) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    resp = client.get(url)
    assert resp.status_code == 200
    return resp.content.decode()


def test_every_course_lecture_has_english_names() -> None:
    assert not _import(CONTENT / "lectures").errors
    names = list(Lecture.objects.values_list("number", "title_en", "module_en"))
    assert len(names) == 9
    assert all(title and module for _, title, module in names), names
    assert all(not re.search(r"[\u4e00-\u9fff]", t + m) for _, t, m in names), names


@pytest.mark.parametrize(
    # /lectures/4/ names lecture 3 in its "previous" link, read by the raw-SQL lecture index
    "url",
    [
        "/lectures/",
        "/lectures/3/",
        "/lectures/4/",
        "/lectures/map/",
        "/lectures/search/?q=bank+conflict",
    ],
)
def test_english_pages_name_lectures_in_english_and_chinese_pages_in_chinese(
    content_dir: Path, client_a, url: str
) -> None:
    assert not _import(content_dir).errors
    en = _get(client_a, url, "en")
    assert EN_TITLE in en and ZH_TITLE not in en
    zh = _get(client_a, url, "zh-hans")
    assert ZH_TITLE in zh and EN_TITLE not in zh
    if url in ("/lectures/", "/lectures/map/"):
        assert "Single-GPU programming" in en and "单卡编程" in zh


def test_english_lecture_page_says_its_text_is_the_chinese_notes(content_dir, client_a) -> None:
    _import(content_dir)
    en, zh = _get(client_a, "/lectures/3/", "en"), _get(client_a, "/lectures/3/", "zh-hans")
    assert 'id="text-language"' in en and "in Chinese" in en
    assert 'id="text-language"' not in zh
    assert re.search(r'class="lecture-overview" lang="zh-CN"', en)  # the notes' own words


def test_lecture_without_english_names_shows_its_chinese_ones_marked(
    content_dir: Path, client_a
) -> None:
    _strip_english(content_dir / "lecture-03.md")
    assert not _import(content_dir).errors
    en = _get(client_a, "/lectures/", "en")
    assert f'<span lang="zh-CN">{ZH_TITLE}</span>' in en
    assert '<span lang="zh-CN">单卡编程</span>' in en


def test_rows_imported_before_english_names_take_them_without_a_conflict(
    content_dir: Path,
) -> None:
    _strip_english(content_dir / "lecture-03.md")
    _import(content_dir)
    row = Lecture.objects.get(number=3)
    # The hash as imports stored it before lectures had English names: four fields, no more.
    old = "\n\0".join((row.title, row.module, row.overview_md, row.intro_md))
    Lecture.objects.filter(pk=row.pk).update(header_hash=hashlib.sha256(old.encode()).hexdigest())
    shutil.copy(CONTENT / "lectures" / "lecture-03.md", content_dir / "lecture-03.md")
    report = _import(content_dir)
    assert report.conflicts == []
    assert Lecture.objects.get(number=3).title_en == EN_TITLE


def test_staff_english_title_is_kept_and_reported_unless_forced(content_dir: Path) -> None:
    _import(content_dir)
    row = Lecture.objects.get(number=3)
    row.title_en = "Reduction and Convolution in CUDA"
    lecture_save_staff_edit(lecture=row)
    path = content_dir / "lecture-03.md"
    path.write_text(
        path.read_text(encoding="utf-8").replace("冲突被彻底消除", "冲突被完全消除"),
        encoding="utf-8",
    )
    report = _import(content_dir)
    assert any("lecture 3" in c for c in report.conflicts), report.conflicts
    assert Lecture.objects.get(number=3).title_en == "Reduction and Convolution in CUDA"
    assert not _import(content_dir, force=True).conflicts
    assert Lecture.objects.get(number=3).title_en == EN_TITLE


@pytest.mark.parametrize(
    ("replacement", "message"),
    [("title_en: 5", "needs 'title_en' (str)"), ("title_en: ''", "needs 'title_en' (str)")],
)
def test_bad_english_name_is_reported_by_line_and_imports_nothing(
    content_dir: Path, replacement: str, message: str
) -> None:
    path = content_dir / "lecture-03.md"
    lines = path.read_text(encoding="utf-8").split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith("title_en: "))
    lines[index] = replacement
    path.write_text("\n".join(lines), encoding="utf-8")
    report = _import(content_dir)
    assert report.errors == [f"{path}:{index + 1}: front matter {message}"]
    assert not Lecture.objects.filter(number=3).exists()
