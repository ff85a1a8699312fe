"""Admin views of the similarity data: read-only (runs, pairs and decisions are written by the
services, so the audit trail in the gradebook always matches); archive rows may be deleted."""

from django.contrib import admin
from django.http import HttpRequest

from similarity.models import ArchivedFingerprint, SimilarityDecision, SimilarityPair, SimilarityRun


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(SimilarityRun)
class SimilarityRunAdmin(ReadOnlyAdmin):
    list_display = ("pk", "assignment", "status", "trigger", "created_at", "submissions_compared")
    list_filter = ("status", "trigger")
    exclude = ("common_hashes",)


@admin.register(SimilarityPair)
class SimilarityPairAdmin(ReadOnlyAdmin):
    list_display = ("pk", "run", "rank", "submission_a", "submission_b", "archived", "fraction")
    list_select_related = ("run__assignment__problem", "submission_a__assignment__problem",
                           "submission_a__student", "submission_b__assignment__problem",
                           "submission_b__student", "archived")  # fmt: skip
    raw_id_fields = ("run", "submission_a", "submission_b", "archived")


@admin.register(SimilarityDecision)
class SimilarityDecisionAdmin(ReadOnlyAdmin):
    list_display = ("pk", "pair", "decision", "decided_by", "decided_at")
    list_filter = ("decision",)
    raw_id_fields = ("pair",)


@admin.register(ArchivedFingerprint)
class ArchivedFingerprintAdmin(admin.ModelAdmin):
    list_display = ("term", "problem_slug", "backend", "ref", "imported_at")
    list_filter = ("term", "problem_slug", "backend")
    exclude = ("hashes",)
    readonly_fields = ("term", "problem_slug", "backend", "ref", "imported_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # archives come in through the import (checked), never typed in
