"""Every environment variable that settings read fails loudly, naming itself, on a bad value."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROD_OK = {
    "DJANGO_ENV": "production",
    "SECRET_KEY": "k" * 20 + "-prod-secret-for-tests-" + "x9Y8z7" * 4,
    "ALLOWED_HOSTS": "pdc.example.edu",
    "CSRF_TRUSTED_ORIGINS": "https://pdc.example.edu",
    "DATABASE_URL": "postgres://pdc:pw@db.internal:5432/pdclab",
    "CELERY_BROKER_URL": "redis://redis.internal:6379/0",
}


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(
            (
                "DJANGO_",
                "DATABASE_URL",
                "CELERY_",
                "SECRET_KEY",
                "DEBUG",
                "ALLOWED_HOSTS",
                "CSRF_",
                "PDC_",
                "LOG_LEVEL",
                "CACHE_URL",
            )
        )
    }
    clean["PDC_VAR_DIR"] = str(ROOT / "var" / "settings-test")
    clean.update(env)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120
    )


BAD_VALUES = [
    ("DEBUG", "maybe"),
    ("DEBUG", ""),
    ("DATABASE_URL", "mysql://u@h/db"),
    ("DATABASE_URL", "postgres://u@h:99999999/db"),
    ("DATABASE_URL", "postgres://u@h:5432/"),
    ("DATABASE_URL", "sqlite://"),
    ("CELERY_BROKER_URL", "kafka://broker:9092"),
    ("ALLOWED_HOSTS", "a.example,,b.example"),
    ("CSRF_TRUSTED_ORIGINS", "pdc.example.edu"),
    ("CSRF_TRUSTED_ORIGINS", "https://pdc.example.edu/path"),
    ("DJANGO_ENV", "staging"),
    ("CELERY_TASK_TIME_LIMIT", "ten"),
    ("CELERY_TASK_SOFT_TIME_LIMIT", "5"),
    ("CELERY_VISIBILITY_TIMEOUT", "-1"),
    ("LOG_LEVEL", "LOUD"),
    ("SECRET_KEY", ""),
    ("CACHE_URL", "memcached://cache:11211"),
    ("CACHE_URL", "redis://cache:port/0"),
    ("CACHE_URL", "redis://cache:6379/sessions"),
    ("CACHE_URL", "redis://cache:6379/²"),  # a digit to isdigit(), not to redis-py's int()
    ("PDC_LECTURE_FAST_PATH", "yes please"),
    ("PDC_LECTURE_FAST_PATH", "true"),  # needs a shared cache: CACHE_URL is locmem here
    ("EMAIL_URL", "sendmail://localhost"),
    ("EMAIL_URL", "smtp://mail.example.edu:port"),
    ("EMAIL_URL", "smtp://mail.example.edu:587?starttls=1"),
    ("PASSWORD_RESET_TIMEOUT", "60"),
    ("PDC_GPU_KINDS", "h200,evil<script>"),
    ("PDC_GPU_KINDS", "cpu"),
    ("PDC_SITE_URL", "pdc.example.edu"),
    ("PDC_SITE_URL", "ftp://pdc.example.edu"),
    ("PDC_SITE_URL", "https://pdc.example.edu:port"),
]


PRODUCTION_UNSAFE = [("SECRET_KEY", "short"), ("DEBUG", "true"), ("ALLOWED_HOSTS", None)]

# One interpreter loads the settings once per case: each case starts from the clean environment
# plus its own variables and imports every project module afresh (settings are read at import, and
# gradinglab.worker.config reads its own), so no case sees another's values. One process for all
# 34 cases instead of one each (the file then took 13 s of CPU, not 25).
LOAD_EACH = """
import importlib, json, os, sys
clean = dict(os.environ)
results = []
for env in json.loads(sys.argv[1]):
    os.environ.clear(); os.environ.update(clean); os.environ.update(env)
    for name in [m for m in sys.modules if m.split(".")[0] in ("pdcsite", "gradinglab")]:
        del sys.modules[name]
    try:
        importlib.import_module("pdcsite.settings")
        results.append("OK")
    except Exception as e:
        results.append(f"{type(e).__name__}: {e}")
