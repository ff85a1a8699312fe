"""The job message: what the web side puts on the broker and the worker accepts (Django-free).

A job carries only what the worker needs: submission id, problem slug, backend, source and a job
token. The web side builds it with `make_payload` (gradinglab.services.submissions); the worker
checks every message against the same field list on arrival (`check_payload`).
"""

from __future__ import annotations

from typing import Any

GRADE_TASK = "gradinglab.grade_submission"
PAYLOAD_FIELDS = {
    "submission_id": int,
    "job_token": str,
    "slug": str,
    "backend": str,
    "source": str,
}


class BadJob(ValueError):
    """A message that is not a job (never retried: running it again cannot help)."""


def check_payload(payload: Any) -> dict[str, Any]:
    if not isinstance(payload, dict) or set(payload) != set(PAYLOAD_FIELDS):
        raise BadJob(f"job message must have exactly the fields {sorted(PAYLOAD_FIELDS)}")
    for key, kind in PAYLOAD_FIELDS.items():
        if not isinstance(payload[key], kind):
            raise BadJob(f"job field {key!r} must be {kind.__name__}")
    return payload


def make_payload(
    *, submission_id: int, job_token: str, slug: str, backend: str, source: str
) -> dict[str, Any]:
    """The job message of one grading round, checked as the worker will check it."""
    return check_payload(
        {
            "submission_id": submission_id,
            "job_token": job_token,
            "slug": slug,
            "backend": backend,
            "source": source,
        }
    )
