"""The one place the web side puts a grading job on the broker.

The database is the record of every job; the broker only carries it. A job that cannot be sent
(broker down) or that the broker loses (Redis restarted without persistence) is sent again by the
reaper (gradinglab.services.reaper), so neither loses a submission.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings

from gradinglab.worker.jobs import GRADE_TASK
from gradinglab.worker.queues import DEFAULT_QUEUE

log = logging.getLogger("gradinglab.dispatch")

# A key the reaper keeps in the broker's Redis: when it is gone, Redis lost its data (a restart
# without persistence) and with it every queued message.
_BROKER_MARK = "pdc:broker-mark"
BROKER_TIMEOUT_S = 2.0  # seconds: the reaper must not hang on a dead broker


def send_job(queue: str, payload: dict[str, Any]) -> None:
    from pdcsite.celery import app

    try:
        app.send_task(GRADE_TASK, kwargs={"payload": payload}, queue=queue)
        if broker_was_reset():  # Redis came back empty: what was queued before is gone
            send_reap(broker_reset=True)
    except Exception:  # broker down: the submission is stored and queued; the reaper re-sends it
        log.exception("could not send job of submission %s to %s", payload["submission_id"], queue)


def broker_was_reset() -> bool:
    """True when the broker's Redis lost its data since the last call (and marks it again).

    Checked after each job sent and by each reap. Also True the first time ever (no mark yet): the
    queued jobs are sent again, which at worst grades one twice: the job sent again is the one
    whose result is stored; the original was marked superseded, so its result is refused (409)
    whichever arrives first. Other brokers: False.
    """
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")):
        return False
    import redis

    prefix = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("global_keyprefix", "")
    client = redis.Redis.from_url(
        url, socket_timeout=BROKER_TIMEOUT_S, socket_connect_timeout=BROKER_TIMEOUT_S
    )
    try:
        return bool(client.set(f"{prefix}{_BROKER_MARK}", "1", nx=True))
    finally:
        client.close()


def send_reap(*, broker_reset: bool = False) -> None:
    from pdcsite.celery import app

    kwargs = {"broker_reset": True} if broker_reset else {}
    app.send_task("gradinglab.reap_stuck", kwargs=kwargs, queue=DEFAULT_QUEUE)


CHECK_TASK = "gradinglab.check_problem"


def send_problem_check(slug: str) -> None:
    """The publishing check runs real grading jobs for minutes: a task, never the request."""
    from pdcsite.celery import app

    app.send_task(CHECK_TASK, kwargs={"slug": slug}, queue=DEFAULT_QUEUE)
