"""Responses and verdicts in the admin: read for staff; a verdict is recorded on the flag review
page (it writes the gradebook's audit), never edited here."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from flagreview.models import FlagResponse, FlagVerdict


class _ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(FlagResponse)
class FlagResponseAdmin(_ReadOnly):
    list_display = ("submission", "round", "student", "created_at")
    search_fields = ("student__username", "text")
    raw_id_fields = ("submission",)


@admin.register(FlagVerdict)
class FlagVerdictAdmin(_ReadOnly):
    list_display = ("submission", "round", "decision", "points", "actor", "at")
    list_filter = ("decision",)
    search_fields = ("submission__student__username", "reason")
    raw_id_fields = ("submission",)
