"""Quiz authoring on the staff pages (issue 14): TAs draft, instructors publish; picked questions
and rules; a preview with seed S is what a student with seed S gets; questions written in the
browser are validated like bank files, never overwritten by import_quizzes, and export to YAML."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest

from quizzes.bank import BankError, load_bank_file
from quizzes.models import Attempt, Question, Quiz
from quizzes.services import attempt_start, bank_import_file, quiz_draw
from quizzes.tests.factories import question_multiple, question_single, quiz_with

pytestmark = pytest.mark.django_db

STAFF = "/quizzes/staff/"


@pytest.fixture
def bank(db) -> list[Question]:
    singles = [question_single(f"au-s{i}") for i in range(4)]
    multiples = [question_multiple(f"au-m{i}") for i in range(5)]  # lecture 2
    return singles + multiples


def _draft(client, slug: str = "quiz-a") -> Quiz:
    response = client.post(
        STAFF,
        {"title": "小测 A", "slug": slug, "late_penalty_percent": "0", "grade_max_points": "10",
         "grading_method": "best"},
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    return Quiz.objects.get(slug=slug)


def test_ta_drafts_but_cannot_publish_and_instructor_publishes(
    client_ta, client_instructor, client_a, bank
) -> None:
    quiz = _draft(client_ta)
    assert not quiz.published and quiz.kind == "graded"
    picked = [q.pk for q in bank[:3]]
    assert client_ta.post(f"{STAFF}{quiz.slug}/pick/", {"questions": picked}).status_code == 302
    rule = {"count": "3", "lecture": "2", "qtype": "multiple", "points": "2"}
    assert client_ta.post(f"{STAFF}{quiz.slug}/rules/", rule).status_code == 302
    assert client_ta.post(f"{STAFF}{quiz.slug}/publish/", {"published": "1"}).status_code == 403
    quiz.refresh_from_db()
    assert not quiz.published
    ta_page = client_ta.get(f"{STAFF}{quiz.slug}/").content.decode()
    assert 'id="publish-toggle"' not in ta_page and 'id="publish-note"' in ta_page
    assert client_a.get(f"{STAFF}{quiz.slug}/").status_code == 403  # students: no staff pages
    assert client_a.get(f"/quizzes/{quiz.slug}/").status_code == 404  # a draft is invisible
    assert (
        client_instructor.post(f"{STAFF}{quiz.slug}/publish/", {"published": "1"}).status_code
        == 302
    )
    quiz.refresh_from_db()
    assert quiz.published
    from gradebook.models import GradeItem

    assert GradeItem.objects.get(key=quiz.gradebook_key).title == "小测 A"


def test_rule_asking_more_than_the_bank_has_is_refused(client_ta, bank) -> None:
    quiz = _draft(client_ta)
    response = client_ta.post(f"{STAFF}{quiz.slug}/rules/", {"count": "6", "lecture": "2",
                                                             "qtype": "multiple", "points": "1"})  # fmt: skip
    assert response.status_code == 400
    assert "只有 5 道" in response.content.decode()
    assert not quiz.rules.exists()


def test_preview_with_a_seed_is_what_the_student_with_that_seed_gets(
    client_instructor, student_a, bank
) -> None:
    quiz = _draft(client_instructor)
    client_instructor.post(f"{STAFF}{quiz.slug}/pick/", {"questions": [q.pk for q in bank[:3]],
                                                         "points": "1.5"})  # fmt: skip
    client_instructor.post(f"{STAFF}{quiz.slug}/rules/", {"count": "3", "lecture": "2",
                                                          "qtype": "multiple", "points": "2"})  # fmt: skip
    client_instructor.post(f"{STAFF}{quiz.slug}/publish/", {"published": "1"})
    quiz.refresh_from_db()
    attempt = attempt_start(quiz=quiz, student=student_a)
    assert len(attempt.question_ids) == 6 and len(set(attempt.question_ids)) == 6
    drawn = Question.objects.filter(pk__in=attempt.question_ids[3:])
    assert {q.qtype for q in drawn} == {"multiple"} and {q.lecture for q in drawn} == {2}
    page = client_instructor.get(
        f"{STAFF}{quiz.slug}/preview/?seed={attempt.seed}"
    ).content.decode()
    order = [page.index(f'data-bank-id="{q.bank_id}"') for q in
             Question.objects.in_bulk(attempt.question_ids).values()]  # fmt: skip
    assert len(order) == 6
    shown = sorted(
        Question.objects.in_bulk(attempt.question_ids).values(),
        key=lambda q: page.index(f'data-bank-id="{q.bank_id}"'),
    )
    assert [q.pk for q in shown] == attempt.question_ids
    assert "共 10.5 分" in page  # 3 × 1.5 + 3 × 2
    assert quiz_draw(quiz, attempt.seed).question_ids == attempt.question_ids


def test_points_per_question_count_in_the_score(client_instructor, student_a, bank) -> None:
    from quizzes.services import answer_save, attempt_submit

    quiz = _draft(client_instructor)
    client_instructor.post(f"{STAFF}{quiz.slug}/pick/", {"questions": [bank[0].pk]})
    client_instructor.post(f"{STAFF}{quiz.slug}/points/", {"question": bank[0].pk, "points": "3"})
    client_instructor.post(f"{STAFF}{quiz.slug}/rules/", {"count": "1", "lecture": "2",
                                                          "points": "1"})  # fmt: skip
    client_instructor.post(f"{STAFF}{quiz.slug}/publish/", {"published": "1"})
    quiz.refresh_from_db()
    attempt = attempt_start(quiz=quiz, student=student_a)
    answer_save(attempt_id=attempt.pk, student=student_a, question_id=bank[0].pk,
                data={"value": [bank[0].choices.get(correct=True).key]})  # fmt: skip
    attempt = attempt_submit(attempt_id=attempt.pk)
    assert (attempt.raw_score, attempt.raw_max) == (Decimal("3.000"), Decimal("4.000"))
    assert attempt.score == Decimal("7.50")  # 3/4 of the quiz's 10 points


QUESTION = {
    "bank_id": "l5-ui01",
    "lecture": "5",
    "section": "sec-5-3",
    "qtype": "single",
    "tag": "understand",
    "stem": "屋脊点左侧的算子受什么限制？",
    "choices": "*带宽\n算力\n延迟",
    "explanation": "屋脊点左侧受带宽限制（§5.3）。",
    "points": "2",
}


def test_question_written_in_the_browser_is_validated_stored_and_exported(
    client_ta, tmp_path: Path
) -> None:
    bad = client_ta.post(f"{STAFF}bank/new/", QUESTION | {"explanation": "没有章节"})
    assert bad.status_code == 400 and "解析必须注明所属章节（§5.3）" in bad.content.decode()
    assert not Question.objects.exists()
    assert client_ta.post(f"{STAFF}bank/new/", QUESTION).status_code == 302
    question = Question.objects.get(bank_id="l5-ui01")
    assert question.origin == "staff" and question.choices.get(correct=True).text == "带宽"

    export = client_ta.get(f"{STAFF}bank/lecture5-staff.yaml")
    assert export.status_code == 200 and "attachment" in export["Content-Disposition"]
    path = tmp_path / "lecture05-staff.yaml"
    path.write_bytes(export.content)
    parsed = load_bank_file(path, anchors=None)  # the export is a valid bank file
    (spec,) = parsed.questions
    assert (spec.id, spec.type, spec.points, spec.tag) == ("l5-ui01", "single", Decimal("2"),
                                                           "understand")  # fmt: skip
    assert bank_import_file(parsed).unchanged == 1  # committing the export changes nothing

    changed = path.read_text(encoding="utf-8").replace("屋脊点左侧的算子", "屋脊点右侧的算子")
    path.write_text(changed, encoding="utf-8")
    with pytest.raises(BankError, match="网页编写的题目"):
        bank_import_file(load_bank_file(path, anchors=None))
    question.refresh_from_db()
    assert question.stem.startswith("屋脊点左侧")  # the import never overwrote it


def test_bank_page_filters_and_renders_like_a_student_sees(client_ta, bank) -> None:
    from quizzes.tests.factories import question_param

    question_param("au-p1", "amdahl_speedup", "p = {p}，n = {n}，加速比？")
    page = client_ta.get(f"{STAFF}bank/?lecture=2&qtype=multiple").content.decode()
    assert page.count('class="quiz-question"') == 5 and "au-s0" not in page
    param = client_ta.get(f"{STAFF}bank/?qtype=param&seed=7").content.decode()
    assert "{p}" not in param and "p = 0." in param  # a sample draw, numbers filled in
    assert client_ta.get(f"{STAFF}bank/?lecture=x").status_code == 200  # bad filter: ignored


def test_attempt_rows_have_points_map(client_instructor, student_a, bank) -> None:
    quiz = _draft(client_instructor)
    client_instructor.post(f"{STAFF}{quiz.slug}/rules/", {"count": "2", "points": "4"})
    client_instructor.post(f"{STAFF}{quiz.slug}/publish/", {"published": "1"})
    quiz.refresh_from_db()
    attempt = attempt_start(quiz=quiz, student=student_a)
    assert set(Attempt.objects.get(pk=attempt.pk).points_map.values()) == {"4.00"}


def test_demo_graded_quiz(db, student_a) -> None:
    from django.core.management import call_command

    for i in range(3):
        Question.objects.filter(pk=question_single(f"d5-s{i}").pk).update(lecture=5)
        Question.objects.filter(pk=question_multiple(f"d5-m{i}").pk).update(lecture=5)
    call_command("publish_demo_quiz")
    quiz = Quiz.objects.get(slug="demo-l5-graded")
    assert quiz.published and quiz.is_graded and quiz.pool.count() == 3 and quiz.rules.count() == 1
    attempt = attempt_start(quiz=quiz, student=student_a)
    assert len(attempt.question_ids) == 6
    call_command("publish_demo_quiz")  # idempotent: kept as it is
    assert Quiz.objects.filter(slug="demo-l5-graded").count() == 1


EDITOR_ACTIONS = ("settings/", "pick/", "points/", "rules/", "rules/1/remove/", "publish/")


@pytest.mark.parametrize("action", EDITOR_ACTIONS)
def test_every_editor_action_asks_for_an_author_before_it_looks_up_the_quiz(
    client_ta, client_a, bank, action
) -> None:
    """One decorator (staff_views.quiz_action) guards every POST of the quiz editor: a student
    gets 403 whether or not the slug exists, staff get 404 for a slug that is not a graded quiz,
    and a GET is refused with 405."""
    quiz = _draft(client_ta)
    Quiz.objects.create(title="练习", slug="practice-x", kind=Quiz.Kind.PRACTICE)
    assert client_a.post(f"{STAFF}{quiz.slug}/{action}").status_code == 403
    assert client_a.post(f"{STAFF}no-such-quiz/{action}").status_code == 403
    assert client_ta.post(f"{STAFF}practice-x/{action}").status_code == 404
    assert client_ta.get(f"{STAFF}{quiz.slug}/{action}").status_code == 405


@pytest.mark.parametrize("section", ["5.3", "sec-５-3"])  # full-width digits never link
def test_a_rule_with_a_malformed_section_says_what_one_looks_like(
    client_ta, bank, section: str
) -> None:
    quiz = _draft(client_ta)
    rule = {"count": "1", "points": "1", "section": section}
    response = client_ta.post(f"{STAFF}{quiz.slug}/rules/", rule)
    assert response.status_code == 400 and "章节锚点形如 sec-5-3" in response.content.decode()
    assert not quiz.rules.exists()


def test_a_rule_with_only_count_and_points_is_stored_with_empty_filters(client_ta, bank) -> None:
    quiz = _draft(client_ta)
    response = client_ta.post(f"{STAFF}{quiz.slug}/rules/", {"count": "2", "points": "1.5"})
    assert response.status_code == 302
    rule = quiz.rules.get()
    assert (rule.count, rule.points, rule.lecture, rule.section, rule.qtype, rule.tag) == (
        2, Decimal("1.50"), None, "", "", ""
    )  # fmt: skip


def test_quiz_editor_repeats_no_id(client_ta) -> None:
    """The rule form and the settings form both have a `lecture` field; labels point at ids."""
    quiz_with([question_single("ids-q")], slug="ids", published=False)  # a draft: both forms
    ids = re.findall(r'\bid="([^"]+)"', client_ta.get("/quizzes/staff/ids/").content.decode())
    assert "id_rule_lecture" in ids and "id_lecture" in ids
    assert sorted(i for i in set(ids) if ids.count(i) > 1) == []


@pytest.mark.parametrize("points", ["9" * 40, "10000", "0", "-1", "abc"])
def test_points_the_column_cannot_hold_are_refused_and_said(
    client_instructor, bank, points: str
) -> None:
    """Points are numeric(6, 2): 40 nines used to pass the form, be stored, and make every later
    read of the pool a server error (SQLite) or the save itself one (PostgreSQL)."""
    quiz = _draft(client_instructor)
    client_instructor.post(f"{STAFF}{quiz.slug}/pick/", {"questions": [bank[0].pk]})
    url = f"{STAFF}{quiz.slug}/"
    ruled = client_instructor.post(f"{url}rules/", {"count": "1", "points": points})
    picked = client_instructor.post(f"{url}pick/", {"questions": [bank[1].pk], "points": points})
    pointed = client_instructor.post(f"{url}points/", {"question": bank[0].pk, "points": points})
    assert (ruled.status_code, picked.status_code, pointed.status_code) == (400, 400, 400)
    assert list(quiz.pool.values_list("question_id", "points")) == [(bank[0].pk, None)]
    assert not quiz.rules.exists()
    assert 'class="errorlist"' in picked.content.decode()  # the bank again, the error at the field
    row = pointed.content.decode()  # the editor again: the typed value in its row, the error under
    assert (
        f'value="{points}"' in row and 'aria-invalid="true"' in row and 'class="errorlist"' in row
    )


def test_each_rows_buttons_name_the_question_or_rule_they_act_on(client_ta, bank) -> None:
    """Each picked question's row has the same Save and Remove buttons, each rule the same
    Delete: a screen reader listing the page's buttons could not tell them apart. Each points
    (aria-describedby) at the bank id, or the rule's text, of its own row."""
    quiz = _draft(client_ta)
    client_ta.post(f"{STAFF}{quiz.slug}/pick/", {"questions": [q.pk for q in bank[:3]]})
    client_ta.post(f"{STAFF}{quiz.slug}/rules/", {"count": "1", "lecture": "2", "points": "1"})
    html = client_ta.get(f"{STAFF}{quiz.slug}/").content.decode()
    targets = dict(re.findall(r'<span[^>]* id="((?:pool|rule)-\d+)">([^<]+)', html))
    described = re.findall(r'<button type="submit"[^>]* aria-describedby="([^"]+)"', html)
    assert len(described) == 3 * 2 + 1  # Save and Remove per question, Delete per rule
    assert set(described) == set(targets)
    assert {targets[f"pool-{q.pk}"] for q in bank[:3]} == {q.bank_id for q in bank[:3]}


