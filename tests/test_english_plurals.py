"""An English count agrees with its number: "1 question", "2 questions".

Chinese writes a count the same for one and many ("1 道题", "2 道题"), so a Chinese msgid translated
by one English sentence reads "1 questions" or "1 pts" once the number is 1. A message that puts a
number before a countable noun is a plural entry (ngettext / blocktrans count), unless the number
can never be 1; those are listed below, each with its reason."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

NOUNS = (
    "questions|points|pts|submissions|runs|problems|fingerprints|requests|minutes|attempts|"
    "sections|students|items|days|hours|rows|characters|lines|files|seconds|tests|entries|"
    "choices|pairs|weeks|bytes"
)
# A placeholder (%(n)d, or {n} in a brace-format message), at most one word (an adjective:
# "shared", "archived"), then a plural noun.
COUNTED = re.compile(rf"(?:%\((\w+)\)[sd]|\{{(\w+)\}}) (?:[a-z-]+ )?(?:{NOUNS})\b")

# msgid -> why its number is never 1 (most are limits: the constant and its value).
NEVER_ONE = {
    "只能回应一次，最多 %(n)d 个字。说明你的实现为什么这么快，或者哪里可能出了问题。": "RESPONSE_MAX_CHARS, 2000",
    "只能回应一次，最多 %(n)d 个字。针对助教写的原因说明你的情况。": "RESPONSE_MAX_CHARS, 2000",
    "回应最多 %(n)d 个字。": "RESPONSE_MAX_CHARS, 2000",
    "理由最多 %(n)d 个字。": "REASON_MAX_CHARS, 500",
    "超过 %(max)s 行。": "gradebook.csvio.MAX_IMPORT_ROWS, 5000",
    "超过 %(max)d 行": "accounts.services._MAX_ROSTER_ROWS, 20000",
    "说明超过了 %(max)s 个字符。": "gradebook.services._MESSAGE_MAX, 4000",
    "昵称最多 %(n)d 个字符。": "accounts.services.PSEUDONYM_MAX, 40",
    "%(column)s 超过 %(n)d 个字符": "a roster column's max_length: name, email, section (64)",
    "第 %(line)d 行有单元格超过 %(max)d 个字符。": "csv.field_size_limit(), 131072",
    "满分至少为 %(limit_value)s 分。": "gradebook.models.MAX_POINTS_MIN, 0.01",
    "限时最多 %(limit_value)s 分钟。": "quizzes.models.TIME_LIMIT_MAX_MINUTES, 1440",
    "entries 必须是列表，且最多 %(n)d 条。": "similarity.archive.MAX_ENTRIES, 100000",
    "已读 %(read)s / %(total)s 节": "a lecture's section count; every lecture has many",
    "全部 {n} 个测试通过": "gradinglab.runner.problems.MIN_TESTS, 2",
    "全部 {n} 个测试通过（CPU 路径：只检查正确性）": "gradinglab.runner.problems.MIN_TESTS, 2",
    "已读 %(read)s / %(total)s 节（%(pct)s%%）": "the course's section count",
    "还有 %%(n)s 道题没有作答。": "attempt.js uses it for 2 or more; one has data-unanswered-one",
    "请写明需要复核什么、为什么：至少 %(limit_value)d 个字符（现在 %(show_value)d 个）。": (
        "gradebook.services.REGRADE_MESSAGE_MIN, 5"
    ),
    "文本有 %(size)d 个字符，单次渲染最多 %(limit)d 个字符；请缩短或拆分。": (
        "said only past lectures.rendering.MAX_SOURCE_CHARS, 30000"
    ),
    "这一行超过 %(max)d 个字符；请拆成几行再提交": "gradinglab.precheck.MAX_LINE_CHARS, 2000",
    "没有提交 %(name)s：%(backend)s 后端只接受 %(suffix)s 文件；编辑器中的代码已保留。": (
        "not a count: the suffix is a file type (.py, .cu)"
    ),
}


def _entries(po: Path) -> list[dict[str, str]]:
    """The po file's live entries, each as {msgid, msgid_plural, msgstr}, lines unwrapped."""
    text = subprocess.run(
        [shutil.which("msgattrib") or "msgattrib", "--no-wrap", "--no-obsolete", str(po)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    entries = []
    for block in text.split("\n\n"):
        fields = dict(re.findall(r'^(msgid|msgid_plural|msgstr(?:\[0\])?) "(.*)"$', block, re.M))
        if fields.get("msgid"):
            entries.append(fields)
    return entries


def _catalogs() -> list[Path]:
    return sorted(
        p for p in ROOT.glob("**/locale/en/LC_MESSAGES/django.po") if ".venv" not in p.parts
    )


def test_counted_nouns_are_plural_entries() -> None:
    assert len(_catalogs()) >= 6
    single = []
    for po in _catalogs():
        for entry in _entries(po):
            if "msgid_plural" in entry or not COUNTED.search(entry.get("msgstr", "")):
                continue
            msgid = entry["msgid"].replace('\\"', '"')
            if msgid not in NEVER_ONE:
                single.append(f"{po.relative_to(ROOT)}: {msgid} -> {entry['msgstr']}")
    assert not single, "\n".join(single)


# A count hedged with "(s)" ("2 day(s) late") is a plural entry written as one sentence.
HEDGED = re.compile(r"(?:%\((\w+)\)[sd]|\{(\w+)\}) (?:[a-z-]+ )?[a-z]+\(s\)")


def test_no_count_is_hedged_with_s_in_brackets() -> None:
    """ "2 day(s) late, −0% (2 grace day(s) used)" on a student's 我的成绩 page in English."""
    hedged = []
    for po in _catalogs():
        for entry in _entries(po):
            msgid = entry["msgid"].replace('\\"', '"')
            if HEDGED.search(entry.get("msgstr", "")):
                hedged.append(f"{po.relative_to(ROOT)}: {msgid} -> {entry['msgstr']}")
    assert not hedged, "\n".join(hedged)


def test_every_exception_is_still_a_message() -> None:
    """An exception whose message changed or went away is dropped from the list, not kept."""
    msgids = {e["msgid"].replace('\\"', '"') for po in _catalogs() for e in _entries(po)}
    assert sorted(set(NEVER_ONE) - msgids) == []


def test_the_singular_of_a_plural_entry_is_singular() -> None:
    """msgstr[0] is the form for 1: it must not keep the plural noun of msgstr[1]."""
    wrong = []
    for po in _catalogs():
        for entry in _entries(po):
            if "msgid_plural" in entry and COUNTED.search(entry.get("msgstr[0]", "")):
                wrong.append(f"{po.relative_to(ROOT)}: {entry['msgstr[0]']}")
    assert not wrong, "\n".join(wrong)
