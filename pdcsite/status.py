"""What the staff status page shows: database, broker, queue depths and grading workers.

Reads only. Each probe catches its own failure, so the page still renders (and says what is down)
when the database or the broker is not reachable.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.db import connection


def database_status() -> dict[str, Any]:
    started = time.perf_counter()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as exc:  # the page reports any failure instead of failing itself
        return {"ok": False, "error": type(exc).__name__}
    return {
        "ok": True,
        "vendor": connection.vendor,
        "ms": round((time.perf_counter() - started) * 1000, 1),
    }


def broker_status() -> dict[str, Any]:
    """Messages waiting in each queue: LLEN on Redis, a file count on the filesystem broker.

    kombu's virtual channel ``_size`` reads the depth without declaring anything; a passive
    declare fails for a queue nobody has bound yet, and a real declare would write on a GET.
    """
    from pdcsite.celery import app

    queues: list[dict[str, Any]] = []
    try:
        with app.connection_for_read() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
            channel = conn.default_channel
            for name in settings.CELERY_TASK_QUEUES_NAMES:
                depth = channel._size(name)
                queues.append({"name": name, "depth": depth})
    except Exception as exc:  # unreachable broker: reported, not raised
        return {"ok": False, "error": type(exc).__name__, "queues": queues}
    return {"ok": True, "transport": app.conf.broker_url.split(":", 1)[0], "queues": queues}


def site_status() -> dict[str, Any]:
    from gradinglab.selectors import workers_status

    database = database_status()
    return {
        "database": database,
        "broker": broker_status(),
        "workers": workers_status() if database["ok"] else [],
    }
