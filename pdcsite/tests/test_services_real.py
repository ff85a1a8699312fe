"""The suite runs on the real services that `make test` starts: PostgreSQL and Redis."""

import pytest
from django.conf import settings
from django.db import connection
from kombu import Connection


@pytest.mark.django_db
def test_database_is_postgresql() -> None:
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        assert cursor.fetchone()[0].startswith("PostgreSQL")


def test_broker_is_redis_and_answers() -> None:
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    with Connection(settings.CELERY_BROKER_URL) as conn:
        conn.ensure_connection(max_retries=3)
        client = conn.default_channel.client
        assert client.ping() is True


def test_celery_app_declares_the_named_queues() -> None:
    from pdcsite.celery import app

    names = {queue.name for queue in app.conf.task_queues}
    assert {"default", "grade-cpu", "grade-gpu-h200"} <= names
    assert app.conf.task_acks_late is True
    assert app.conf.worker_pool == "prefork"
    assert app.conf.task_time_limit > app.conf.task_soft_time_limit > 0
