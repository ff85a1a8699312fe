"""docker-compose.yml stays valid (Debian's docker-compose validates it without an engine)."""

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


def _compose_config(*args: str, env: dict[str, str] | None = None) -> str:
    exe = shutil.which("docker-compose")
    if exe is None:
        pytest.fail(
            "docker-compose is missing: `make setup` installs Debian's docker-compose package"
        )
    result = subprocess.run(
        [exe, "-f", "docker-compose.yml", "config", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_compose_config_is_valid() -> None:
    _compose_config("-q")


def test_gpu_worker_has_no_database_credentials() -> None:
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    for name in ("worker-gpu", "worker-cpu"):
        env = services[name]["environment"]
        assert "DATABASE_URL" not in env and not any("POSTGRES" in str(v) for v in env.values())
        assert {"CELERY_BROKER_URL", "PDC_API_URL", "PDC_WORKER_TOKEN"} <= set(env)
    gpu = services["worker-gpu"]["deploy"]["resources"]["reservations"]["devices"][0]
    assert gpu["driver"] == "nvidia" and "gpu" in gpu["capabilities"]
    for name in ("postgres", "redis", "web"):
        assert "healthcheck" in services[name]


def _gunicorn_config(env: dict[str, str]) -> subprocess.CompletedProcess:
    import os
    import sys

    return subprocess.run(
        [str(Path(sys.executable).parent / "gunicorn"), "--print-config", "-c",
         "deploy/gunicorn.conf.py", "pdcsite.wsgi:application"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, env=os.environ | env,
    )  # fmt: skip


def test_web_service_runs_one_gunicorn_worker_per_cpu_unless_told() -> None:
    """Both the image and compose start gunicorn with deploy/gunicorn.conf.py; a worker count in
    PDC_WEB_WORKERS is parsed strictly (a bad value stops the web service, never a silent 1)."""
    import os

    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    assert "gunicorn -c deploy/gunicorn.conf.py" in services["web"]["command"]
    assert '"-c", "deploy/gunicorn.conf.py"' in (ROOT / "Dockerfile").read_text()
    default = _gunicorn_config({})
    assert default.returncode == 0, default.stderr
    workers = f"workers{' ' * 28}= {len(os.sched_getaffinity(0))}"
    assert workers in default.stdout
    assert (
        "workers                            = 3"
        in _gunicorn_config({"PDC_WEB_WORKERS": "3"}).stdout
    )
    bad = _gunicorn_config({"PDC_WEB_WORKERS": "lots"})
    assert bad.returncode != 0 and "PDC_WEB_WORKERS='lots' is not an integer" in bad.stderr


def test_web_services_get_the_trusted_proxy_count_from_env() -> None:
    """Behind deploy/nginx.conf, PDC_TRUSTED_PROXY_COUNT=1 in .env must reach the web container;
    before, compose dropped it and every lockout counted nginx's address for all clients."""
    import os

    for value, expected in (("1", "1"), (None, "0")):
        env = {k: v for k, v in os.environ.items() if k != "PDC_TRUSTED_PROXY_COUNT"}
        if value is not None:
            env["PDC_TRUSTED_PROXY_COUNT"] = value
        services = yaml.safe_load(_compose_config(env=env))["services"]
        for name in ("web", "worker-default"):
            assert str(services[name]["environment"]["PDC_TRUSTED_PROXY_COUNT"]) == expected
