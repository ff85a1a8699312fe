"""Every reason the system writes into a score's history is said in the reader's language, its
codes by their labels: the similarity decision, the flag verdict, the regrade answer and the
extension (gradebook/reasons.py), on the staff student page, the student's /grades/ and the
item's CSV export; rows stored as English before are read back the same way.

A Chinese staff page showed "similarity #8 ~ #9 (100%): refer; …", "flag verdict on submission #9
round 1: keep; …" and "due 2026-12-22 09:16; 病假 2 天"; a student's /grades/ showed
"助教改分：regrade #1: 已复核…"."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from html import unescape

import pytest
from django.conf import settings
from django.utils import timezone

from flagreview.tests.conftest import rejected  # noqa: F401  (fixture)
from gradebook.models import Grade, GradeEvent, RegradeRequest
from gradebook.reasons import Reason
from gradebook.services import grade_override, grade_record
from gradinglab.tests.labkit import gpu_worker_token  # noqa: F401  (fixture)
from similarity.tests.test_access import pair_world  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


def _in(client, lang: str) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang


def _staff_page(client, student) -> str:
    return unescape(client.get(f"/grades/staff/students/{student.pk}/").content.decode())


def _audit(client, student) -> str:
    return _staff_page(client, student).split('id="audit"', 1)[1].split("</table>", 1)[0]


def _stored_as_parts(action: str) -> bool:
    """Each row of `action` holds its reason as parts, not only as English text."""
    parts = [e.reason_parts for e in GradeEvent.objects.filter(action=action)]
    return bool(parts) and all(parts)


def test_similarity_decision(pair_world, client_ta) -> None:  # noqa: F811
    _assignment, users, a, b, pair = pair_world
    percent = f"{pair.fraction:.0%}"
    note = "两份代码的循环结构一致"
    response = client_ta.post(
        f"/staff/similarity/pairs/{pair.pk}/", {"decision": "refer", "note": note}
    )
    assert response.status_code == 302
    assert _stored_as_parts(GradeEvent.Action.SIMILARITY)

    chinese = _audit(client_ta, users["copy"])
    assert f"相似度 #{a.pk} ~ #{b.pk}（{percent}）：上报；{note}" in chinese
    assert "similarity #" not in chinese and ": refer" not in chinese
    _in(client_ta, "en")
    english = _audit(client_ta, users["orig"])
    assert f"similarity #{a.pk} ~ #{b.pk} ({percent}): Refer; {note}" in english
    assert "相似度" not in english and "上报" not in english


@pytest.mark.parametrize(
    ("sent", "action", "zh", "en"),
    [
        # A kept result is logged as the verdict itself.
        ({"decision": "keep", "reason": "缓存命中"}, GradeEvent.Action.FLAG_KEEP,
         "维持原判；缓存命中", "Keep the result; 缓存命中"),
        # A restored score is said inside the lab's per-submission override (nested parts).
        ({"decision": "restore", "points": "10", "reason": "设备表有误"},
         GradeEvent.Action.SUBMISSION_OVERRIDE, "恢复分数；设备表有误", "Restore the score; 设备表有误"),
    ],
    ids=["keep", "restore"],
)  # fmt: skip
def test_flag_verdicts(rejected, client_ta, student_a, sent, action, zh, en) -> None:  # noqa: F811
    sub = rejected
    response = client_ta.post(f"/flags/submissions/{sub.pk}/verdict/", sent)
    assert response.status_code == 302
    assert _stored_as_parts(action)
    chinese = _audit(client_ta, student_a)
    assert f"提交 #{sub.pk} 第 {sub.round} 轮的处理结论：{zh}" in chinese
    assert "flag verdict" not in chinese and f": {sent['decision']}" not in chinese
    _in(client_ta, "en")
    english = _audit(client_ta, student_a)
    assert f"flag verdict on submission #{sub.pk} round {sub.round}: {en}" in english
    assert "处理结论" not in english


def test_regrade_acceptance_on_every_page_and_the_csv(
    client_a, client_ta, student_a, make_item, post
) -> None:
    item = make_item("lab:3", max_points=100, title="矩阵乘法")
    post(student_a, item, 60)
    client_a.post(
        "/grades/regrades/new/",
        {"item": item.key, "ref": "testref:1", "message": "请复核第 2 个用例的容差"},
    )
    request = RegradeRequest.objects.get()
    answer = client_ta.post(
        f"/grades/regrades/{request.pk}/",
        {"decision": "accept", "points": "75", "response": "已复核，容差应为 1e-3"},
    )
    assert answer.status_code == 302
    zh = f"复核申请 #{request.pk}：已复核，容差应为 1e-3"
    en = f"regrade #{request.pk}: 已复核，容差应为 1e-3"
    csv_url = f"/grades/staff/items/{item.pk}/export.csv"

    staff = _staff_page(client_ta, student_a)
    assert staff.count(zh) == 2 and "regrade #" not in staff  # the grade's row and the change log
    mine = unescape(client_a.get("/grades/").content.decode())
    assert f"助教改分：{zh}" in mine and "regrade #" not in mine
    assert client_a.get("/grades/api/mine").json()["items"][0]["override_reason"] == zh  # its JSON
    assert zh in client_ta.get(csv_url).content.decode()

    _in(client_ta, "en")
    _in(client_a, "en")
    staff = _staff_page(client_ta, student_a)
    assert staff.count(en) == 2 and "复核申请" not in staff
    mine = unescape(client_a.get("/grades/").content.decode())
    assert en in mine and "复核申请" not in mine
    assert client_a.get("/grades/api/mine").json()["items"][0]["override_reason"] == en
    exported = client_ta.get(csv_url).content.decode()
    assert en in exported and "复核申请" not in exported


def test_extension_log_line(client_ta, student_a, make_item, post, past_due) -> None:
    item = make_item("lab:1", max_points=100, due_at=past_due)
    post(student_a, item, 80, submitted_at=past_due + timedelta(hours=5))
    new_due = timezone.localtime(past_due + timedelta(days=1))
    ok = client_ta.post(
        f"/grades/staff/students/{student_a.pk}/extension/",
        {
            "extension-item": item.pk,
            "extension-due_at": new_due.strftime("%Y-%m-%dT%H:%M"),
            "extension-reason": "病假 2 天",
        },
    )
    assert ok.status_code == 302
    assert _stored_as_parts(GradeEvent.Action.EXTENSION)
    when = new_due.strftime("%Y-%m-%d %H:%M")
    chinese = _audit(client_ta, student_a)
    assert f"截止时间延至 {when}；病假 2 天" in chinese and f"due {when}" not in chinese
    _in(client_ta, "en")
    assert f"due {when}; 病假 2 天" in _audit(client_ta, student_a)


def test_automatic_score_under_an_override(client_ta, student_a, ta, make_item, post) -> None:
    """A score posted while an override stands says so in the reader's language, with or without
    a reason of its own (it once appended English to every page)."""
    item = make_item("lab:1", max_points=100)
    post(student_a, item, 60)
    grade_override(student=student_a, item=item, points=90, actor=ta, reason="设备故障")
    post(student_a, item, 65)  # no reason of its own
    grade_record(
        student=student_a,
        item=item,
        points=Decimal(70),
        source="lab",
        reason=Reason("submission_set_by_staff", submission=12),
    )
    assert Grade.objects.get(student=student_a, item=item).points == Decimal(90)
    chinese = _audit(client_ta, student_a)
    assert "人工改分仍有效；自动得分 65.00" in chinese
    assert "提交 #12 的分数由助教设定（人工改分仍有效；自动得分 70.00）" in chinese
    assert "override in force" not in chinese
    _in(client_ta, "en")
    english = _audit(client_ta, student_a)
    assert "override in force; automatic score 65.00" in english
    assert "submission #12 score set by staff (override in force; automatic score 70.00)" in english
    assert "人工改分" not in english


def test_rows_stored_as_english_before_are_read_back(
    client_a, client_ta, student_a, ta, make_item, post
) -> None:
    item = make_item("lab:1", max_points=100)
    post(student_a, item, 60)
    grade = Grade.objects.get(student=student_a, item=item)
    Grade.objects.filter(pk=grade.pk).update(
        override_points=Decimal(70), points=Decimal(70), override_reason="regrade #4: 已复核"
    )
    old = [
        "similarity #8 ~ #9 (100%): refer; 约谈",
        "similarity #8 ~ archive 2025-fall/ab12 (97%): no_issue",
        "flag verdict on submission #9 round 1: keep; 缓存",
        "submission #9: 0 -> 10; flag verdict on submission #9 round 2: restore; 表有误",
        "due 2026-12-22 09:16; 病假 2 天",
        "extended",
        "(override in force; automatic score 65.00)",
        "CSV import, line 4 (override in force; automatic score 70.00)",
    ]
    for reason in old:
        GradeEvent.objects.create(
            grade=grade,
            item=item,
            student=student_a,
            actor=ta,
            action="extension",
            reason=reason,
            at=timezone.now(),
        )
    chinese = _audit(client_ta, student_a)
    for said in [
        "相似度 #8 ~ #9（100%）：上报；约谈",
        "相似度 #8 ~ 归档 2025-fall/ab12（97%）：无问题",
        "提交 #9 第 1 轮的处理结论：维持原判；缓存",
        "提交 #9：0 → 10；提交 #9 第 2 轮的处理结论：恢复分数；表有误",
        "截止时间延至 2026-12-22 09:16；病假 2 天",
        "已延期",
        "人工改分仍有效；自动得分 65.00",
        "CSV 导入，第 4 行（人工改分仍有效；自动得分 70.00）",
    ]:
        assert said in chinese
    assert not any(reason in chinese for reason in old)
    assert "助教改分：复核申请 #4：已复核" in unescape(client_a.get("/grades/").content.decode())
    assert "复核申请 #4：已复核" in _staff_page(client_ta, student_a)
