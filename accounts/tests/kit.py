"""What several accounts tests do the same way."""

from __future__ import annotations

from django.urls import reverse

from conftest import TEST_PASSWORD

NEW_PASSWORD = "n3w-Passw0rd-xyz"


def change_password(client, new: str = NEW_PASSWORD):
    """Post the change-password form as the logged-in user (old password: conftest's)."""
    return client.post(
        reverse("accounts:password_change"),
        {"old_password": TEST_PASSWORD, "new_password1": new, "new_password2": new},
    )
