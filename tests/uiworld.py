"""A small but complete course for the page-level checks (phone width, one language, axe, the
crawler): imported lectures and question bank, the lab problems, a graded quiz due tomorrow with a
submitted and an open attempt, a lab due next week with an accepted CPU submission, a GPU-timed one
with a TA comment, a wrong answer, a practice run, grades, a regrade request answered and one open,
and an announcement. Built through the apps' own services where they exist."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.utils import timezone

CONTENT = Path(settings.BASE_DIR) / "content"
PASSWORD = "pw-test-12345"


@dataclass
class World:
    student: object
    other: object
    ta: object
    instructor: object
    quiz: object
    assignment: object
    accepted: object  # CPU-path accepted submission
    timed: object  # GPU-timed submission
    open_attempt: object
    submitted_attempt: object
    regrade_open: object
    regrade_done: object
    announcement: object


def _submission(assignment, student, doc: dict, *, minutes_ago: int, **fields):
    import hashlib

    from gradinglab.models import Submission, SubmissionResult
    from gradinglab.services.results import assignment_grade_sync, submission_score
    from gradinglab.tests.labkit import correct_source

    source = correct_source()
    now = timezone.now() - timedelta(minutes=minutes_ago)
    sub = Submission.objects.create(
        assignment=assignment,
        student=student,
        backend="triton",
        source=source,
        sha256=hashlib.sha256(source.encode()).hexdigest(),
        created_at=now,
        finished_at=now + timedelta(seconds=20),
        queue=assignment.queue_name,
        status=doc["status"],
        **fields,
    )
    SubmissionResult.objects.create(submission=sub, round=1, document=doc, received_at=now)
    timing = doc.get("timing") or {}
    sub.score = None if sub.practice else submission_score(sub, doc)
    sub.median_ms = timing.get("median_ms")
    sub.speedup = timing.get("speedup_vs_reference")
    sub.roofline_fraction = timing.get("roofline_fraction")
    sub.device_name = (doc.get("device") or {}).get("name", "")
    sub.save()
    if sub.score is not None:
        assignment_grade_sync(assignment=assignment, student=student)
    return sub


def build_world() -> World:
    from accounts.services import user_create_with_role
    from dashboard.models import Announcement
    from dashboard.services import announcement_save
    from gradebook.models import GradeItem
    from gradebook.services import regrade_request_create, regrade_request_resolve
    from gradinglab.services.problem_sync import assignments_publish_demo, problems_sync
    from gradinglab.tests.labkit import gpu_doc, load_doc, make_assignment
    from lectures.services import content_import
    from quizzes.models import Attempt, Question, Quiz, QuizQuestion
    from quizzes.services import answer_save, attempt_start, attempt_submit

    users = {
        name: user_create_with_role(username=name, password=PASSWORD, role=role, name=label)
        for name, role, label in (
            ("student_a", "student", "张三"),
            ("student_b", "student", "李四"),
            ("ta_wang", "ta", "王助教"),
            ("prof_zhao", "instructor", "赵老师"),
        )
    }
    report = content_import(lectures_dir=CONTENT / "lectures", pages_dir=CONTENT / "course")
    assert not report.errors, report.errors
    from django.core.management import call_command

    call_command("import_quizzes", verbosity=0)
    problems_sync()
    assignments_publish_demo()
    from gradinglab.models import Assignment

    Assignment.objects.filter(problem__slug="vector-add").delete()  # ours below has a due date
    now = timezone.now()

    questions = list(Question.objects.filter(qtype__in=["single", "truefalse"])[:4])
    questions += list(Question.objects.filter(qtype="param")[:1])
    quiz = Quiz.objects.create(
        title="第 3 讲小测",
        slug="ui-quiz",
        kind=Quiz.Kind.GRADED,
        published=True,
        closes_at=now + timedelta(days=1, hours=2),
        time_limit_minutes=30,
        max_attempts=3,
        grade_max_points=Decimal("10"),
        review_correctness_after=True,
        review_points_after=True,
        review_explanation_after=True,
    )
    for order, q in enumerate(questions):
        QuizQuestion.objects.create(quiz=quiz, question=q, order=order)
    student, other = users["student_a"], users["student_b"]
    first = attempt_start(quiz=quiz, student=student)
    q0 = Question.objects.get(pk=first.question_ids[0])
    key = "true" if q0.qtype == "truefalse" else q0.choices.order_by("key").first().key
    answer_save(attempt_id=first.pk, student=student, question_id=q0.pk, data={"value": [key]})
    submitted = attempt_submit(attempt_id=first.pk)
    attempt_start(quiz=quiz, student=other)
    open_attempt = attempt_start(quiz=quiz, student=student)
    assert open_attempt.state == Attempt.State.IN_PROGRESS

    assignment = make_assignment(due_at=now + timedelta(days=7, hours=3), gpu_kind="h100")
    accepted = _submission(assignment, student, load_doc("accepted"), minutes_ago=90)
    wrong = load_doc("accepted")
    wrong["status"], wrong["message"], wrong["gradable"] = (
        "wrong_answer",
        "test odd: mismatch",
        True,
    )
    _submission(assignment, student, wrong, minutes_ago=80)
    timed = _submission(
        assignment,
        student,
        gpu_doc(median_ms=0.4, roofline=0.42),
        minutes_ago=60,
        staff_comment="掩码写得很好；可以试试更大的 BLOCK_SIZE。",
    )
    _submission(assignment, student, load_doc("accepted"), minutes_ago=30, practice=True)
    _submission(assignment, other, gpu_doc(median_ms=0.3, roofline=0.5), minutes_ago=20)
    student.profile.pseudonym = "kernel-fan"
    student.profile.save()

    item = GradeItem.objects.get(key=assignment.grade_item_key)
    done = regrade_request_create(
        student=student, item=item, message="第二个测试应该通过。", ref=f"submission:{accepted.pk}"
    )
    regrade_request_resolve(
        request_id=done.pk, actor=users["ta_wang"], accept=False, response="重新检查过，结果不变。"
    )
    open_request = regrade_request_create(
        student=student, item=item, message="计时似乎偏慢。", ref=f"submission:{timed.pk}"
    )
    announcement = announcement_save(
        announcement=Announcement(
            title="第 5 讲实验已开放",
            body_md="向量加法实验已开放，**下周五**截止。\n\n- 先跑公开测试\n- 再提交",
            starts_at=now - timedelta(hours=1),
            expires_at=now + timedelta(days=3),
        ),
        actor=users["ta_wang"],
    )
    return World(
        student=student,
        other=other,
        ta=users["ta_wang"],
        instructor=users["prof_zhao"],
        quiz=quiz,
        assignment=assignment,
        accepted=accepted,
        timed=timed,
        open_attempt=open_attempt,
        submitted_attempt=submitted,
        regrade_open=open_request,
        regrade_done=done,
        announcement=announcement,
    )
