"""Course roles as Django groups. One table says what each role may do; `roles_sync` applies it.

TAs review and regrade submissions and override scores but never delete; instructors also manage
grade items and releases. Students get no model permissions: their access goes through the
per-resource `visible_to(user)` checks of each app.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group, Permission
from django.utils.translation import gettext_lazy as _

STUDENT, TA, INSTRUCTOR = "student", "ta", "instructor"
ROLES = (STUDENT, TA, INSTRUCTOR)
ROLE_LABELS = {STUDENT: _("学生"), TA: _("助教"), INSTRUCTOR: _("教师")}


def group_label(name: str) -> str:
    """A group as people read it: a role's group by the role's label (its name is the code that
    role_of checks), any other group by its name."""
    return str(ROLE_LABELS.get(name, name))


def group_labels(user) -> list[str]:
    """The user's groups as people read them (group_label), in name order."""
    return [
        group_label(name) for name in user.groups.order_by("name").values_list("name", flat=True)
    ]


_TA_PERMISSIONS = [
    "gradebook.view_gradeitem",
    "gradebook.view_grade",
    "gradebook.view_gradeevent",
    "gradebook.override_grade",
    "gradebook.change_grade",  # import an exam's scores from CSV into an existing item
    "gradebook.add_extension",  # grant or revoke an extension
    "gradebook.add_excusal",  # excuse or un-excuse
    "gradebook.resolve_regraderequest",  # answer a student's regrade request (an appeal)
    "gradebook.view_category",
    "gradebook.view_gradebooksettings",
    "gradebook.view_extension",
    "gradebook.view_excusal",
    "gradebook.view_regraderequest",
    "gradinglab.view_submission",
    "gradinglab.change_submission",  # comment visible to the student, flag reason
    "gradinglab.rerun_submission",  # re-run: grade a submission again in a sandbox
    "gradinglab.override_submission_score",  # replace one submission's score (audited)
    "gradinglab.flag_submission",
    "flagreview.view_flagresponse",  # the flag review page records verdicts; the admin only lists
    "flagreview.view_flagverdict",
    "gradinglab.view_problem",
    "gradinglab.view_assignment",
    "lectures.view_lecture",
    "lectures.view_section",
    "quizzes.view_quiz",
    "quizzes.view_question",
    "quizzes.view_attempt",
    # TAs draft quizzes (questions, picks, rules, settings); only instructors publish them.
    "quizzes.add_quiz",
    "quizzes.change_quiz",
    "quizzes.add_question",
    "quizzes.change_question",
    "quizzes.view_choice",  # a question's choices are part of it: the admin's inline rows
    "quizzes.add_choice",
    "quizzes.change_choice",
    "quizzes.add_quizquestion",
    "quizzes.change_quizquestion",
    "accounts.view_profile",
    "dashboard.view_announcement",
    "dashboard.add_announcement",
    "dashboard.change_announcement",
    # Similarity: TAs review pairs on the staff pages; the admin shows the rows read-only.
    "similarity.view_similarityrun",
    "similarity.view_similaritypair",
    "similarity.view_similaritydecision",
    "similarity.view_archivedfingerprint",
]

ROLE_PERMISSIONS: dict[str, list[str]] = {
    STUDENT: [],
    TA: _TA_PERMISSIONS,
    INSTRUCTOR: [
        *_TA_PERMISSIONS,
        "gradebook.add_gradeitem",
        "gradebook.change_gradeitem",
        "gradebook.release_grades",
        "gradebook.add_category",
        "gradebook.change_category",
        "gradebook.change_gradebooksettings",
        "gradebook.change_extension",
        "gradebook.change_excusal",
        "gradinglab.add_assignment",
        "gradinglab.change_assignment",
        "gradinglab.rescore_assignment",  # rescore: recompute stored results under a new rule
        "gradinglab.change_problem",
        "lectures.change_lecture",
        "lectures.change_section",
        "quizzes.publish_quiz",
        "accounts.change_profile",
    ],
}


def _permissions_by_label() -> dict[str, Permission]:
    """Every permission the table names that exists now, by "app_label.codename", in one query."""
    labels = {label for labels in ROLE_PERMISSIONS.values() for label in labels}
    codenames = {label.split(".", 1)[1] for label in labels}
    found = Permission.objects.filter(codename__in=codenames).select_related("content_type")
    by_label = {f"{perm.content_type.app_label}.{perm.codename}": perm for perm in found}
    return {label: perm for label, perm in by_label.items() if label in labels}


def roles_sync() -> dict[str, int]:
    """Create the three groups and set their permissions exactly to ROLE_PERMISSIONS.

    Permissions of models that do not exist yet are skipped; post_migrate runs this again once they do.
    About seven queries, whatever the table's length: every new user and every test database runs it.
    """
    permissions = _permissions_by_label()
    counts: dict[str, int] = {}
    for role, labels in ROLE_PERMISSIONS.items():
        group, _created = Group.objects.get_or_create(name=role)
        perms = [permissions[label] for label in labels if label in permissions]
        group.permissions.set(perms)
        counts[role] = len(perms)
    return counts


_ROLE_CACHE_ATTR = "_pdc_role"


def role_of(user: AbstractBaseUser | AnonymousUser) -> str | None:
    """The user's course role; memoised on the user object (one query per request, not per call)."""
    if not user.is_authenticated:
        return None
    if hasattr(user, _ROLE_CACHE_ATTR):
        return getattr(user, _ROLE_CACHE_ATTR)
    names = set(user.groups.values_list("name", flat=True))
    role = next((name for name in (INSTRUCTOR, TA, STUDENT) if name in names), None)
    setattr(user, _ROLE_CACHE_ATTR, role)
    return role


def role_cache_clear(user: AbstractBaseUser) -> None:
    if hasattr(user, _ROLE_CACHE_ATTR):
        delattr(user, _ROLE_CACHE_ATTR)
