import pytest
from django.urls import reverse


@pytest.mark.django_db
def test_chinese_by_default_even_for_an_english_browser(client_a) -> None:
    page = client_a.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()
    assert '<html lang="zh-CN">' in page and "欢迎来到 PDC Lab" in page


@pytest.mark.django_db
def test_the_switch_selects_english_and_back(client_a) -> None:
    client_a.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert "Welcome to PDC Lab" in client_a.get("/").content.decode()
    client_a.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})
    assert "欢迎来到 PDC Lab" in client_a.get("/").content.decode()
