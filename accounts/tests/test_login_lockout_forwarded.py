"""The login lock is per username and client address (pdcsite.security.client_ip), and the address
is the one our proxies saw: a guesser who writes a new X-Forwarded-For on every try is still the
same client, so the lock still falls after AXES_FAILURE_LIMIT wrong passwords.

settings.py says so: "with 0 [proxies] it is REMOTE_ADDR and a client-sent X-Forwarded-For is
ignored"; behind one proxy the client is the last hop, the one nginx appends, not the first.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from conftest import TEST_PASSWORD

LIMIT = 5  # settings.AXES_FAILURE_LIMIT's default


@pytest.fixture(autouse=True)
def _clean_counters() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def _guess_with_new_forwarded_each_time(chain: str) -> list[int]:
    """LIMIT wrong passwords for student_a, each with another X-Forwarded-For (`chain` formats
    the try's number into the header), then the right password."""
    url = reverse("accounts:login")
    codes = []
    for n in range(LIMIT + 1):
        password = TEST_PASSWORD if n == LIMIT else "wrong-guess"
        client = Client(HTTP_X_FORWARDED_FOR=chain.format(n=n + 1))
        codes.append(client.post(url, {"username": "student_a", "password": password}).status_code)
    return codes


@pytest.mark.django_db
def test_a_forged_forwarded_header_is_ignored_without_a_proxy(student_a) -> None:
    assert _guess_with_new_forwarded_each_time("198.51.100.{n}") == [200] * (LIMIT - 1) + [429, 429]


@pytest.mark.django_db
@override_settings(PDC_TRUSTED_PROXY_COUNT=1)
def test_behind_one_proxy_the_hop_it_appended_is_the_client(student_a) -> None:
    # The client sends "198.51.100.n"; nginx appends the address it saw, always 203.0.113.9.
    chain = "198.51.100.{n}, 203.0.113.9"
    assert _guess_with_new_forwarded_each_time(chain) == [200] * (LIMIT - 1) + [429, 429]
