"""Django's Redis cache backend, with two changes.

- One redis.Redis client object per connection pool. Django's backend builds a new one for every
  cache operation; its constructor fills a table of ~160 response callbacks, about 150 µs of
  Python per call, more than the network round trip it wraps. redis.Redis objects are
  thread-safe and their pools reset themselves after a fork, so one per pool and process is safe.
- Fail-soft, like a cache should be: when Redis cannot be reached, reads miss and writes are
  dropped (logged, at most once a minute per process) instead of turning every page into a 500.
  Sessions then come from the database (``cached_db``), lecture pages from Django.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)
UNREACHABLE = (RedisConnectionError, RedisTimeoutError)
LOG_EVERY_S = 60.0  # seconds between two "cache unreachable" log lines of one process
_last_logged = 0.0


def _unreachable(operation: str, exc: Exception) -> None:
    global _last_logged
    now = time.monotonic()
    if now - _last_logged >= LOG_EVERY_S:
        _last_logged = now
        log.error("cache unreachable (%s: %s); serving without it", operation, exc)


def _soft(operation: str, fallback: Any, call: Any, *args: Any) -> Any:
    """``call(*args)``, or ``fallback`` (logged) when Redis cannot be reached."""
    try:
        return call(*args)
    except UNREACHABLE as exc:
        _unreachable(operation, exc)
        return fallback


class _ReusingClient(RedisCacheClient):
    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        clients: dict[int, Any] = self.__dict__.setdefault("_clients", {})
        client = clients.get(index)
        if client is None:
            client = clients[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client

    def get(self, key: Any, default: Any) -> Any:
        return _soft("get", default, super().get, key, default)

    def get_many(self, keys: Any) -> dict[Any, Any]:
        return _soft("get_many", {}, super().get_many, keys)

    def has_key(self, key: Any) -> bool:
        return _soft("has_key", False, super().has_key, key)

    def add(self, key: Any, value: Any, timeout: Any) -> bool:
        return _soft("add", False, super().add, key, value, timeout)

    def set(self, key: Any, value: Any, timeout: Any) -> None:
        _soft("set", None, super().set, key, value, timeout)

    def set_many(self, data: Any, timeout: Any) -> list[Any]:
        return _soft("set_many", list(data), super().set_many, data, timeout)

    def incr(self, key: Any, delta: int) -> int:
        return _soft("incr", 0, super().incr, key, delta)

    def touch(self, key: Any, timeout: Any) -> bool:
        return _soft("touch", False, super().touch, key, timeout)

    def delete(self, key: Any) -> bool:
        return _soft("delete", False, super().delete, key)

    def delete_many(self, keys: Any) -> None:
        _soft("delete_many", None, super().delete_many, keys)


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _ReusingClient
