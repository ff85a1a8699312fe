"""The grading host reads its environment strictly (gradinglab.worker.config, through pdcenv's
parsers): a bad value stops it with a message naming the variable, and the broker settings it
shares with the web side are read by one function for both."""

from __future__ import annotations

import subprocess
import sys

import pytest

import pdcenv
from gradinglab.tests.labkit import ROOT
from gradinglab.worker import config
from tests.processenv import environ_without_site

# The worker app as a grading host imports it: Django unimportable (it is not installed there).
_IMPORT_WORKER = (
    "import sys\n"
    "sys.modules['django'] = None\n"
    "from gradinglab.worker.celery import app\n"
    "print(app.conf.broker_transport_options['visibility_timeout'], app.conf.task_time_limit)\n"
)
_SETTINGS_AND_WORKER = (
    "import django, os\n"
    "os.environ['DJANGO_SETTINGS_MODULE'] = 'pdcsite.settings'\n"
    "django.setup()\n"
    "from django.conf import settings as s\n"
    "from gradinglab.worker.celery import app\n"
    "print(s.CELERY_BROKER_TRANSPORT_OPTIONS['visibility_timeout'], s.CELERY_TASK_TIME_LIMIT,\n"
    "      app.conf.broker_transport_options['visibility_timeout'], app.conf.task_time_limit)\n"
)


def _python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = environ_without_site()
    clean["PDC_VAR_DIR"] = str(ROOT / "var" / "settings-test")
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_bad_value_stops_the_worker_naming_the_variable() -> None:
    result = _python(_IMPORT_WORKER, {"CELERY_VISIBILITY_TIMEOUT": "an hour"})
    assert result.returncode != 0
    assert "EnvError: CELERY_VISIBILITY_TIMEOUT='an hour' is not an integer" in result.stderr


def test_the_web_side_and_the_worker_read_the_shared_broker_settings_alike() -> None:
    env = {
        "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
        "CELERY_VISIBILITY_TIMEOUT": "1200",
        "CELERY_TASK_SOFT_TIME_LIMIT": "300",
        "CELERY_TASK_TIME_LIMIT": "360",
    }
    result = _python(_SETTINGS_AND_WORKER, env)
    assert result.returncode == 0, result.stderr[-800:]
    assert result.stdout.split() == ["1200", "360", "1200", "360"]


@pytest.mark.parametrize(
    ("name", "value", "read"),
    [
        ("CELERY_VISIBILITY_TIMEOUT", "-1", config.visibility_timeout_s),
        ("CELERY_VISIBILITY_TIMEOUT", "0", config.visibility_timeout_s),  # below a second
        ("CELERY_TASK_TIME_LIMIT", "ten", config.task_time_limits_s),
        ("CELERY_TASK_TIME_LIMIT", "600", config.task_time_limits_s),  # not above the soft one
        ("CELERY_BROKER_URL", "kafka://broker:9092", config.broker_url),
        ("PDC_WORKER_KIND", "H200", config.worker_kind),
        ("PDC_WORKER_KIND", "", config.worker_kind),
        ("PDC_BROKER_KEYPREFIX", "", config.broker_keyprefix),
        ("PDC_API_URL", "web:8000", config.config_from_env),
        ("PDC_API_URL", "http://web:port/", config.config_from_env),
        ("PDC_WORKER_NAME", " ", config.config_from_env),
    ],
)
def test_bad_values_name_the_variable(monkeypatch, name, value, read) -> None:
    monkeypatch.setenv("PDC_WORKER_TOKEN", "wrk_x")
    monkeypatch.setenv(name, value)
    with pytest.raises(pdcenv.EnvError) as refused:
        read()
    assert name in str(refused.value)


def test_good_values_and_defaults(monkeypatch) -> None:
    for name in ("CELERY_VISIBILITY_TIMEOUT", "PDC_WORKER_KIND", "PDC_WORKER_NAME", "PDC_API_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PDC_WORKER_TOKEN", "wrk_x")
    assert config.visibility_timeout_s() == 3600  # seconds
    assert config.worker_kind() == "cpu"
    monkeypatch.setenv("PDC_WORKER_KIND", "h200")
    monkeypatch.setenv("PDC_API_URL", "https://pdc.example.edu/api/v1/")
    got = config.config_from_env()
    assert (got.kind, got.api_url, got.name.startswith("h200@")) == (
        "h200",
        "https://pdc.example.edu",
        True,
    )


def test_both_celery_apps_grade_through_the_one_register() -> None:
    """The grading host's app and the web side's (make run's worker) run the same task body, and
    the heartbeat hook is connected once however many apps register."""
    import weakref

    from celery import signals

    from gradinglab.worker import tasks
    from gradinglab.worker.celery import app as host
    from gradinglab.worker.jobs import GRADE_TASK
    from pdcsite.celery import app as web

    assert host.tasks[GRADE_TASK].run.__code__ is web.tasks[GRADE_TASK].run.__code__
    tasks.register(host)  # a second registration changes nothing
    receivers = [
        r() if isinstance(r, weakref.ref) else r for _, r in signals.worker_ready.receivers
    ]
    assert [r.__module__ for r in receivers if r is not None].count("gradinglab.worker.tasks") == 1


def test_python_dash_m_gradinglab_worker_is_the_celery_command() -> None:
    code = (
        "import runpy, sys\n"
        "sys.modules['django'] = None\n"
        "sys.argv = ['gradinglab.worker', 'report']\n"
        "runpy.run_module('gradinglab.worker', run_name='__main__', alter_sys=True)\n"
    )
    result = _python(code, {})
    assert result.returncode == 0, result.stderr[-800:]
    assert "software -> celery:" in result.stdout


def test_kind_of_is_queue_fors_inverse() -> None:
    """The status page names a queue by the hardware it grades for (gradinglab.models.queue_label)."""
    from gradinglab.worker import queues

    for kind in ("cpu", "h100", "rtx4090"):
        assert queues.kind_of(queues.queue_for(kind)) == kind
    assert queues.kind_of(queues.DEFAULT_QUEUE) is None
    assert queues.kind_of("grade-gpu-") is None
