"""pdcsite/throttle.py's claim: a window starts at the first event and later events do not restart
it, so a limit lifts on time. Checked on the tests' own cache and on the production backend
(pdcsite.cache.RedisCache) against the run's Redis."""

from __future__ import annotations

import time
import uuid

import pytest
from django.conf import settings
from django.test import override_settings

from pdcsite.throttle import throttle_hit, throttle_reset

WINDOW_S = 2  # s: Redis expires whole seconds given to SET EX


def _redis_cache() -> dict:
    return {
        "default": {
            "BACKEND": "pdcsite.cache.RedisCache",
            "LOCATION": settings.CELERY_BROKER_URL,
            "KEY_PREFIX": f"throttle-test-{uuid.uuid4().hex}",
        }
    }


@pytest.mark.parametrize("backend", ["tests' cache", "redis"])
def test_a_later_event_does_not_restart_the_window(backend: str) -> None:
    if backend == "redis" and not settings.CELERY_BROKER_URL.startswith("redis://"):
        pytest.skip("no Redis in this run (make services starts one)")
    caches = _redis_cache() if backend == "redis" else settings.CACHES
    key = f"window-test:{uuid.uuid4().hex}"
    with override_settings(CACHES=caches):
        throttle_reset(key)
        started = time.monotonic()
        assert throttle_hit(key, window_s=WINDOW_S) == 1
        time.sleep(0.6 * WINDOW_S)
        assert throttle_hit(key, window_s=WINDOW_S) == 2  # restarting here would end at 1.6 W
        time.sleep(max(0.0, 1.2 * WINDOW_S - (time.monotonic() - started)))
        # 1.2 windows after the first event: its window is over, whatever came in between.
        assert throttle_hit(key, window_s=WINDOW_S) == 1
        throttle_reset(key)
