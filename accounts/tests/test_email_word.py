"""English pages say "email", as Django's own English does (the password reset form's "Email", the
user's "email address"), never "E-mail": the roster's column read "E-mail" beside the admin's
"Email address", and the reset pages mixed both."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings
from django.core.management import get_commands, load_command_class
from django.utils import translation

ROOT = Path(settings.BASE_DIR)


def _our_english_catalogs() -> list[Path]:
    return [p for p in ROOT.glob("**/locale/en/LC_MESSAGES/*.po") if ".venv" not in p.parts]


def test_no_english_string_says_e_mail() -> None:
    catalogs = _our_english_catalogs()
    assert catalogs
    said = {str(p.relative_to(ROOT)) for p in catalogs if re.search(r"(?i)e-mail", p.read_text())}
    assert not said


def test_the_roster_column_and_the_import_help_say_email() -> None:
    with translation.override("en"):
        assert translation.gettext("邮箱") == "Email"
        assert translation.gettext("邮件已发送") == "Email sent"
    command = load_command_class(get_commands()["import_roster"], "import_roster")
    assert "e-mail" not in command.create_parser("manage.py", "import_roster").format_help()
