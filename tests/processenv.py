"""The environment a child site process (gunicorn, a worker, manage.py) starts from: this process's
own without the variables that configure the site, so that the child runs on exactly the settings
its caller adds, never on the test run's database, broker, cache or var folder by accident.

Used by the tests and the benchmarks that start the site as production starts it."""

from __future__ import annotations

import os

# The variables that say which services and state a site uses: its settings module and DJANGO_ENV,
# the database, broker and cache, and the PDC_* options (var folder, worker token, site URL, ...).
SITE_PREFIXES = ("DJANGO_", "DATABASE_URL", "CELERY_", "PDC_", "CACHE_URL")


def environ_without_site() -> dict[str, str]:
    """A copy of os.environ minus every variable named by SITE_PREFIXES."""
    return {k: v for k, v in os.environ.items() if not k.startswith(SITE_PREFIXES)}
