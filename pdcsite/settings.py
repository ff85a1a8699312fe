"""PDC Lab settings. Every knob comes from the environment, parsed strictly (see pdcsite/env.py).

With no environment at all this runs the embedded profile: SQLite and a filesystem broker under var/.
DJANGO_ENV=production switches on the hardened profile that passes `manage.py check --deploy`.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from gradinglab.worker import config as worker_config
from gradinglab.worker.queues import CPU_KIND, DEFAULT_QUEUE, KIND_PATTERN, all_queues
from pdcsite.env import (
    env_bool,
    env_broker_url,
    env_cache,
    env_choice,
    env_email,
    env_int,
    env_list,
    env_origins,
    env_str,
    env_url,
    parse_database_url,
    strict,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("PDC_VAR_DIR", str(BASE_DIR / "var")))

DJANGO_ENV = env_choice("DJANGO_ENV", "development", ("development", "production", "test"))
PRODUCTION = DJANGO_ENV == "production"

_DEV_SECRET = "dev-insecure-secret-key-change-me-0123456789-abcdefghijklmnopqrstuvwxyz"
SECRET_KEY = (
    os.environ.get("SECRET_KEY", "").strip() if PRODUCTION else env_str("SECRET_KEY", _DEV_SECRET)
)
if PRODUCTION and (len(SECRET_KEY) < 50 or SECRET_KEY == _DEV_SECRET):
    raise ImproperlyConfigured(
        "SECRET_KEY must be set to a random value of at least 50 characters in production"
    )

DEBUG = env_bool("DEBUG", not PRODUCTION)
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("DEBUG=true is not allowed with DJANGO_ENV=production")

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", [] if PRODUCTION else ["127.0.0.1", "localhost", "[::1]", "testserver"]
)
if PRODUCTION and not ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS must be set in production (comma-separated host names)"
    )
CSRF_TRUSTED_ORIGINS = env_origins("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from our static files, no CDN
    "django_htmx",
    "csp",
    "accounts.apps.AxesConfig",  # django-axes, its admin section named in our languages
    "accounts",
    "gradebook",
    "lectures",
    "quizzes",
    "gradinglab",
    "staffdesk",
    "dashboard",
    "similarity",
    "flagreview",
]

MIDDLEWARE = [
    # Outside the fast-path store, so a kept lecture page never replays another request's id.
    "pdcsite.logs.RequestIdMiddleware",
    # First: refuse an oversized or unsized body before anything reads or parses it.
    "pdcsite.security.BodyLimitMiddleware",
    # A NUL in the query string: 400 before a view hands it to PostgreSQL (which refuses it).
    "pdcsite.security.QueryNulMiddleware",
    # Ids and dates in the admin's actions and filters that Django would answer with a 500.
    "pdcsite.security.AdminInputMiddleware",
    # Outside every middleware that shapes a lecture page's response, so it keeps the final
    # headers; only the three guards above sit further out (they refuse a request or add the
    # request id, which a kept page must not carry).
    "lectures.fastpath.FastPathStoreMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "pdcsite.security.PrivateNoStoreMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "pdcsite.middleware.ExplicitLanguageOnlyMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Inside the session, user, CSRF and language: its 405 page is drawn like the 403 and 404.
    "pdcsite.not_allowed.MethodNotAllowedPageMiddleware",
    # Last, as django-axes requires: answers a locked-out login with the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "pdcsite.urls"
WSGI_APPLICATION = "pdcsite.wsgi.application"
ASGI_APPLICATION = "pdcsite.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "pdcsite.context_processors.site",
            ],
        },
    },
]

DATABASES = {
    "default": parse_database_url(
        "DATABASE_URL", env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'pdclab.sqlite3'}"), BASE_DIR
    )
}
# The project's own apps' primary keys (their AppConfigs set none); Django's contrib apps (auth,
# admin, contenttypes) and django-axes set AutoField in theirs, which wins for their models.
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Not a rule: on every password change, revokes the user's CLI tokens and lifts the login lock
    # (accounts/passwords.py).
    {"NAME": "accounts.passwords.OnPasswordChange"},
]
# django-axes first: it refuses a locked-out username+address before any password is checked.
AUTHENTICATION_BACKENDS = [
    "pdcsite.security.LoginLockoutBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "accounts:login"
# Password reset and roster invitation links stay valid this long (seconds: 3 days).
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_TIMEOUT", 3 * 24 * 3600, minimum=600)

# --- E-mail (password reset, roster invitations) ----------------------------------------------
# Development prints mail to the console; production sends through SMTP (EMAIL_URL, see env.py).
_EMAIL = env_email("EMAIL_URL", "smtp://localhost:25" if PRODUCTION else "console://")
EMAIL_BACKEND = _EMAIL["EMAIL_BACKEND"]
EMAIL_HOST, EMAIL_PORT = _EMAIL["EMAIL_HOST"], _EMAIL["EMAIL_PORT"]
EMAIL_HOST_USER, EMAIL_HOST_PASSWORD = _EMAIL["EMAIL_HOST_USER"], _EMAIL["EMAIL_HOST_PASSWORD"]
EMAIL_USE_SSL, EMAIL_USE_TLS = _EMAIL["EMAIL_USE_SSL"], _EMAIL["EMAIL_USE_TLS"]
EMAIL_TIMEOUT = _EMAIL["EMAIL_TIMEOUT"]  # seconds
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "PDC Lab <noreply@localhost>")

LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Asia/Shanghai"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
MEDIA_ROOT = VAR_DIR / "media"
MEDIA_URL = "/media/"
# Bytes. A form body (files excluded) above DATA_UPLOAD_MAX_MEMORY_SIZE is refused; an uploaded
# file above FILE_UPLOAD_MAX_MEMORY_SIZE is spooled to disk instead of memory (it caps nothing: a
# kernel upload is refused over gradinglab.runner.source.MAX_SOURCE_BYTES, a request over
# PDC_MAX_REQUEST_BYTES).
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 2 * 1024 * 1024, minimum=1024)
FILE_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
# Whole request body, files included, refused from its Content-Length before anything parses it
# (pdcsite.security.BodyLimitMiddleware; deploy/nginx.conf's client_max_body_size matches).
PDC_MAX_REQUEST_BYTES = env_int("PDC_MAX_REQUEST_BYTES", DATA_UPLOAD_MAX_MEMORY_SIZE, minimum=1024)

# One shared cache for every web process (Redis) in production; locmem only suits one process:
# with several gunicorn workers each would keep its own copy, and a logout or a changed mark in
# one worker would not reach the others.
CACHES = {"default": env_cache("CACHE_URL", "locmem://")}
CACHE_SHARED = CACHES["default"]["BACKEND"] == "pdcsite.cache.RedisCache"
# Sessions read through the cache (saves a query per page) only when the cache is shared;
# otherwise straight from the database, so a logout holds in every process at once.
SESSION_ENGINE = (
    "django.contrib.sessions.backends.cached_db"
    if CACHE_SHARED
    else "django.contrib.sessions.backends.db"
)
# Signed-in lecture pages served from the shared cache without the Django request cycle
# (lectures/fastpath.py). Needs the shared cache: invalidation must reach every process.
LECTURE_FAST_PATH = env_bool("PDC_LECTURE_FAST_PATH", CACHE_SHARED)
if LECTURE_FAST_PATH and not CACHE_SHARED:
    raise ImproperlyConfigured(
        "PDC_LECTURE_FAST_PATH=true needs CACHE_URL=redis://…: the fast path's invalidation must "
        "reach every web process"
    )

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["pdcsite.renderers.SafeJSONRenderer"],
    # JSON (deep nesting refused with a 400, pdcsite/parsers.py) and the browser forms DRF knows.
    "DEFAULT_PARSER_CLASSES": [
        "pdcsite.parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
# OpenAPI 3 of /api/v1/ at /api/schema/, docs at /api/docs/ (Swagger UI from drf-spectacular-sidecar).
SPECTACULAR_SETTINGS = {
    "TITLE": "PDC Lab API",
    "DESCRIPTION": "Students' CLI (Token pdc_…) and grading workers (Worker wrk_…); see docs/lab.md.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "PREPROCESSING_HOOKS": ["pdcsite.api_docs.only_api_v1"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Login throttling (django-axes): the site login, the admin login and the CLI token API ---------
# Locked per username and client address together: a classroom behind one NAT address is not
# locked out by one student's typos, and a guesser of one account is stopped after a few tries.
AXES_FAILURE_LIMIT = env_int("PDC_LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("PDC_LOGIN_LOCKOUT_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.views.lockout"
# Behind N reverse proxies (deploy/nginx.conf: 1) the client is the Nth X-Forwarded-For hop from
# the right; with 0 it is REMOTE_ADDR and a client-sent X-Forwarded-For is ignored.
PDC_TRUSTED_PROXY_COUNT = env_int("PDC_TRUSTED_PROXY_COUNT", 0, minimum=0, maximum=5)
AXES_CLIENT_IP_CALLABLE = "pdcsite.security.client_ip"
# Wrong CLI/API tokens per client address, within PDC_TOKEN_LOCKOUT_S (s) of the first, before
# further wrong ones are answered 429; a valid token is never refused. Tokens are 256-bit random,
# so this is about noise and abuse rather than guessing odds; a classroom behind one address
# shares it, hence generous.
PDC_TOKEN_FAILURE_LIMIT = env_int("PDC_TOKEN_FAILURE_LIMIT", 50, minimum=1)
PDC_TOKEN_LOCKOUT_S = env_int("PDC_TOKEN_LOCKOUT_SECONDS", 15 * 60, minimum=1)
# Leaderboard nickname attempts per student per hour: each answer says whether a name is in use
# (usernames are student IDs); a student changes a nickname a few times a term.
PDC_PSEUDONYM_ATTEMPTS_PER_HOUR = env_int("PDC_PSEUDONYM_ATTEMPTS_PER_HOUR", 10, minimum=1)
# Password-reset requests per hour, per e-mail address and per client address; past either, no
# mail is sent (the page answers as always). One address needs a link or two; a classroom behind
# one NAT address may see a dozen students ask at the start of term.
PDC_RESET_PER_ADDRESS_PER_HOUR = env_int("PDC_RESET_PER_ADDRESS_PER_HOUR", 3, minimum=1)
PDC_RESET_PER_CLIENT_PER_HOUR = env_int("PDC_RESET_PER_CLIENT_PER_HOUR", 20, minimum=1)

# --- Content-Security-Policy (django-csp): no inline script or style anywhere -----------------
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# --- Celery -----------------------------------------------------------------------------------
# kombu's filesystem transport ignores the host, but warns on every connection when there is none.
CELERY_BROKER_URL = env_broker_url("CELERY_BROKER_URL", "filesystem://localhost/")
_FS_BROKER_DIR = VAR_DIR / "broker"
CELERY_BROKER_TRANSPORT_OPTIONS = (
    {
        "data_folder_in": str(_FS_BROKER_DIR / "out"),
        "data_folder_out": str(_FS_BROKER_DIR / "out"),
        "processed_folder": str(_FS_BROKER_DIR / "processed"),
        "control_folder": str(_FS_BROKER_DIR / "control"),
        "store_processed": False,
    }
    if CELERY_BROKER_URL.startswith("filesystem")
    else {"visibility_timeout": strict(worker_config.visibility_timeout_s)()}
)
# Workers post results over HTTP; no result backend is needed (and grading hosts' workers,
# gradinglab.worker, hold no DB credentials; make run's CPU worker is this app, with the settings).
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# prefork: Celery enforces task time limits only with this pool (not solo / threads).
CELERY_WORKER_POOL = "prefork"
CELERY_TASK_DEFAULT_QUEUE = DEFAULT_QUEUE
GPU_KINDS = env_list("PDC_GPU_KINDS", ["h200", "h100", "a100", "l40s", "rtx4090", "rtx5090"])
if bad_kinds := [kind for kind in GPU_KINDS if not KIND_PATTERN.match(kind) or kind == CPU_KIND]:
    raise ImproperlyConfigured(
        f"PDC_GPU_KINDS: {', '.join(bad_kinds)} must be lower-case letters and digits (not cpu)"
    )
CELERY_TASK_QUEUES_NAMES = all_queues(GPU_KINDS)
# Time limits (seconds): grading a kernel has its own sandbox limits; these are the outer guard
# (read by the same function as the grading host's app, gradinglab.worker.celery).
CELERY_TASK_SOFT_TIME_LIMIT, CELERY_TASK_TIME_LIMIT = strict(worker_config.task_time_limits_s)()
CELERY_TASK_ALWAYS_EAGER = False
# Housekeeping on the `default` queue, run by the beat embedded in the default worker (`-B`).
CELERY_BEAT_SCHEDULE = {
    # Auto-submit quiz attempts whose time is up even if the student never comes back (every 60 s).
    "quizzes-expire-overdue": {"task": "quizzes.expire_overdue_attempts", "schedule": 60.0},
    # Re-queue lab submissions stuck past their time limit (bounded retries; every 60 s).
    "gradinglab-reap-stuck": {"task": "gradinglab.reap_stuck", "schedule": 60.0},
    # Similarity over each assignment whose (late) deadline has passed since its last run (600 s).
    "similarity-after-deadlines": {"task": "similarity.run_after_deadlines", "schedule": 600.0},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# --- PDC Lab ----------------------------------------------------------------------------------
PDC_SITE_URL = env_url("PDC_SITE_URL", "http://127.0.0.1:8000")
PDC_COURSE_NAME = "并行与分布式计算（AI 方向）"
# Regrade requests a student may file per grade item in any 24 hours (an appeal, not a chat).
PDC_REGRADE_REQUESTS_PER_ITEM_PER_DAY = env_int(
    "PDC_REGRADE_REQUESTS_PER_ITEM_PER_DAY", 3, minimum=1, maximum=100
)

# --- Logging ----------------------------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        # JSON lines with request_id and submission_id (pdcsite/logs.py), for log shippers.
        "json": {"()": "pdcsite.logs.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": env_choice(
                "LOG_FORMAT", "json" if PRODUCTION else "plain", ("plain", "json")
            ),
        }
    },
    "loggers": {
        # django-axes logs every login at INFO; its lockouts are WARNINGs, which is what to keep.
        "axes": {"level": "WARNING"},
        # Naming "django" here drops the handlers Django's default config gave it and its children
        # (a DEBUG-only console, runserver's own): their records reach the console once, through
        # root, in the site's format (pdcsite/tests/test_logging_once.py).
        "django": {"level": "INFO"},
    },
    "root": {
        "handlers": ["console"],
        "level": env_choice("LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR")),
    },
}

# --- Production hardening (check --deploy clean) ----------------------------------------------
if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # Grading workers inside the deployment post to http://web:8000 (docker-compose.yml): a
    # redirect to https would turn their POSTs into GETs and lose every result. They carry a
    # worker token, not a session cookie; hosts outside use the https URL (GPU_API_URL).
    SECURE_REDIRECT_EXEMPT = [r"^api/v1/worker/", r"^api/v1/workers/"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # One year of HSTS. Preload is off: it binds the whole domain (every subdomain, for months) and
    # is hard to undo, so the operator opts in with SECURE_HSTS_PRELOAD=true once sure.
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
    if not SECURE_HSTS_PRELOAD:
        # check --deploy warns about the opt-in above (W021); off is the deliberate default.
        SILENCED_SYSTEM_CHECKS = ["security.W021"]
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"
    REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"] = ["pdcsite.renderers.SafeJSONRenderer"]

# --- Test profile -----------------------------------------------------------------------------
if DJANGO_ENV == "test":
    # Several test runs may share one throwaway PostgreSQL / Redis (developers run suites side by side):
    # give each run its own test database and broker key prefix. Child processes that a test starts
    # (a Celery worker, gunicorn) inherit the variable and so join the same run.
    _RUN_ID = os.environ.setdefault("PDC_TEST_RUN_ID", f"r{os.getpid()}")  # worker_config reads it
    # pytest-xdist: each worker process is its own run (the controller's id is inherited), so two
    # workers never pop each other's broker messages or share cache keys (the env var is updated, so
    # worker_config and child processes see the same id).
    _XDIST = os.environ.get("PYTEST_XDIST_WORKER", "")
    if _XDIST and not _RUN_ID.endswith(f"_{_XDIST}"):
        _RUN_ID = os.environ["PDC_TEST_RUN_ID"] = f"{_RUN_ID}_{_XDIST}"
    DATABASES["default"]["TEST"] = {"NAME": f"test_pdclab_{_RUN_ID}"}
    if CELERY_BROKER_URL.startswith("redis"):
        CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"] = worker_config.test_run_keyprefix()
    if CACHE_SHARED:
        CACHES["default"]["KEY_PREFIX"] = _RUN_ID
    # The counters live in the per-process cache across tests, which send wrong tokens on purpose;
    # the lockout tests set their own limit.
    PDC_TOKEN_FAILURE_LIMIT = env_int("PDC_TOKEN_FAILURE_LIMIT", 1_000_000, minimum=1)
    # Likewise the password-reset counters (every test client is 127.0.0.1); the throttle's tests
    # set their own limits.
    PDC_RESET_PER_ADDRESS_PER_HOUR = env_int("PDC_RESET_PER_ADDRESS_PER_HOUR", 1_000_000)
    PDC_RESET_PER_CLIENT_PER_HOUR = env_int("PDC_RESET_PER_CLIENT_PER_HOUR", 1_000_000)
    PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher"
    ]  # fast hashing in tests only
