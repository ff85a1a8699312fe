"""pdcsite/throttle.py's claim: a window starts at the first event and later events do not restart
it, so a limit lifts on time. Checked on the tests' own cache and on the production backend
(pdcsite.cache.RedisCache) against the run's Redis."""

from __future__ import annotations

import time
import uuid

import pytest
from django.conf import settings
from django.test import override_settings

from pdcsite.throttle import throttle_hit, throttle_refund, throttle_reset

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


@pytest.mark.parametrize("event", ["hit", "refund"])
def test_a_window_ending_inside_incr_leaves_no_key_without_expiry(event: str, monkeypatch) -> None:
    """Django's Redis incr/decr check that the key exists, then INCRBY it: the window ending in
    between is forced here (the key deleted right before the INCRBY), which made a key with no
    expiry whose count never lifted."""
    if not settings.CELERY_BROKER_URL.startswith("redis://"):
        pytest.skip("no Redis in this run (make services starts one)")
    from django.core.cache.backends.redis import RedisCacheClient

    def raced_incr(self, key, delta):  # type: ignore[no-untyped-def]
        client = self.get_client(key, write=True)
        client.delete(key)
        return client.incr(key, delta)

    key = f"race-test:{uuid.uuid4().hex}"
    with override_settings(CACHES=_redis_cache()):
        from django.core.cache import cache

        throttle_reset(key)
        monkeypatch.setattr(RedisCacheClient, "incr", raced_incr)
        if event == "hit":
            assert throttle_hit(key, window_s=60) == 1
        else:
            throttle_refund(key)
        full = cache.make_and_validate_key(f"pdc:throttle:{key}")
        ttl = cache._cache.get_client(full).ttl(full)  # s; -1: no expiry, -2: no key
        assert ttl == -2 or 0 < ttl <= 60, ttl
        throttle_reset(key)