print(json.dumps(results))
"""


def _bad_env(name: str, value: str) -> dict[str, str]:
    env = {name: value}
    if name == "CELERY_VISIBILITY_TIMEOUT":
        env["CELERY_BROKER_URL"] = "redis://127.0.0.1:6379/0"  # the option is read for Redis only
    return env


def _unsafe_env(name: str, value: str | None) -> dict[str, str]:
    env = dict(PROD_OK)
    if value is None:
        env.pop(name)
    else:
        env[name] = value
    return env


@pytest.fixture(scope="module")
def load_errors() -> dict[tuple[str, str, str | None], str]:
    """(kind, name, value) -> "OK" or the error the settings raised, for every case below."""
    cases = [("bad", n, v) for n, v in BAD_VALUES]
    cases += [("unsafe", n, v) for n, v in PRODUCTION_UNSAFE]
    envs = [_bad_env(n, v) if k == "bad" else _unsafe_env(n, v) for k, n, v in cases]
    result = _run(["-c", LOAD_EACH, json.dumps(envs)], {})
    assert result.returncode == 0, result.stderr[-2000:]
    return dict(zip(cases, json.loads(result.stdout), strict=True))


@pytest.mark.parametrize(("name", "value"), BAD_VALUES)
def test_bad_value_names_the_variable(load_errors, name: str, value: str) -> None:
    error = load_errors[("bad", name, value)]
    assert error.startswith("ImproperlyConfigured: "), error
    assert name in error, error


@pytest.mark.parametrize(("name", "value"), PRODUCTION_UNSAFE)
def test_production_refuses_unsafe_values(load_errors, name: str, value: str | None) -> None:
    error = load_errors[("unsafe", name, value)]
    assert error.startswith("ImproperlyConfigured: "), error
    assert name in error, error


def test_one_interpreter_loads_each_case_afresh() -> None:
    """The cases share a process: a good environment after bad ones must still load, and the
    production case must not pass on values left over from an earlier case."""
    result = _run(
        ["-c", LOAD_EACH, json.dumps([{"DEBUG": "maybe"}, {}, PROD_OK, {"DEBUG": "x"}])], {}
    )
    assert json.loads(result.stdout)[1:3] == ["OK", "OK"], result.stdout + result.stderr[-1000:]
    assert json.loads(result.stdout)[3].startswith("ImproperlyConfigured"), result.stdout


def test_embedded_broker_connects_without_a_warning() -> None:
    # `make run` printed "No hostname was supplied. Reverting to default 'localhost'" whenever the
    # connection to the default filesystem broker was described (the worker's banner, its logs).
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='pdcsite.settings'; django.setup();"
        "from pdcsite.celery import app;"
        "c = app.connection_for_write(); c.ensure_connection(max_retries=1); c.as_uri(); c.release();"
        "print('OK')"
    )
    result = _run(["-W", "default", "-c", code], {})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "OK"
    assert "No hostname" not in result.stderr


def test_no_environment_at_all_gives_embedded_defaults() -> None:
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='pdcsite.settings'; django.setup();"
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_BROKER_URL, s.TIME_ZONE, s.LANGUAGE_CODE, s.DEBUG)"
    )
    result = _run(["-c", code], {})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.sqlite3",
        "filesystem://localhost/",
        "Asia/Shanghai",
        "zh-hans",
        "True",
    ]


def test_check_deploy_is_clean_in_production() -> None:
    # HSTS preload is an opt-in (hard to undo); only its "not set" warning is silenced by default.
    result = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], PROD_OK)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (1 silenced)." in result.stdout
    opted_in = PROD_OK | {"SECURE_HSTS_PRELOAD": "true"}
    result = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], opted_in)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_email_url_gives_smtp_settings(monkeypatch) -> None:
    from pdcsite.env import env_email

    monkeypatch.setenv("EMAIL_URL", "smtp://pdc%40example.edu:s3cr%2Ft@mail.example.edu:587?tls=1")
    smtp = env_email("EMAIL_URL", "console://")
    assert smtp["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (smtp["EMAIL_HOST"], smtp["EMAIL_PORT"]) == ("mail.example.edu", 587)
    assert (smtp["EMAIL_HOST_USER"], smtp["EMAIL_HOST_PASSWORD"]) == ("pdc@example.edu", "s3cr/t")
    assert smtp["EMAIL_USE_TLS"] and not smtp["EMAIL_USE_SSL"]
    monkeypatch.setenv("EMAIL_URL", "smtps://mail.example.edu")
    ssl = env_email("EMAIL_URL", "console://")
    assert ssl["EMAIL_PORT"] == 465 and ssl["EMAIL_USE_SSL"] and not ssl["EMAIL_USE_TLS"]
    monkeypatch.delenv("EMAIL_URL")
    console = env_email("EMAIL_URL", "console://")
    assert console["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"


def test_hsts_preload_is_off_unless_opted_in() -> None:
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='pdcsite.settings'; django.setup();"
        "from django.conf import settings as s; print(s.SECURE_HSTS_PRELOAD, s.SECURE_HSTS_SECONDS)"
    )
    assert _run(["-c", code], PROD_OK).stdout.split() == ["False", "31536000"]
    opted_in = PROD_OK | {"SECURE_HSTS_PRELOAD": "true"}
    assert _run(["-c", code], opted_in).stdout.split() == ["True", "31536000"]
