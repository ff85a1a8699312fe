"""English pages name every lecture section in English (the front matter's section_titles_en):
the table of contents and the section headings, each English title marked lang="en" inside the
notes' lang="zh-CN". The text under them stays the notes' Chinese. A bad entry is an import error
at its line; rows imported before sections had English titles take them on the next import
without being taken for a staff edit; a staff edit of an English title is kept unless forced."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings

from lectures.models import Section
from lectures.services import section_save_staff_edit
from lectures.tests.conftest import CONTENT
from lectures.tests.conftest import import_lectures as _import

pytestmark = pytest.mark.django_db

CJK = re.compile(r"[\u4e00-\u9fff]")
ENGLISH_BLOCK = re.compile(r"^section_titles_en:\n(?:  .*\n)+", re.M)


def _get(client, url: str, lang: str) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def _strip_english(path: Path) -> None:
    path.write_text(ENGLISH_BLOCK.sub("", path.read_text(encoding="utf-8")), encoding="utf-8")


def _set_entry(path: Path, number: str, line: str) -> int:
    """Replace the front matter entry of section ``number`` with ``line``; its 1-based line."""
    lines = path.read_text(encoding="utf-8").split("\n")
    index = next(i for i, ln in enumerate(lines) if ln.startswith(f"  '{number}': "))
    lines[index] = line
    path.write_text("\n".join(lines), encoding="utf-8")
    return index + 1


def test_every_section_of_every_lecture_has_an_english_title() -> None:
    assert not _import(CONTENT / "lectures").errors
    titles = list(Section.objects.values_list("number", "title_en"))
    assert len(titles) > 200
    assert all(en for _, en in titles), [n for n, en in titles if not en]
    # English words only: the notes' own terms in Latin script, maths and code as written.
    assert not [(n, en) for n, en in titles if CJK.search(en)]


def test_english_page_names_sections_in_english_and_chinese_page_in_chinese(
    content_dir: Path, client_a
) -> None:
    assert not _import(content_dir).errors
    section = Section.objects.get(number="3.1")
    assert section.title_en and section.title_en_html
    en, zh = _get(client_a, "/lectures/3/", "en"), _get(client_a, "/lectures/3/", "zh-hans")
    english = f'<span lang="en">{section.title_en_html}</span>'
    toc, body = en.split('class="lecture-content"', 1)
    assert f'<a href="#sec-3-1">3.1 {english}</a>' in toc
    assert f'<h2 id="sec-3-1-h">3.1 {english}</h2>' in body
    assert section.title_html not in en  # the Chinese title is not shown beside it
    assert f'<h2 id="sec-3-1-h">3.1 {section.title_html}</h2>' in zh
    assert section.title_en_html not in zh


def test_a_section_without_an_english_title_shows_its_chinese_one(
    content_dir: Path, client_a
) -> None:
    _strip_english(content_dir / "lecture-03.md")
    assert not _import(content_dir).errors
    section = Section.objects.get(number="3.1")
    assert section.title_en == ""
    en = _get(client_a, "/lectures/3/", "en")
    assert f'<h2 id="sec-3-1-h">3.1 {section.title_html}</h2>' in en  # in the zh-CN article


def test_rows_imported_before_english_titles_take_them_without_a_conflict(
    content_dir: Path,
) -> None:
    _strip_english(content_dir / "lecture-03.md")
    _import(content_dir)
    for row in Section.objects.filter(lecture__number=3):
        # The hash as imports stored it before sections had English titles: title and body.
        old = hashlib.sha256(f"{row.title}\n\0{row.body_md}".encode()).hexdigest()
        Section.objects.filter(pk=row.pk).update(import_hash=old)
    shutil.copy(CONTENT / "lectures" / "lecture-03.md", content_dir / "lecture-03.md")
    report = _import(content_dir)
    assert report.conflicts == [] and report.updated
    assert Section.objects.filter(lecture__number=3, title_en="").count() == 0


def test_staff_english_title_is_kept_and_reported_unless_forced(content_dir: Path) -> None:
    _import(content_dir)
    row = Section.objects.get(number="3.1")
    filed = row.title_en
    row.title_en = "Bank Conflicts, Explained by Staff"
    section_save_staff_edit(section=row, user=None)
    assert Section.objects.get(pk=row.pk).title_en_html == "Bank Conflicts, Explained by Staff"
    _set_entry(content_dir / "lecture-03.md", "3.1", "  \"3.1\": 'A New Title from the File'")
    report = _import(content_dir)
    assert any("3.1" in c for c in report.conflicts), report.conflicts
    assert Section.objects.get(pk=row.pk).title_en == "Bank Conflicts, Explained by Staff"
    assert not _import(content_dir, force=True).conflicts
    assert Section.objects.get(pk=row.pk).title_en == "A New Title from the File" != filed


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("  3.1: 'Unquoted'", "section_titles_en: quote the number 3.1"),
        ("  \"3.99\": 'No Such Section'", "section_titles_en: no section 3.99 in this lecture"),
        ("  \"3.1\": ''", "section_titles_en: 3.1 needs a title (text)"),
        ('  "3.1": 7', "section_titles_en: 3.1 needs a title (text)"),
    ],
)
def test_a_bad_english_title_entry_is_reported_by_line_and_imports_nothing(
    content_dir: Path, entry: str, message: str
) -> None:
    path = content_dir / "lecture-03.md"
    line = _set_entry(path, "3.1", entry)
    report = _import(content_dir)
    assert len(report.errors) == 1 and report.errors[0].startswith(f"{path}:{line}: "), report
    assert message in report.errors[0], report.errors
    assert not Section.objects.filter(lecture__number=3).exists()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: re.sub(r"^\"3\.1\": .*\n", "", t, flags=re.M), "no English title for ['3.1']"),
        (lambda t: t + "\"3.99\": 'No Such Section'\n", "no such sections: ['3.99']"),
        (lambda t: t.replace('"3.1":', "3.1:"), "quote these section numbers: [3.1]"),
    ],
)
def test_the_converter_wants_one_english_title_per_section(
    tmp_path: Path, monkeypatch, change, message: str
) -> None:
    """lectures/convert_notes.py writes section_titles_en from content/source's data file: a
    section without an English title, an entry for no section or an unquoted number stops it."""
    from lectures import convert_notes

    data = tmp_path / "section-titles.en.yaml"
    data.write_text(change(convert_notes.SECTION_TITLES_EN_PATH.read_text(encoding="utf-8")))
    monkeypatch.setattr(convert_notes, "SECTION_TITLES_EN_PATH", data)
    with pytest.raises(SystemExit, match=re.escape(message)):
        convert_notes.convert(convert_notes.DEFAULT_NOTES, tmp_path / "out")


def test_search_finds_a_section_by_its_english_title_and_names_it_in_the_pages_language(
    content_dir: Path, client_a
) -> None:
    """ "Two Basic Approaches" is only in 3.1's English title; the notes say 两条基本思路."""
    assert not _import(content_dir).errors
    url = "/lectures/search/?q=two+basic+approaches"
    en, zh = _get(client_a, url, "en"), _get(client_a, url, "zh-hans")
    assert (
        'href="/lectures/3/#sec-3-1" lang="en">3.1 The Reduction Problem and '
        "<mark>Two</mark> <mark>Basic</mark> <mark>Approaches</mark></a>"
    ) in en
    assert 'href="/lectures/3/#sec-3-1" lang="zh-CN">3.1 归约问题与两条基本思路</a>' in zh
