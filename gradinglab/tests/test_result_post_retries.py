"""gradinglab/worker/client.py's claim: a result post retries transport errors and 5xx, with a
delay of 1, 2, 4, 8 s between its 5 tries, and never retries a 4xx (the web side said no)."""

from __future__ import annotations

import io
import urllib.error

import pytest

from gradinglab.worker import client as client_module
from gradinglab.worker.client import WorkerApiError, WorkerClient
from gradinglab.worker.config import WorkerConfig

CONFIG = WorkerConfig(api_url="http://web.invalid", token="wrk_x", kind="cpu", name="cpu@test")


class _Response(io.BytesIO):
    def __enter__(self) -> _Response:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _post_answers(monkeypatch: pytest.MonkeyPatch, answers: list) -> tuple[list, list]:
    """urlopen gives each answer in turn (an HTTP code or a transport error); sleeps are kept."""
    calls: list[str] = []
    sleeps: list[float] = []

    def urlopen(request, timeout):
        calls.append(request.full_url)
        answer = answers[len(calls) - 1]
        if answer == 200:
            return _Response(b'{"stored": true}')
        if isinstance(answer, int):
            raise urllib.error.HTTPError(request.full_url, answer, "no", {}, io.BytesIO(b"no"))
        raise answer

    monkeypatch.setattr(client_module.urllib.request, "urlopen", urlopen)
    monkeypatch.setattr(client_module.time, "sleep", sleeps.append)
    return calls, sleeps


def test_transport_errors_and_5xx_are_retried_until_the_web_side_answers(monkeypatch) -> None:
    calls, sleeps = _post_answers(monkeypatch, [urllib.error.URLError("refused"), 502, 503, 200])
    assert WorkerClient(CONFIG).result("job_x", {}) == {"stored": True}
    assert len(calls) == 4 and sleeps == [1.0, 2.0, 4.0]


def test_five_tries_then_the_error(monkeypatch) -> None:
    calls, sleeps = _post_answers(monkeypatch, [500] * 5)
    with pytest.raises(WorkerApiError) as raised:
        WorkerClient(CONFIG).result("job_x", {})
    assert raised.value.status == 500
    assert len(calls) == 5 and sleeps == [1.0, 2.0, 4.0, 8.0]


@pytest.mark.parametrize("code", [400, 403, 404, 409])
def test_a_4xx_is_never_retried(monkeypatch, code: int) -> None:
    calls, sleeps = _post_answers(monkeypatch, [code, 200])
    with pytest.raises(WorkerApiError) as raised:
        WorkerClient(CONFIG).result("job_x", {})
    assert raised.value.status == code
    assert len(calls) == 1 and sleeps == []
