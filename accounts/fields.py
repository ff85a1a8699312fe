"""Model fields that point at a person (settings.AUTH_USER_MODEL): one home for each role's field.

Each factory returns exactly the ForeignKey its arguments describe, so a model that switches to one
makes no migration. `on_delete` is always the caller's: whether a row goes with the account
(CASCADE), keeps the account from being deleted (PROTECT) or forgets who it was (SET_NULL) is each model's
decision, and it stays written where the model is.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


def _user_field(
    verbose_name: str | Promise, on_delete, optional: bool, **options
) -> models.ForeignKey:
    # optional: the row may name no one (null), so a form may leave the field empty (blank).
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete,
        null=optional,
        blank=optional,
        verbose_name=verbose_name,
        **options,
    )


def student_field(
    *, on_delete, related_name: str | None = None, optional: bool = False
) -> models.ForeignKey:
    """The student a row belongs to or is about, labelled 学生 on every page and form."""
    return _user_field(_("学生"), on_delete, optional, related_name=related_name)


def staff_field(
    verbose_name: str | Promise, *, on_delete, optional: bool = False, **options
) -> models.ForeignKey:
    """The staff member who acted on a row (decided, granted, resolved, posted, edited, requested),
    labelled by what they did. optional: an automatic change names no one, and SET_NULL needs it.
    options: ForeignKey's own (related_name; editable=False where the service sets the field)."""
    return _user_field(verbose_name, on_delete, optional, **options)
