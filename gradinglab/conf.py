"""Lab limits, read once from the environment with the project's strict parsers (units in names)."""

from __future__ import annotations

from django.conf import settings

from gradinglab.runner import result as runner_result
from gradinglab.worker.config import HEARTBEAT_INTERVAL_S
from pdcsite.env import env_int

# Bytes. A result body above this is refused (HTTP 400) before it is parsed (test_worker_api.py).
# The runner keeps the body of every document it finishes within its RESULT_MAX_BYTES (result.py),
# so that is the default and the least this may be: a lower limit would refuse, and so lose,
# results the runner considers sendable.
RESULT_MAX_BYTES = env_int(
    "PDC_LAB_RESULT_MAX_BYTES",
    runner_result.RESULT_MAX_BYTES,
    minimum=runner_result.RESULT_MAX_BYTES,
)
# A running job that has not reported for this long is stuck: the outer Celery limit plus a minute.
RUNNING_STUCK_S = env_int(
    "PDC_LAB_RUNNING_STUCK_SECONDS", settings.CELERY_TASK_TIME_LIMIT + 60, minimum=10
)
# A job nobody picked up for this long is re-sent (a lost message; a busy queue is reported, not lost).
QUEUED_STUCK_S = env_int("PDC_LAB_QUEUED_STUCK_SECONDS", 6 * 3600, minimum=10)
# Dispatches per grading round before the reaper gives up with infrastructure_error (no attempt).
MAX_DISPATCHES = env_int("PDC_LAB_MAX_DISPATCHES", 3, minimum=1)
# A worker is shown online while its last heartbeat is younger than this: 3 heartbeat intervals
# by default, so one lost heartbeat does not show it offline.
WORKER_ONLINE_S = env_int("PDC_LAB_WORKER_ONLINE_SECONDS", 3 * HEARTBEAT_INTERVAL_S, minimum=5)
# The reaper runs at most this often when triggered by heartbeats.
REAP_INTERVAL_S = env_int("PDC_LAB_REAP_INTERVAL_SECONDS", 60, minimum=1)
# "Run public tests" (practice runs, never an attempt): their own window, per student and assignment.
PRACTICE_RATE_COUNT = env_int("PDC_LAB_PRACTICE_RATE_COUNT", 20, minimum=1)
PRACTICE_RATE_MINUTES = env_int("PDC_LAB_PRACTICE_RATE_MINUTES", 10, minimum=1)
