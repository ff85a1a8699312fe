"""CACHE_URL: Redis is the shared cache (sessions, lecture fast path); locmem only for one process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]


def _settings_with(env: dict[str, str]) -> list[str]:
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='pdcsite.settings'; django.setup();"
        "from django.conf import settings as s;"
        "print(s.CACHES['default']['BACKEND'], s.SESSION_ENGINE, s.LECTURE_FAST_PATH)"
    )
    clean = {"PATH": "/usr/bin:/bin", "PDC_VAR_DIR": str(ROOT / "var" / "settings-test"), **env}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr[-800:]
    return result.stdout.split()


def test_redis_cache_url_shares_sessions_and_enables_the_fast_path() -> None:
    assert _settings_with({"CACHE_URL": "redis://cache.internal:6379/1"}) == [
        "pdcsite.cache.RedisCache",
        "django.contrib.sessions.backends.cached_db",
        "True",
    ]


def test_locmem_keeps_sessions_in_the_database() -> None:
    # Several processes with per-process caches would each keep a logged-out session alive.
    assert _settings_with({}) == [
        "django.core.cache.backends.locmem.LocMemCache",
        "django.contrib.sessions.backends.db",
        "False",
    ]


def test_redis_backend_reuses_one_client_and_round_trips() -> None:
    from pdcsite.cache import RedisCache

    # The test Redis of `make test`; not database 5, which the fast-path tests flush (xdist runs
    # them beside this one).
    url = settings.CELERY_BROKER_URL.rsplit("/", 1)[0] + "/4"
    backend = RedisCache(url, {"KEY_PREFIX": f"{settings.DATABASES['default']['NAME']}-cache"})
    assert backend._cache.get_client() is backend._cache.get_client()
    backend.set("k", {"a": [1, 2]}, 30)
    backend.set("n", 7, 30)
    assert backend.get_many(["k", "n", "missing"]) == {"k": {"a": [1, 2]}, "n": 7}
    backend.delete_many(["k", "n"])
    assert backend.get("k") is None


def test_unreachable_redis_misses_and_drops_writes_instead_of_failing(caplog) -> None:
    import pdcsite.cache as pdc_cache
    from pdcsite.cache import RedisCache

    pdc_cache._last_logged = 0.0
    options = {"OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}
    down = RedisCache("redis://127.0.0.1:1/0", options)  # nothing listens on port 1
    assert down.get("k", "default") == "default"
    assert down.get_many(["a", "b"]) == {}
    assert down.add("k", 1) is False and down.has_key("k") is False
    assert down.incr("k") == 0  # a throttle counter reads 0: nobody is locked out by an outage
    down.set("k", 1)
    down.delete("k")
    down.set_many({"a": 1})
    errors = [r for r in caplog.records if r.name == "pdcsite.cache"]
    assert len(errors) == 1 and "cache unreachable" in errors[0].getMessage()  # once a minute
