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


class _ReusingClient(RedisCacheClient):
    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        clients: dict[int, Any] = self.__dict__.setdefault("_clients", {})
        client = clients.get(index)
        if client is None:
            client = clients[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client

    def get(self, key: Any, default: Any) -> Any:
        try:
            return super().get(key, default)
        except UNREACHABLE as exc:
            _unreachable("get", exc)
            return default

    def get_many(self, keys: Any) -> dict[Any, Any]:
        try:
            return super().get_many(keys)
        except UNREACHABLE as exc:
            _unreachable("get_many", exc)
            return {}

    def has_key(self, key: Any) -> bool:
        try:
            return super().has_key(key)
        except UNREACHABLE as exc:
            _unreachable("has_key", exc)
            return False

    def add(self, key: Any, value: Any, timeout: Any) -> bool:
        try:
            return super().add(key, value, timeout)
        except UNREACHABLE as exc:
            _unreachable("add", exc)
            return False

    def set(self, key: Any, value: Any, timeout: Any) -> None:
        try:
            super().set(key, value, timeout)
        except UNREACHABLE as exc:
            _unreachable("set", exc)

    def set_many(self, data: Any, timeout: Any) -> list[Any]:
        try:
            return super().set_many(data, timeout)
        except UNREACHABLE as exc:
            _unreachable("set_many", exc)
            return list(data)

    def touch(self, key: Any, timeout: Any) -> bool:
        try:
            return super().touch(key, timeout)
        except UNREACHABLE as exc:
            _unreachable("touch", exc)
            return False

    def delete(self, key: Any) -> bool:
        try:
            return super().delete(key)
        except UNREACHABLE as exc:
            _unreachable("delete", exc)
            return False

    def delete_many(self, keys: Any) -> None:
        try:
            super().delete_many(keys)
        except UNREACHABLE as exc:
            _unreachable("delete_many", exc)


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _ReusingClient
