from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

from lectures.notes import NOTES_PATH

CONTENT = Path(settings.BASE_DIR) / "content"
NOTES = NOTES_PATH


@pytest.fixture(scope="module")
def imported(django_db_setup, django_db_blocker) -> Iterator[object]:
    """The real course content imported once per module (about 1 s), removed afterwards."""
    from lectures.models import CoursePage, Lecture
    from lectures.services import content_import

    with django_db_blocker.unblock():
        report = content_import(lectures_dir=CONTENT / "lectures", pages_dir=CONTENT / "course")
        assert not report.errors, report.errors
        yield report
        Lecture.objects.all().delete()
        CoursePage.objects.all().delete()


@pytest.fixture
def content_dir(tmp_path: Path) -> Path:
    """Lectures 3 and 4 (real files) in a scratch folder the test may break."""
    lectures = tmp_path / "lectures"
    lectures.mkdir()
    for name in ("lecture-03.md", "lecture-04.md"):
        shutil.copy(CONTENT / "lectures" / name, lectures / name)
    return lectures


def import_lectures(path: Path, force: bool = False):
    """Import the lecture files of one folder, no course pages."""
    from lectures.services import content_import

    return content_import(lectures_dir=path, pages_dir=None, force=force)


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """Cached pages are keyed by row ids and revisions, which a test database can hand out again
    (SQLite reuses ids after deletes); production databases do not, tests start clean."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
