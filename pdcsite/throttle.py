"""Fixed-window counters in the shared cache, for what django-axes does not count: wrong API
tokens, password-reset e-mails, nickname checks.

A window starts at the first event and is not restarted by later ones, so a limit lifts on time
(pdcsite/tests/test_throttle_window.py). Django's Redis ``incr`` checks that the key exists, then
INCRs it; a window that ends between the two leaves a key with no expiry (1, or -1 from
``throttle_refund``'s decr), whose count would then never lift: so a count of 1 (re)starts the
window's expiry, and a negative one is deleted (same test file, the race forced). The counter goes up
with ``cache.incr`` (atomic in Redis), so a burst of parallel requests cannot slip past it the way
a get-then-set would. With Redis unreachable the counters read 0 and nothing is throttled
(``pdcsite.cache`` is fail-soft): a cache outage must not lock everyone out.
"""

from __future__ import annotations

from django.core.cache import cache


def _full_key(key: str) -> str:
    return f"pdc:throttle:{key}"


def throttle_reset(key: str) -> None:
    """Forget ``key``'s window (a test that counts from zero; the cache outlives a test's data)."""
    cache.delete(_full_key(key))


def throttle_hit(key: str, *, window_s: int) -> int:
    """Count one event under ``key`` and return how many there were in the current window."""
    full_key = _full_key(key)
    cache.add(full_key, 0, timeout=window_s)
    try:
        count = cache.incr(full_key)
    except ValueError:  # the window ended between add() and incr()
        cache.set(full_key, 1, timeout=window_s)
        return 1
    if count == 1:  # the first event: the key may be one INCR made after the window ended
        cache.touch(full_key, timeout=window_s)
    return count


def throttle_refund(key: str) -> None:
    """Take back one event counted under ``key`` (what it stood for did not happen)."""
    try:
        left = cache.decr(_full_key(key))
    except ValueError:  # the window ended since: nothing left to take back
        return
    if left < 0:  # the window ended between the key check and the DECR, which made the key anew
        cache.delete(_full_key(key))
