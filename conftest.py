"""Shared test fixtures: named users for access tests and a real headless Chromium for browser tests."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

# Playwright's sync API runs an event loop in the test thread; Django's ORM refuses to run in a thread
# that has a loop unless told that this is deliberate. Only the test process sets this.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

TEST_PASSWORD = "pw-test-12345"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # This machine has no network beyond loopback; background fetches only produce refused connections.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test starts and ends in the default language (zh-hans). LocaleMiddleware activates the
    request's language in the serving thread and nothing resets it, so one test-client request with
    the English cookie left English active for every later test on that xdist worker (CI saw
    dashboard's Chinese labels come out in English). Only the test database's first setup resets it,
    which is why the leak depends on the order of files on a worker.

    A GPU worker host has no Django (requirements/worker.txt): there the runner's own tests
    (`gradinglab/runner/tests/`, bench/gpu_check.sh) run with this fixture doing nothing."""
    try:
        from django.utils import translation
    except ImportError:
        yield
        return

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True, scope="session")
def _shared_graded_solutions(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """One folder for the whole pytest run, its xdist workers together, where graded_solution
    (gradinglab/runner/testing.py) keeps the documents it graded: each is graded once per run, not
    once per worker. A new run gets a new folder (a changed solution is graded again)."""
    from gradinglab.runner.testing import SHARED_GRADED_ENV

    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "graded-solutions"
    shared.mkdir(exist_ok=True)
    old = os.environ.get(SHARED_GRADED_ENV)
    os.environ[SHARED_GRADED_ENV] = str(shared)
    yield
    if old is None:
        os.environ.pop(SHARED_GRADED_ENV, None)
    else:
        os.environ[SHARED_GRADED_ENV] = old


@pytest.fixture(autouse=True, scope="session")
def _private_var_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Tests write what the site keeps in VAR_DIR (the local worker's credential, uploads) into a
    folder of their own run. A bare `pytest` runs with DJANGO_ENV=development, where sync_problems
    rewrites var/local-worker.json with the test database's token: a `make run` in the same
    checkout then got 401s for every result its worker posted, and submissions stayed queued."""
    try:
        from django.test.utils import override_settings
    except ImportError:  # a GPU worker host has no Django (see _default_language)
        yield
        return
    var = tmp_path_factory.mktemp("var")
    with override_settings(VAR_DIR=var, MEDIA_ROOT=var / "media"):
        yield


def _template_name() -> str:
    """The run's migrated template database: the controller's test database name plus _tpl (an
    xdist worker's name is that name plus _gwN, see the test profile in pdcsite/settings.py)."""
    from django.conf import settings

    name = settings.DATABASES["default"]["TEST"]["NAME"]
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    while worker and name.endswith(f"_{worker}"):  # pytest-django adds the suffix once more
        name = name[: -len(worker) - 1]
    return f"{name}_tpl"


def _clone_source(connection) -> bool:
    """Whether the template database exists (made by the run's first worker that needed one)."""
    with connection._nodb_cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [_template_name()])
        return cursor.fetchone() is not None


@pytest.fixture(scope="session")
def django_db_setup(
    request,
    django_test_environment,
    django_db_blocker,
    django_db_use_migrations,
    django_db_keepdb,
    django_db_createdb,
    django_db_modify_db_settings,
    tmp_path_factory,
) -> Iterator[None]:
    """Each xdist worker's test database, migrated once per run, not once per worker: the first
    worker that needs one migrates its own and copies it as a template; the others copy that
    template (PostgreSQL CREATE DATABASE ... TEMPLATE, well under a second). A migrate on a fresh
    database is about 10 CPU-seconds (Django re-renders the model states of ~260 AlterFields), and
    `make test`'s three workers ran it three times on two cores. Outside xdist, on SQLite, with
    --reuse-db or --no-migrations: pytest-django's own setup, unchanged (the databases its tests
    name, serialized only for a test that asks for serialized rollback, kept under --reuse-db).

    A template is this run's only where the run's own temporary folder says it made one: a run
    killed before its controller dropped its template leaves it behind, and a later run whose
    controller has the same process id (the name's run id) would otherwise copy that old schema."""
    import fcntl

    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases
    from pytest_django.fixtures import _get_databases_for_setup

    aliases, serialized_aliases = _get_databases_for_setup(request.session.items)

    worker = os.environ.get("PYTEST_XDIST_WORKER")
    plain = (
        not worker
        or connection.vendor != "postgresql"
        or not django_db_use_migrations
        or (django_db_keepdb and not django_db_createdb)
    )
    verbosity = request.config.option.verbose
    with django_db_blocker.unblock():
        if plain:
            if not django_db_use_migrations:
                from pytest_django.fixtures import _disable_migrations

                _disable_migrations()
            config = setup_databases(
                verbosity=verbosity,
                interactive=False,
                aliases=aliases,
                serialized_aliases=serialized_aliases,
                keepdb=bool(django_db_keepdb and not django_db_createdb),
            )
        else:
            run_dir = tmp_path_factory.getbasetemp().parent  # the run's, its workers' together
            made = run_dir / "test-db-template.made"
            lock = (run_dir / "test-db-template.lock").open("w")
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                template = _template_name()
                if not (made.exists() and _clone_source(connection)):
                    config = setup_databases(
                        verbosity=verbosity,
                        interactive=False,
                        aliases=aliases,
                        serialized_aliases=serialized_aliases,
                    )
                    connection.close()
                    with connection._nodb_cursor() as cursor:
                        own = connection.settings_dict["NAME"]
                        cursor.execute(f'DROP DATABASE IF EXISTS "{template}"')  # a dead run's
                        cursor.execute(f'CREATE DATABASE "{template}" TEMPLATE "{own}"')
                    made.touch()
                else:
                    old_name = connection.settings_dict["NAME"]
                    own = connection.creation._get_test_db_name()
                    connection.close()
                    with connection._nodb_cursor() as cursor:
                        cursor.execute(f'DROP DATABASE IF EXISTS "{own}"')
                        cursor.execute(f'CREATE DATABASE "{own}" TEMPLATE "{template}"')
                    from django.conf import settings

                    settings.DATABASES["default"]["NAME"] = own
                    connection.settings_dict["NAME"] = own
                    connection.ensure_connection()
                    if "default" in serialized_aliases:  # as setup_databases does
                        connection._test_serialized_contents = (
                            connection.creation.serialize_db_to_string()
                        )
                    config = [(connection, old_name, True)]
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
                lock.close()
    yield
    if not django_db_keepdb:
        with django_db_blocker.unblock():
            try:
                teardown_databases(config, verbosity=verbosity)
            except Exception as exc:
                request.node.warn(
                    pytest.PytestWarning(f"Error when trying to teardown test databases: {exc!r}")
                )


def pytest_sessionfinish(session) -> None:
    """The xdist controller drops the run's template database (see django_db_setup) once every
    worker has finished."""
    if os.environ.get("PYTEST_XDIST_WORKER") or not session.config.pluginmanager.getplugin(
        "dsession"
    ):
        return
    try:
        from django.db import connection
        from pytest_django.plugin import blocking_manager_key
    except ImportError:  # a GPU worker host has no Django (see _default_language)
        return
    if connection.vendor != "postgresql":
        return
    with session.config.stash[blocking_manager_key].unblock():
        with connection._nodb_cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{_template_name()}" WITH (FORCE)')


def _make(username: str, role: str):
    from accounts.services import user_create_with_role

    return user_create_with_role(
        username=username, password=TEST_PASSWORD, role=role, name=username
    )


def _user_fixture(username: str, role: str):
    """A fixture named `username`: that user, with `role`, made fresh in the test database."""

    @pytest.fixture(name=username)
    def user(db):
        return _make(username, role)

    return user


def _client_fixture(name: str, user: str):
    """A fixture `name`: a test client logged in as the user of fixture `user`."""

    @pytest.fixture(name=name)
    def client(request):
        from django.test import Client

        client = Client()
        client.force_login(request.getfixturevalue(user))
        return client

    return client


student_a = _user_fixture("student_a", "student")
student_b = _user_fixture("student_b", "student")
ta = _user_fixture("ta", "ta")
instructor = _user_fixture("instructor", "instructor")
client_a = _client_fixture("client_a", "student_a")
client_b = _client_fixture("client_b", "student_b")
client_ta = _client_fixture("client_ta", "ta")
client_instructor = _client_fixture("client_instructor", "instructor")


@pytest.fixture(scope="session")
def _browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: run `make setup` (installs Debian's chromium)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def browser_page(_browser) -> Iterator[object]:
    context = _browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)  # ms; generous for 2 loaded cores
    page = context.new_page()
    yield page
    context.close()


def browser_login(page, live_server, username: str, password: str = TEST_PASSWORD) -> None:
    """Log in through the real login form."""
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")


def lab_editor_page(browser, live_server, url: str, lang: str, viewport: dict):
    """A new context in `lang` at `viewport`, student_a logged in, on the lab problem at `url` once
    its editor (CodeMirror) has replaced the textarea. Returns (context, page); close the context."""
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(15_000)  # ms; generous for 2 loaded cores
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page = context.new_page()
    browser_login(page, live_server, "student_a")
    page.goto(live_server.url + url)
    page.wait_for_selector(".CodeMirror")
    return context, page


def admin_form_errors(client, url: str, data: dict, lang: str) -> dict:
    """Post an admin add or change form in `lang` and return its errors. The form must come back
    refused at its fields (200), never with a database constraint's raw words."""
    from django.conf import settings  # here, not at the top: runner tests run without Django

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = client.post(url, data)
    assert response.status_code == 200
    assert "Constraint" not in response.content.decode()
    return response.context["adminform"].form.errors


def admin_action(client, changelist: str, action: str, *objects):
    """Run an admin action on `objects`, posted as the changelist's action form posts it."""
    return client.post(changelist, {"action": action, "_selected_action": [o.pk for o in objects]})


@pytest.fixture
def login(live_server):
    """`login(page, "student_a")` logs a page in through the real form."""

    def _login(page, username: str, password: str = TEST_PASSWORD) -> None:
        browser_login(page, live_server, username, password)

    return _login
