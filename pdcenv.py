"""Strict environment parsing, Django-free: a bad value stops start-up with a message naming the
variable.

Small typed helpers in the style of healthchecks' settings: each returns a typed default when the
variable is unset and raises EnvError (naming the variable) when it is set but invalid. The web
settings read them through ``pdcsite.env`` (which raises Django's ImproperlyConfigured instead);
the grading worker, which has no Django installed, reads them here (``gradinglab.worker.config``).
"""

from __future__ import annotations

import os
from urllib.parse import ParseResult, urlparse


class EnvError(ValueError):
    """An environment variable is set to a value its parser refuses; the message names it."""


TRUE_WORDS = {"1", "true", "yes", "on"}
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
        raise EnvError(f"{name} is set but empty; unset it or give a value")
    return value


def env_bool(name: str, default: bool) -> bool:
    value = _raw(name)
    if value is None:
        return default
    low = value.lower()
    if low in TRUE_WORDS:
        return True
    if low in _FALSE:
        return False
    raise EnvError(
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
        raise EnvError(f"{name}={value!r} is not an integer") from None
    if minimum is not None and number < minimum:
        raise EnvError(f"{name}={number} is below the minimum {minimum}")
    if maximum is not None and number > maximum:
        raise EnvError(f"{name}={number} is above the maximum {maximum}")
    return number


def env_list(name: str, default: list[str]) -> list[str]:
    value = _raw(name)
    if value is None:
        return default
    items = [part.strip() for part in value.split(",")]
    if not value or any(not item for item in items):
        raise EnvError(f"{name}={value!r} has an empty entry; use a comma-separated list")
    return items


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = env_str(name, default)
    if value not in choices:
        raise EnvError(f"{name}={value!r} must be one of {', '.join(choices)}")
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
            raise EnvError(
                f"{name} entry {origin!r} must be an origin like https://pdc.example.edu"
            )
    return origins


def env_broker_url(name: str, default: str) -> str:
    url = env_str(name, default)
    scheme = urlparse(url).scheme
    if scheme not in ("redis", "rediss", "filesystem", "memory", "amqp", "sentinel"):
        raise EnvError(
            f"{name}={url!r}: unsupported broker scheme {scheme!r} (use redis://host:port/db or filesystem://)"
        )
    return url


def url_port(parsed: ParseResult) -> int | None:
    """The URL's port: None when it names none, -1 when what it names is not a port number."""
    try:
        return parsed.port
    except ValueError:
        return -1


def env_url(name: str, default: str) -> str:
    """An http(s) URL with a host (a site root or an API base), without trailing slash."""
    url = env_str(name, default)
    parsed = urlparse(url)
    if url_port(parsed) == -1:
        raise EnvError(f"{name}={url!r} has an invalid port")
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise EnvError(f"{name}={url!r} must be an http(s) URL like https://pdc.example.edu")
    if parsed.query or parsed.fragment:
        raise EnvError(f"{name}={url!r} must not carry a query or fragment")
    return url.rstrip("/")
