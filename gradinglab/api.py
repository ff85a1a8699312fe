"""The REST API under /api/v1/: the worker API (phases, results, heartbeats) and the students' API
(submit, status, source) used by the command-line tool. Views are thin; services do the writes."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.exceptions import NotFound
from rest_framework.fields import ProhibitNullCharactersValidator
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.auth import StudentTokenAuthentication
from gradinglab import conf, dispatch, selectors
from gradinglab.api_schema import (
    AssignmentPointsOut,
    OkOut,
    RateLimitedOut,
    SourceOut,
    StoredOut,
    SubmissionOut,
    refusals,
)
from gradinglab.auth import IsWorker, WorkerTokenAuthentication
from gradinglab.models import Submission
from gradinglab.scoring import point_split
from gradinglab.services import results, submissions, workers

log = logging.getLogger("gradinglab.api")

WORKER_AUTH = [WorkerTokenAuthentication, StudentTokenAuthentication, SessionAuthentication]
STUDENT_AUTH = [StudentTokenAuthentication, SessionAuthentication]


def _endpoint(method: str, auth: list, permission: type):
    """An API view answering `method`, to callers that `auth` identifies and `permission` admits."""

    def wrap(view):
        return api_view([method])(
            authentication_classes(auth)(permission_classes([permission])(view))
        )

    return wrap


def _refuse(request: Request, code: int, message: str) -> Response:
    worker = getattr(request.auth, "name", "?")
    log.warning("worker API refused (%s) from %s: %s", code, worker, message)
    return Response({"detail": message}, status=code)


# A worker report the results service refuses, and what that is over HTTP (logged by _refuse).
_JOB_REFUSALS: tuple[tuple[type[Exception], int], ...] = (
    (results.ResultInvalid, 400),
    (results.WrongWorker, 403),
    (results.JobUnknown, 404),
    (results.JobSuperseded, 409),
)
_JOB_ERRORS = tuple(kind for kind, _code in _JOB_REFUSALS)


def _job_refusal(request: Request, exc: Exception) -> Response:
    code = next(code for kind, code in _JOB_REFUSALS if isinstance(exc, kind))
    return _refuse(request, code, str(exc))


class PhaseIn(serializers.Serializer):
    job_token = serializers.CharField(max_length=200)
    phase = serializers.ChoiceField(choices=results.PHASES)


def _no_open_lab(slug: str) -> Response:
    """404 for a problem with no assignment this user may submit to, in the request's language."""
    return Response({"detail": _("没有可提交的实验：%(slug)s") % {"slug": slug}}, status=404)


@extend_schema(request=PhaseIn, responses={200: OkOut, **refusals(400, 401, 403, 404, 409)})
@_endpoint("POST", WORKER_AUTH, IsWorker)
def worker_phase(request: Request) -> Response:
    data = PhaseIn(data=request.data)
    if not data.is_valid():
        return _refuse(request, 400, str(data.errors))
    try:
        results.job_phase(worker=request.auth, **data.validated_data)
    except _JOB_ERRORS as exc:
        return _job_refusal(request, exc)
    return Response({"ok": True})


class ResultIn(serializers.Serializer):
    job_token = serializers.CharField(max_length=200)
    # An object; its shape is checked against the result schema by results.result_store.
    document = serializers.DictField()


class HeartbeatIn(serializers.Serializer):
    info = serializers.DictField(required=False, allow_null=True)


@extend_schema(
    request=ResultIn,
    responses={201: StoredOut, 200: StoredOut, **refusals(400, 401, 403, 404, 409)},
)
@_endpoint("POST", WORKER_AUTH, IsWorker)
def worker_result(request: Request) -> Response:
    if len(request.body) > conf.RESULT_MAX_BYTES:
        return _refuse(request, 400, f"result larger than {conf.RESULT_MAX_BYTES} bytes")
    data = ResultIn(data=request.data)
    if not data.is_valid():
        return _refuse(request, 400, str(data.errors))
    token, document = data.validated_data["job_token"], data.validated_data["document"]
    try:
        stored = results.result_store(worker=request.auth, job_token=token, document=document)
    except _JOB_ERRORS as exc:
        return _job_refusal(request, exc)
    return Response({"stored": stored}, status=201 if stored else 200)


@extend_schema(request=HeartbeatIn, responses={200: OkOut, **refusals(400, 401, 403)})
@_endpoint("POST", WORKER_AUTH, IsWorker)
def worker_heartbeat(request: Request) -> Response:
    data = HeartbeatIn(data=request.data)
    if not data.is_valid():
        return _refuse(request, 400, str(data.errors))
    workers.worker_heartbeat(worker=request.auth, info=data.validated_data.get("info") or {})
    if selectors.reap_due():
        transaction.on_commit(dispatch.send_reap)
    return Response({"ok": True})


