"""What a regrade request's `ref` may name: a kind registered by the app that owns it.

The gradebook imports neither the lab nor the quizzes (they depend on it), so each of them
registers, in its AppConfig.ready(), a check "does object <id> of this kind belong to this student
and this grade item?". A ref of an unregistered kind, or one that names someone else's object or
another item's, is refused: a student appeals only their own work.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.models import AbstractBaseUser
from django.urls import reverse

from accounts.access import OwnedQuerySet
from gradebook.models import GradeItem
from pdcsite.params import query_id

RefCheck = Callable[[int, AbstractBaseUser, GradeItem], bool]
_CHECKS: dict[str, RefCheck] = {}
REF_MAX = 64  # characters; refs look like "submission:123"


def ref_well_formed(ref: str) -> bool:
    """A ref as the app writes one ("submission:123"): short, letters, digits and ":-_.". Read
    before any query: a ref a student types (a NUL byte) must not reach the database."""
    return len(ref) <= REF_MAX and all(ch.isalnum() or ch in ":-_." for ch in ref)


def ref_split(ref: str) -> tuple[str, int | None]:
    """A ref's kind and row id ("submission:12" -> ("submission", 12)); the id is None where it is
    not one a key can hold (`query_id`: "submission:²" is a digit to isdigit() and a ValueError to
    int())."""
    kind, _sep, raw_id = (ref or "").partition(":")
    return kind, query_id(raw_id)


def ref_kind_register(kind: str, check: RefCheck) -> None:
    _CHECKS[kind] = check


def ref_kind_register_owned(
    kind: str, objects: OwnedQuerySet, item_key: Callable[[Any], str]
) -> None:
    """Register ``kind`` for the rows of ``objects``: object <id> is the student's own work on the
    item when ``objects.owned_by(student)`` (the access module's owner rule) holds it and
    ``item_key(obj)`` is the item's key."""

    def check(pk: int, student: AbstractBaseUser, item: GradeItem) -> bool:
        obj = objects.owned_by(student).filter(pk=pk).first()
        return obj is not None and item_key(obj) == item.key

    ref_kind_register(kind, check)


def regrade_request_url(item_key: str, ref: str) -> str:
    """The gradebook's regrade request form about ``ref``, the student's own work on the item: the
    lab's submission page and the quizzes' review page link to it."""
    query = urlencode({"item": item_key, "ref": ref})
    return f"{reverse('gradebook:regrade_request_create')}?{query}"


def ref_is_own(ref: str, *, student: AbstractBaseUser, item: GradeItem) -> bool:
    """True for an empty ref (a request about the whole item) or the student's own object."""
    if not ref:
        return True
    kind, pk = ref_split(ref)
    check = _CHECKS.get(kind)
    if check is None or pk is None:
        return False
    return check(pk, student, item)
