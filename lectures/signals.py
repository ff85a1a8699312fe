"""Keep the lecture fast path's stamps honest: every write that changes what a lecture page shows
replaces a stamp (lectures/fastpath.py). Service functions bump too; these receivers catch the
writes that happen elsewhere (the admin, accounts, role changes)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.db.models.signals import m2m_changed, post_delete, post_save

from lectures import fastpath
from lectures.models import Lecture, Section


def _content_changed(sender: Any, **kwargs: Any) -> None:
    fastpath.bump_content()


def _user_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    fastpath.bump_user(instance.pk)


def _session_changed(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if user is not None:
        fastpath.bump_user(user.pk)


def _groups_changed(sender: Any, instance: Any, action: str, reverse: bool, **kwargs: Any) -> None:
    if not action.startswith("post_"):
        return
    if not reverse:  # user.groups.add(...): the instance is the user
        fastpath.bump_user(instance.pk)
        return
    for user_id in kwargs.get("pk_set") or []:  # group.user_set.add(...)
        fastpath.bump_user(user_id)
    if action == "post_clear":  # pk_set is None: every member may have changed
        fastpath.bump_content()


def connect() -> None:
    user_model = get_user_model()
    for model in (Lecture, Section):
        post_save.connect(_content_changed, sender=model, dispatch_uid=f"fast-{model.__name__}-s")
        post_delete.connect(_content_changed, sender=model, dispatch_uid=f"fast-{model.__name__}-d")
    post_save.connect(_user_changed, sender=user_model, dispatch_uid="fast-user-s")
    user_logged_in.connect(_session_changed, dispatch_uid="fast-login")
    user_logged_out.connect(_session_changed, dispatch_uid="fast-logout")
    m2m_changed.connect(
        _groups_changed, sender=user_model.groups.through, dispatch_uid="fast-groups"
    )
