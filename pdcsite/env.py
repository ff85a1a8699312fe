"""Strict environment parsing for the web settings: a bad value stops start-up with a message
naming the variable.

Small typed helpers in the style of healthchecks' settings: each returns a typed default when the
variable is unset and raises ImproperlyConfigured (naming the variable) when it is set but invalid.
The scalar parsers are ``pdcenv``'s (Django-free, shared with the grading worker); the ones here
build Django settings dicts (DATABASES, CACHES, e-mail).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qs, unquote, urlparse

from django.core.exceptions import ImproperlyConfigured

import pdcenv

T = TypeVar("T")


def strict(parse: Callable[..., T]) -> Callable[..., T]:
    """The Django-free parser, raising ImproperlyConfigured (what Django shows at start-up)."""

    @wraps(parse)
    def wrapped(*args: Any, **kwargs: Any) -> T:
        try:
            return parse(*args, **kwargs)
        except pdcenv.EnvError as exc:
            raise ImproperlyConfigured(str(exc)) from None

    return wrapped


env_str = strict(pdcenv.env_str)
env_bool = strict(pdcenv.env_bool)
env_int = strict(pdcenv.env_int)
env_list = strict(pdcenv.env_list)
env_choice = strict(pdcenv.env_choice)
env_origins = strict(pdcenv.env_origins)
env_broker_url = strict(pdcenv.env_broker_url)
env_url = strict(pdcenv.env_url)


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
    port = pdcenv.url_port(parsed)
    db = parsed.path.lstrip("/")
    if not parsed.hostname or port == -1 or (db and not (db.isascii() and db.isdigit())):
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
    port = pdcenv.url_port(parsed)
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
        "EMAIL_USE_TLS": not implicit_tls and options.get("tls", "0") in pdcenv.TRUE_WORDS,
        # Seconds: a hung mail server must not hold a web worker for long.
        "EMAIL_TIMEOUT": 10,
    }
