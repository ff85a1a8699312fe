"""OpenAPI description of /api/v1/ (drf-spectacular): the credentials and the response shapes.

The views build their JSON by hand (gradinglab.api.submission_json); the serializers here only
document it, so the schema at /api/schema/ says what a client gets and schemathesis can check it.
"""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


class _AuthorizationHeaderScheme(OpenApiAuthenticationExtension):
    """A token in the Authorization header; the base has no target_class, so it matches no view."""

    description = ""

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": self.description,
        }


class WorkerTokenScheme(_AuthorizationHeaderScheme):
    target_class = "gradinglab.auth.WorkerTokenAuthentication"
    name = "workerToken"
    description = "`Worker wrk_…` — a grading host's credential (manage.py worker_token)"


class StudentTokenScheme(_AuthorizationHeaderScheme):
    target_class = "accounts.auth.StudentTokenAuthentication"
    name = "studentToken"
    description = "`Token pdc_…` — a student's CLI token from the profile page"


class DetailOut(serializers.Serializer):
    detail = serializers.JSONField(help_text="what was refused and why")


class OkOut(serializers.Serializer):
    ok = serializers.BooleanField()


class StoredOut(serializers.Serializer):
    stored = serializers.BooleanField(help_text="false: this round already had its result")


class RateLimitedOut(DetailOut):
    next_allowed_at = serializers.DateTimeField()


class SubmissionOut(serializers.Serializer):
    id = serializers.IntegerField()
    problem = serializers.CharField()
    assignment = serializers.IntegerField()
    backend = serializers.CharField()
    status = serializers.CharField()
    phase = serializers.CharField(allow_blank=True)
    late = serializers.BooleanField()
    score = serializers.CharField(
        allow_null=True,
        help_text="decimal points out of max_points, as a string: what counts (a TA's score for "
        "this submission when one is set)",
    )
    max_points = serializers.CharField()
    counts_as_attempt = serializers.BooleanField()
    queue_position = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    url = serializers.URLField()
    result = serializers.JSONField(
        allow_null=True,
        help_text="the grader's document (docs/result-schema.md); its score block is the "
        "grader's breakdown on its own scale (total of max), before the assignment's points: "
        "the top-level score is what counts",
    )
    staff_comment = serializers.CharField(allow_blank=True)


class SourceOut(serializers.Serializer):
    id = serializers.IntegerField()
    backend = serializers.CharField()
    sha256 = serializers.CharField()
    source = serializers.CharField()


def refusals(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: OpenApiResponse(DetailOut) for code in codes}


class AssignmentPointsOut(serializers.Serializer):
    problem = serializers.CharField()
    assignment = serializers.IntegerField()
    points = serializers.CharField(help_text="the assignment's maximum, decimal as a string")
    cpu_only = serializers.BooleanField(help_text="true: graded on the CPU path (correctness)")
    correctness_points = serializers.CharField()
    performance_points = serializers.CharField()
