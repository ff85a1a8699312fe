"""Strict environment parsing: a bad value stops start-up with a message naming the variable.

Small typed helpers in the style of healthchecks' settings: each returns a typed default when the
variable is unset and raises ImproperlyConfigured (naming the variable) when it is set but invalid.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _raw(name: str) -> str | None:
    value = os.environ.get(name)
    if value is None:
        return None
    return value.strip()


def env_str(name: str, default: str) -> str:
    value = _raw(name)
    if value is None:
        return default
    if value == "":
        raise ImproperlyConfigured(f"{name} is set but empty; unset it or give a value")
    return value


def env_bool(name: str, default: bool) -> bool:
    value = _raw(name)
    if value is None:
        return default
    low = value.lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean (use one of 1/0, true/false, yes/no, on/off)"
    )


def env_int(
    name: str, default: int, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    value = _raw(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is below the minimum {minimum}")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name}={number} is above the maximum {maximum}")
    return number


def env_list(name: str, default: list[str]) -> list[str]:
    value = _raw(name)
    if value is None:
        return default
    items = [part.strip() for part in value.split(",")]
    if not value or any(not item for item in items):
        raise ImproperlyConfigured(
            f"{name}={value!r} has an empty entry; use a comma-separated list"
        )
    return items


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = env_str(name, default)
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={value!r} must be one of {', '.join(choices)}")
    return value


def env_origins(name: str, default: list[str]) -> list[str]:
    origins = env_list(name, default)
    for origin in origins:
        parsed = urlparse(origin)
        if (
            parsed.scheme not in ("http", "https")
            or not parsed.netloc
            or parsed.path not in ("", "/")
        ):
            raise ImproperlyConfigured(
                f"{name} entry {origin!r} must be an origin like https://pdc.example.edu"
            )
    return origins


def parse_database_url(name: str, url: str, base_dir: Path) -> dict:
    """Turn DATABASE_URL into a Django DATABASES entry (postgres:// or sqlite:///path)."""
    parsed = urlparse(url)
    if parsed.scheme in ("postgres", "postgresql", "postgresql+psycopg"):
        if not parsed.path.strip("/"):
            raise ImproperlyConfigured(f"{name}={url!r} names no database (…/DBNAME)")
        try:
            port = parsed.port
        except ValueError:
            raise ImproperlyConfigured(f"{name}={url!r} has an invalid port") from None
        options = {k: v[-1] for k, v in parse_qs(parsed.query).items()}
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": unquote(parsed.path.lstrip("/")),
            "USER": unquote(parsed.username or ""),
            "PASSWORD": unquote(parsed.password or ""),
            "HOST": unquote(parsed.hostname or ""),
            "PORT": str(port or ""),
            "OPTIONS": options,
            # Persistent connections: one per worker thread for 60 s saves a TCP+auth round-trip.
            "CONN_MAX_AGE": 60,
            "CONN_HEALTH_CHECKS": True,
        }
    if parsed.scheme == "sqlite":
        path = url[len("sqlite://") :]
        if path in ("", "/"):
            raise ImproperlyConfigured(f"{name}={url!r} names no file (use sqlite:////abs/path.db)")
        # sqlite:///rel/path is relative to the project; sqlite:////abs/path is absolute.
        path = path[1:]
        db_path = Path(path) if path.startswith("/") else base_dir / path
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": db_path,
            # WAL + a busy timeout so the web server and the worker can share the file (5 s).
            "OPTIONS": {
                "timeout": 5,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL;",
            },
        }
    raise ImproperlyConfigured(
        f"{name}={url!r}: unsupported scheme {parsed.scheme!r} (use postgres://… or sqlite:///…)"
    )


def env_broker_url(name: str, default: str) -> str:
    url = env_str(name, default)
    scheme = urlparse(url).scheme
    if scheme not in ("redis", "rediss", "filesystem", "memory", "amqp", "sentinel"):
        raise ImproperlyConfigured(
            f"{name}={url!r}: unsupported broker scheme {scheme!r} (use redis://host:port/db or filesystem://)"
        )
    return url


def env_cache(name: str, default: str) -> dict:
    """CACHES["default"] from a URL: ``locmem://`` (one process only) or ``redis[s]://host:port/db``."""
    url = env_str(name, default)
    parsed = urlparse(url)
    if parsed.scheme == "locmem":
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "pdclab"}
    if parsed.scheme not in ("redis", "rediss"):
        raise ImproperlyConfigured(
            f"{name}={url!r}: unsupported cache scheme {parsed.scheme!r} "
            "(use redis://host:port/db, or locmem:// for a single process)"
        )
    try:
        port = parsed.port
    except ValueError:
        port = -1
    db = parsed.path.lstrip("/")
    if not parsed.hostname or port == -1 or (db and not db.isdigit()):
        raise ImproperlyConfigured(
            f"{name}={url!r}: expected redis://host:port/db with a numeric port and database"
        )
    return {
        "BACKEND": "pdcsite.cache.RedisCache",  # Django's, reusing its client, fail-soft
        "LOCATION": url,
        # Seconds: a hung Redis must cost a page a moment, not hang every web process.
        "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 1.0},
    }


def env_email(name: str, default: str) -> dict[str, object]:
    """E-mail settings from one URL: ``console://`` (print to stdout), ``smtp://user:pw@host:port``
    (plain, STARTTLS upgrade with ``?tls=1``) or ``smtps://…`` (implicit TLS)."""
    url = env_str(name, default)
    parsed = urlparse(url)
    if parsed.scheme == "console":
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend",
            "EMAIL_HOST": "localhost",
            "EMAIL_PORT": 25,
            "EMAIL_HOST_USER": "",
            "EMAIL_HOST_PASSWORD": "",
            "EMAIL_USE_SSL": False,
            "EMAIL_USE_TLS": False,
            "EMAIL_TIMEOUT": 10,
        }
    if parsed.scheme not in ("smtp", "smtps"):
        raise ImproperlyConfigured(
            f"{name}: unsupported scheme {parsed.scheme!r} (use smtp://user:password@host:587?tls=1, "
            "smtps://…:465 or console://)"
        )
    try:
        port = parsed.port
    except ValueError:
        port = -1
    options = {k: v[-1] for k, v in parse_qs(parsed.query).items()}
    if not parsed.hostname or port == -1 or set(options) - {"tls"}:
        raise ImproperlyConfigured(
            f"{name}: expected smtp[s]://[user:password@]host[:port][?tls=1] (the only option is tls)"
        )
    implicit_tls = parsed.scheme == "smtps"
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parsed.hostname,
        "EMAIL_PORT": port or (465 if implicit_tls else 25),
        "EMAIL_HOST_USER": unquote(parsed.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parsed.password or ""),
        "EMAIL_USE_SSL": implicit_tls,
        "EMAIL_USE_TLS": not implicit_tls and options.get("tls", "0") in _TRUE,
        # Seconds: a hung mail server must not hold a web worker for long.
        "EMAIL_TIMEOUT": 10,
    }