def test_a_refused_pick_keeps_the_filters_the_ticks_and_the_points(client_instructor, bank) -> None:
    """A bad points value used to redirect to the unfiltered bank: every tick of a long list and
    the typed points were gone. The bank comes back as it was filtered, ticks and points kept."""
    quiz = _draft(client_instructor)
    lecture = bank[0].lecture
    listed = client_instructor.get(f"/quizzes/staff/bank/?quiz={quiz.slug}&lecture={lecture}")
    assert f'name="lecture" value="{lecture}"' in listed.content.decode()  # carried by the pick
    ticked = [q.pk for q in bank[:2] if q.lecture == lecture] or [bank[0].pk]
    refused = client_instructor.post(
        f"{STAFF}{quiz.slug}/pick/", {"questions": ticked, "points": "100000", "lecture": lecture}
    )
    assert refused.status_code == 400
    page = refused.content.decode()
    for pk in ticked:
        assert f'value="{pk}" form="pick-form" checked' in page
    assert 'value="100000" aria-invalid="true"' in page and 'class="errorlist"' in page
    assert f'<input type="number" name="lecture" value="{lecture}"' in page  # the filter form
    assert not quiz.pool.exists()


@pytest.mark.parametrize("junk", ["99999999999999999999", "²", "abc"])
def test_junk_question_ids_are_form_errors(client_instructor, bank, junk: str) -> None:
    """10**20 made SQLite raise OverflowError in the pool's delete (a 500 on `make run`)."""
    quiz = _draft(client_instructor)
    removed = client_instructor.post(
        f"{STAFF}{quiz.slug}/points/", {"question": junk, "points": "", "remove": "1"}
    )
    assert removed.status_code == 302
    assert "题目：" in client_instructor.get(f"{STAFF}{quiz.slug}/").content.decode()
    picked = client_instructor.post(f"{STAFF}{quiz.slug}/pick/", {"questions": [junk]})
    assert picked.status_code == 400 and 'class="errorlist"' in picked.content.decode()


@pytest.mark.parametrize(
    ("answer", "stored"),
    [("对", True), ("正确", True), ("√", True), ("False", False), ("错", False)],
)
def test_a_true_false_answer_is_read_as_written(client_ta, answer: str, stored: bool) -> None:
    tf = QUESTION | {"qtype": "truefalse", "choices": "", "answer": answer, "bank_id": "l5-tf"}
    assert client_ta.post(f"{STAFF}bank/new/", tf).status_code == 302
    assert Question.objects.get(bank_id="l5-tf").answer_bool is stored


@pytest.mark.parametrize("answer", ["", "也许", "maybe"])
def test_a_true_false_answer_that_is_neither_is_refused_not_stored_as_false(
    client_ta, answer: str
) -> None:
    tf = QUESTION | {"qtype": "truefalse", "choices": "", "answer": answer, "bank_id": "l5-tf"}
    response = client_ta.post(f"{STAFF}bank/new/", tf)
    assert response.status_code == 400 and "判断题的答案请写“对”或“错”" in response.content.decode()
    assert not Question.objects.filter(bank_id="l5-tf").exists()
