"""The worker's configuration: API URL with or without /api/v1/, token from env or the dev file."""

from __future__ import annotations

import json

import pytest

from gradinglab.worker.config import ConfigError, config_from_env
from gradinglab.worker.jobs import BadJob, check_payload


@pytest.mark.parametrize(
    "url",
    ["http://web:8000/api/v1/", "http://web:8000/api/v1", "http://web:8000/", "http://web:8000"],
)
def test_api_url_accepts_the_compose_form(monkeypatch, url: str) -> None:
    monkeypatch.setenv("PDC_API_URL", url)
    monkeypatch.setenv("PDC_WORKER_TOKEN", "wrk_x")
    assert config_from_env().api_url == "http://web:8000"


def test_dev_credential_file_is_used_when_no_token_is_set(monkeypatch, tmp_path) -> None:
    monkeypatch.delenv("PDC_WORKER_TOKEN", raising=False)
    monkeypatch.delenv("PDC_API_URL", raising=False)
    monkeypatch.setenv("PDC_VAR_DIR", str(tmp_path))
    with pytest.raises(ConfigError):
        config_from_env()
    (tmp_path / "local-worker.json").write_text(
        json.dumps({"token": "wrk_local", "api_url": "http://127.0.0.1:8123", "kind": "cpu"})
    )
    config = config_from_env()
    assert (config.token, config.api_url, config.kind) == (
        "wrk_local",
        "http://127.0.0.1:8123",
        "cpu",
    )


@pytest.mark.parametrize(
    "payload",
    [
        None,
        {},
        {"submission_id": "1", "job_token": "t", "slug": "s", "backend": "b", "source": "x"},
    ],
)
def test_malformed_job_messages_are_refused(payload) -> None:
    with pytest.raises(BadJob):
        check_payload(payload)


@pytest.mark.django_db
def test_ensure_local_worker_writes_a_working_credential(settings, tmp_path) -> None:
    from django.core.management import call_command

    from gradinglab.models import WorkerNode, token_hash

    settings.VAR_DIR = tmp_path
    call_command("ensure_local_worker")
    saved = json.loads((tmp_path / "local-worker.json").read_text())
    assert WorkerNode.objects.get(token_hash=token_hash(saved["token"])).kind == "cpu"
    call_command("ensure_local_worker")  # idempotent: the same credential stays valid
    assert json.loads((tmp_path / "local-worker.json").read_text()) == saved