# --- students ---------------------------------------------------------------------------------


class SourceField(serializers.CharField):
    """The kernel as sent. Its size (in UTF-8 bytes), emptiness and NUL bytes are the submission
    service's checks (gradinglab.runner.source), said in the web form's words: DRF's max_length
    counted characters, not bytes, and said so in its own words; its blank refusal was another
    wording, and its Chinese NUL refusal says "empty string"."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(trim_whitespace=False, allow_blank=True, **kwargs)
        self.validators = [
            v for v in self.validators if not isinstance(v, ProhibitNullCharactersValidator)
        ]


class SubmitIn(serializers.Serializer):
    problem = serializers.SlugField(max_length=80)
    backend = serializers.ChoiceField(choices=["triton", "cuda"])
    source = SourceField()
    assignment = serializers.IntegerField(required=False)


def submission_json(sub: Submission, *, request: Request | None = None) -> dict:
    return {
        "id": sub.pk,
        "problem": sub.assignment.problem.slug,
        "assignment": sub.assignment_id,
        "backend": sub.backend,
        "status": sub.status,
        "phase": sub.phase,
        "late": sub.late,
        "score": None if (score := results.submission_effective_score(sub)) is None else str(score),
        "max_points": str(sub.assignment.points),
        "counts_as_attempt": sub.counts_as_attempt,
        "queue_position": selectors.queue_position(sub),
        "created_at": sub.created_at.isoformat(),
        "url": f"{settings.PDC_SITE_URL.rstrip('/')}/lab/submissions/{sub.pk}/",
        "result": None if sub.is_pending else sub.result,
        "staff_comment": sub.staff_comment,
    }


@extend_schema(
    request=SubmitIn,
    responses={
        201: SubmissionOut,
        429: OpenApiResponse(RateLimitedOut),
        **refusals(400, 401, 403, 404),
    },
)
@_endpoint("POST", STUDENT_AUTH, IsAuthenticated)
def submission_create(request: Request) -> Response:
    data = SubmitIn(data=request.data)
    if not data.is_valid():
        return Response({"detail": data.errors}, status=400)
    values = data.validated_data
    assignment = selectors.open_assignment_for(
        request.user, values["problem"], values.get("assignment")
    )
    if assignment is None:
        return _no_open_lab(values["problem"])
    try:
        sub = submissions.submission_create(
            student=request.user,
            assignment=assignment,
            backend=values["backend"],
            source=values["source"],
            via="cli",
        )
    except submissions.RateLimited as exc:
        return Response(
            {"detail": str(exc), "next_allowed_at": exc.next_allowed_at.isoformat()}, status=429
        )
    except submissions.SubmissionError as exc:
        return Response({"detail": str(exc)}, status=400)
    return Response(submission_json(sub), status=status.HTTP_201_CREATED)


@extend_schema(responses={200: SubmissionOut, **refusals(401, 403, 404)})
@_endpoint("GET", STUDENT_AUTH, IsAuthenticated)
def submission_detail(request: Request, pk: int) -> Response:
    return Response(submission_json(_visible_submission(request, pk)))


def _visible_submission(request: Request, pk: int) -> Submission:
    """One of the caller's submissions (or one staff may see), else a 404 in the caller's
    language (Django's own says "No Submission matches the given query." in English)."""
    found = (
        Submission.objects.visible_to(request.user)
        .select_related("assignment__problem")
        .filter(pk=pk)
        .first()
    )
    if found is None:
        raise NotFound(_("没有这个提交，或者你无权查看。"))
    return found


@extend_schema(responses={200: SourceOut, **refusals(401, 403, 404)})
@_endpoint("GET", STUDENT_AUTH, IsAuthenticated)
def submission_source(request: Request, pk: int) -> Response:
    sub = _visible_submission(request, pk)
    return Response(
        {"id": sub.pk, "backend": sub.backend, "sha256": sub.sha256, "source": sub.source}
    )


@extend_schema(responses={200: AssignmentPointsOut, **refusals(401, 403, 404)})
@_endpoint("GET", STUDENT_AUTH, IsAuthenticated)
def assignment_points(request: Request, slug: str) -> Response:
    """What the student's open assignment of a problem is worth, for `cli test` to print the
    same points as the web (the mapping itself is gradinglab.scoring, shared by both)."""
    assignment = selectors.open_assignment_for(request.user, slug)
    if assignment is None:
        return _no_open_lab(slug)
    cpu_only = not assignment.gpu_kind
    split = point_split(assignment.problem.scoring, points=assignment.points, cpu_only=cpu_only)
    return Response(
        {
            "problem": slug,
            "assignment": assignment.pk,
            "points": str(assignment.points),
            "cpu_only": cpu_only,
            "correctness_points": str(split.correctness),
            "performance_points": str(split.performance),
        }
    )
