"""A category is named in the page's language where the admin names it (breadcrumbs, the change
page's heading, its messages), as the staff gradebook pages name it: a built-in category (quiz,
lab, exam, other) by its translated name, one staff made by its title, which has no English
version. Category.__str__ took the Chinese title on English pages too. The student's page and CSV,
the staff grid's filter and the item page showed a staff-made category's key."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from gradebook.models import Category

pytestmark = pytest.mark.django_db


def _heading(client, category: Category, lang: str) -> str:
    """The change page up to its form: the breadcrumbs and the heading that name the object."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    page = client.get(f"/admin/gradebook/category/{category.pk}/change/").content.decode()
    return page.split("<form")[0]


def test_a_built_in_category_is_named_in_the_pages_language(client_instructor) -> None:
    Category.objects.update_or_create(key="lab", defaults={"title": "实验", "weight": Decimal(50)})
    lab = Category.objects.get(key="lab")
    with translation.override("en"):
        assert str(lab) == "Labs (50.00%)"
    with translation.override("zh-hans"):
        assert str(lab) == "实验 (50.00%)"
    english = _heading(client_instructor, lab, "en")
    assert "Labs (50.00%)" in english and "实验" not in english
    assert "实验 (50.00%)" in _heading(client_instructor, lab, "zh-hans")


def test_a_category_staff_made_keeps_its_title(client_instructor) -> None:
    Category.objects.create(key="project", title="期末项目", weight=Decimal(10))
    project = Category.objects.get(key="project")
    with translation.override("en"):
        assert str(project) == "期末项目 (10.00%)"
    assert "期末项目 (10.00%)" in _heading(client_instructor, project, "en")


def test_the_category_list_names_built_in_ones_in_the_pages_language(client_instructor) -> None:
    """The list's name column showed the stored title, Chinese, on English pages."""
    Category.objects.update_or_create(key="lab", defaults={"title": "实验", "weight": Decimal(50)})
    client_instructor.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client_instructor.get("/admin/gradebook/category/").content.decode()
    cells = re.findall(r'<td class="field-name">([^<]*)</td>', page)
    assert "Labs" in cells and "实验" not in cells, cells


TITLE = "课程项目"


@pytest.fixture
def project_item(make_item):
    Category.objects.update_or_create(key="proj", defaults={"title": TITLE, "weight": 10})
    return make_item("proj:1", category="proj", released=True)


def test_student_page_and_csv_name_the_category_by_its_title(client_a, student_a, project_item):
    page = client_a.get("/grades/").content.decode()
    assert f'<td data-label="类别"><span lang="zh-CN">{TITLE}</span></td>' in page  # the item's row
    csv_text = client_a.get("/grades/mine.csv").content.decode("utf-8")
    assert f"proj:1,proj:1,{TITLE}," in csv_text


def test_staff_grid_filter_and_item_page_name_it_by_its_title(client_ta, project_item):
    grid = client_ta.get("/grades/staff/").content.decode()
    assert f'<option value="proj" lang="zh-CN">{TITLE}</option>' in grid
    with CaptureQueriesContext(connection) as queries:
        item = client_ta.get(f"/grades/staff/items/{project_item.pk}/").content.decode()
    assert f'<dd><span lang="zh-CN">{TITLE}</span></dd>' in item
    # The title comes from the categories the summary already loaded, not a second read.
    reads = [q["sql"] for q in queries.captured_queries if 'FROM "gradebook_category"' in q["sql"]]
    assert len(reads) == 1, reads


def test_built_in_categories_keep_their_names_in_the_page_language(client_ta, make_item):
    make_item("quiz:1")
    client_ta.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    grid = client_ta.get("/grades/staff/").content.decode()
    assert '<option value="quiz">Quizzes</option>' in grid


def test_an_items_kind_is_singular_in_english(client_instructor) -> None:
    """The item kinds shared their msgids with the nav and the category names, so a quiz item's
    kind read "Quizzes" beside "Lab" and "Exam" in the admin's item list."""
    from gradebook.models import GradeItem

    GradeItem.objects.create(key="quiz:kind", title="测验一", kind="quiz", max_points=10)
    with translation.override("en"):
        assert [str(label) for label in GradeItem.Kind.labels] == ["Quiz", "Lab", "Exam", "Other"]
    client_instructor.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client_instructor.get("/admin/gradebook/gradeitem/").content.decode()
    assert re.findall(r'<td class="field-kind">([^<]*)</td>', page) == ["Quiz"]


def test_the_item_list_names_each_items_category(client_instructor, make_item) -> None:
    """The admin's item list showed the category's key ("quiz", "proj") beside its filter's names."""
    Category.objects.update_or_create(key="proj", defaults={"title": TITLE, "weight": 10})
    Category.objects.update_or_create(key="quiz", defaults={"title": "测验", "weight": 30})
    make_item("quiz:1")
    make_item("proj:1", category="proj")
    client_instructor.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    with CaptureQueriesContext(connection) as queries:
        page = client_instructor.get("/admin/gradebook/gradeitem/").content.decode()
    cells = re.findall(r'<td class="field-category_shown">(.*?)</td>', page)
    assert set(cells) == {"Quizzes", f'<span lang="zh-CN">{TITLE}</span>'}, cells
    reads = [q["sql"] for q in queries.captured_queries if 'FROM "gradebook_category"' in q["sql"]]
    assert len(reads) <= 2, "\n".join(reads)  # the filter's names and the list's one query
