from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from accounts.models import ApiToken, Profile
from accounts.roles import ROLE_LABELS, role_of


def profile_context(*, user: AbstractBaseUser) -> dict:
    return {
        "profile": Profile.objects.filter(user=user).first(),
        "role": ROLE_LABELS.get(role_of(user) or "", ""),
        "active_tokens": ApiToken.objects.filter(user=user, revoked_at__isnull=True).order_by(
            "-created_at"
        ),
    }


# --- roster (staff) -------------------------------------------------------------------------------


@dataclass(frozen=True)
class RosterPreviewRow:
    row: object  # accounts.services.RosterRow
    status: str  # "new", "changed" or "unchanged"
    status_label: str


def roster_preview(rows: list) -> list[RosterPreviewRow]:
    """What importing these validated rows would do to each person (nothing is written)."""
    from django.contrib.auth import get_user_model

    users = {
        u.username: u
        for u in get_user_model()
        .objects.filter(username__in=[r.student_id for r in rows])
        .select_related("profile")
        .prefetch_related("groups")
    }
    labels = {"new": _("新增"), "changed": _("更新"), "unchanged": _("不变")}
    out = []
    for row in rows:
        user = users.get(row.student_id)
        if user is None:
            status = "new"
        else:
            profile = getattr(user, "profile", None)
            now = (user.email, user.first_name, role_of(user), profile.section if profile else None)
            status = (
                "unchanged" if now == (row.email, row.name, row.role, row.section) else "changed"
            )
        out.append(RosterPreviewRow(row, status, labels[status]))
    return out


def roster_people(*, section: str = "") -> list[AbstractBaseUser]:
    from django.contrib.auth import get_user_model

    people = get_user_model().objects.filter(profile__isnull=False).select_related("profile")
    if section:
        people = people.filter(profile__section=section)
    return list(
        people.prefetch_related("groups").order_by("profile__section", "profile__student_id")
    )


def roster_sections() -> list[str]:
    values = Profile.objects.exclude(section="").values_list("section", flat=True)
    return sorted(set(values))
