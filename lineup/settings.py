"""LineUp settings: one module, configured from the environment.

With nothing set, LineUp runs in its *embedded default*: SQLite under ``$LINEUP_DATA_DIR``
(``./var/``), the in-memory channel layer and the in-process deadline scheduler. Setting
``DATABASE_URL`` and ``REDIS_URL`` switches to the production topology: PostgreSQL, the
channels_redis layer, and Celery (worker + exactly one beat) settling deadlines.

Variables:
    DATABASE_URL            e.g. postgres://postgres@127.0.0.1:5432/lineup (default: SQLite)
    REDIS_URL               e.g. redis://127.0.0.1:6379/0 (default: none -> in-memory layer)
    LINEUP_DATA_DIR         where the embedded SQLite file and login live (default ./var)
    LINEUP_SCHEDULER        embedded | celery | none (default: celery with REDIS_URL, else embedded)
    LINEUP_SECRET_KEY       required when LINEUP_DEBUG is off
    LINEUP_DEBUG            1/0 (default 1 in the embedded default, 0 otherwise)
    LINEUP_ALLOWED_HOSTS    comma separated (default localhost,127.0.0.1,[::1])
    LINEUP_LOG_LEVEL        DEBUG/INFO/... (default INFO)
    LINEUP_LOG_FORMAT       json | console (default console when embedded, json otherwise)
    LINEUP_SWEEP_SECONDS    beat sweep period (default 2)
    LINEUP_SETTLE_MAX_FAILURES  failed settlements before an operation is flagged (default 5)
    LINEUP_SETTLE_BACKOFF_SECONDS / _MAX_SECONDS  retry backoff of a failed settlement (5 / 300)
    LINEUP_CELERY_QUEUE     Celery queue name (default lineup)
    LINEUP_OUTBOX_REDELIVERY_SECONDS  resend an unacked tool.result after this long (default 5)
    LINEUP_OUTBOX_REDELIVERY_MAX_SECONDS  each resend waits twice as long, up to this (default 300)
    LINEUP_AGENT_HEARTBEAT_SECONDS  a live /ws/agent/ connection refreshes its row this often (default 15)
    LINEUP_REFERENCE_AGENT_URL  run the reference Agent in-process against this /ws/agent/ URL
    LINEUP_LLM_BASE_URL     an OpenAI-compatible API base, e.g. http://127.0.0.1:11434/v1; with
    LINEUP_LLM_MODEL        the model name, the built-in Agent is the LLM Agent (docs/agents.md)
    LINEUP_LLM_API_KEY      its key (default: OPENAI_API_KEY; none for a local server)
    LINEUP_LLM_TIMEOUT_SECONDS  per model request (default 60)
    LINEUP_LLM_MAX_RETRIES  retries of a failed model request (default 2)
    LINEUP_SERVE_STATIC     1/0: Daphne serves /static/ itself (default 1; 0 behind a proxy)
    LINEUP_MANIFEST_GLOBS   comma separated manifest globs, relative to BASE_DIR or absolute
                            (default interact/manifest.json,miniapps/*/manifest.json)
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
import structlog

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DATA_DIR = Path(os.environ.get("LINEUP_DATA_DIR") or BASE_DIR / "var").resolve()
DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")
EMBEDDED = not DATABASE_URL and not REDIS_URL

DEBUG = _env_flag("LINEUP_DEBUG", EMBEDDED)
SECRET_KEY = os.environ.get("LINEUP_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("LINEUP_SECRET_KEY must be set when LINEUP_DEBUG is off")
    # Development only: a fixed key keeps sessions valid across restarts of the embedded server.
    SECRET_KEY = "lineup-embedded-development-key-not-for-production"

ALLOWED_HOSTS = [
    h.strip() for h in os.environ.get("LINEUP_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h.strip()
]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    # Bottom to top (docs/decisions/0010-layers.md): each app imports only those listed before it.
    "runtime",
    "interact",
    "lineup",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the person's saved choice, else the language cookie, else Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "interact.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "lineup.urls"
ASGI_APPLICATION = "lineup.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
else:
    DATA_DIR.mkdir(parents=True, exist_ok=True)  # the embedded default needs nothing installed
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": DATA_DIR / "db.sqlite3",
            # SQLite has no row locks: IMMEDIATE takes the write lock at BEGIN, so every
            # deciding transaction is serialised within the one embedded process.
            "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Channels -------------------------------------------------------------------------------
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # redis-py 8 defaults socket_timeout to 5 s, shorter than channels_redis' blocking
            # receive (BZPOPMIN, 5 s): every idle consumer died with TimeoutError -> close 1011.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": None}]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# --- Deadlines and Celery -------------------------------------------------------------------
LINEUP_SCHEDULER = os.environ.get("LINEUP_SCHEDULER") or ("celery" if REDIS_URL else "embedded")
if LINEUP_SCHEDULER not in {"embedded", "celery", "none"}:
    raise RuntimeError(f"LINEUP_SCHEDULER must be embedded, celery or none, not {LINEUP_SCHEDULER!r}")
LINEUP_SWEEP_SECONDS = float(os.environ.get("LINEUP_SWEEP_SECONDS", "2"))
# Redis redelivers an unacked task after visibility_timeout; an eta further away than that
# would run again and again. Deadlines beyond this horizon are left to the beat sweep.
LINEUP_ETA_HORIZON_SECONDS = 3000
# A settlement that raises is retried by the sweep after a backoff that doubles from the base up
# to the cap; after this many failures the operation is flagged for an operator and only an
# explicit retry (recover_runtime, the admin's settle action) tries it again (decision 0011).
LINEUP_SETTLE_MAX_FAILURES = int(os.environ.get("LINEUP_SETTLE_MAX_FAILURES", "5"))
LINEUP_SETTLE_BACKOFF_SECONDS = float(os.environ.get("LINEUP_SETTLE_BACKOFF_SECONDS", "5"))
LINEUP_SETTLE_BACKOFF_MAX_SECONDS = float(os.environ.get("LINEUP_SETTLE_BACKOFF_MAX_SECONDS", "300"))

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("LINEUP_CELERY_QUEUE", "lineup")
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ACKS_LATE = True  # settlement is idempotent, so a redelivered task is harmless
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_BEAT_SCHEDULE = {
    "runtime.sweep_due": {
        "task": "runtime.tasks.sweep_due",
        "schedule": LINEUP_SWEEP_SECONDS,
        # A sweep that could not run in time is superseded by the next one.
        "options": {"expires": LINEUP_SWEEP_SECONDS * 2},
    },
}

# How long an unacked tool.result waits before it is sent again on the same connection.
LINEUP_OUTBOX_REDELIVERY_SECONDS = float(os.environ.get("LINEUP_OUTBOX_REDELIVERY_SECONDS", "5"))
# Each further resend of the same entry waits twice as long, up to this bound.
LINEUP_OUTBOX_REDELIVERY_MAX_SECONDS = float(os.environ.get("LINEUP_OUTBOX_REDELIVERY_MAX_SECONDS", "300"))
# A live /ws/agent/ connection refreshes its runtime.AgentConnection row this often; a row not
# refreshed for three periods (its process died) is not counted as live (decision 0017).
LINEUP_AGENT_HEARTBEAT_SECONDS = float(os.environ.get("LINEUP_AGENT_HEARTBEAT_SECONDS", "15"))

# The built-in reference Agent, run inside the server process when this URL is set (run_embedded
# sets it to its own /ws/agent/). In production run `manage.py run_reference_agent` once instead.
LINEUP_REFERENCE_AGENT_URL = os.environ.get("LINEUP_REFERENCE_AGENT_URL", "")

# The built-in Agent is the LLM Agent (interact.llm_agent) when both of these are set, the
# reference Agent otherwise; either runs wherever the reference Agent would.
LINEUP_LLM_BASE_URL = os.environ.get("LINEUP_LLM_BASE_URL", "").strip()
LINEUP_LLM_MODEL = os.environ.get("LINEUP_LLM_MODEL", "").strip()
LINEUP_LLM_API_KEY = os.environ.get("LINEUP_LLM_API_KEY") or os.environ.get("OPENAI_API_KEY", "")
LINEUP_LLM_TIMEOUT_SECONDS = float(os.environ.get("LINEUP_LLM_TIMEOUT_SECONDS", "60"))
LINEUP_LLM_MAX_RETRIES = int(os.environ.get("LINEUP_LLM_MAX_RETRIES", "2"))

# --- MiniApps -------------------------------------------------------------------------------
LINEUP_MANIFEST_GLOBS = [
    g.strip()
    for g in os.environ.get("LINEUP_MANIFEST_GLOBS", "interact/manifest.json,miniapps/*/manifest.json").split(",")
    if g.strip()
]

# --- Auth, i18n, static ---------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LANGUAGE_CODE = "en"
# Many of the people LineUp is for write Chinese; every user-visible string exists in both.
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
# Times to the second in ISO order in every language (lineup/formats/), e.g. in the admin.
FORMAT_MODULE_PATH = ["lineup.formats"]
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = DATA_DIR / "static"
LINEUP_SERVE_STATIC = _env_flag("LINEUP_SERVE_STATIC", True)

# --- Logging: one JSON line per decision ----------------------------------------------------
LOG_LEVEL = os.environ.get("LINEUP_LOG_LEVEL", "INFO").upper()
# JSON lines for operators' log pipelines; readable lines for someone running the embedded default.
LOG_FORMAT = os.environ.get("LINEUP_LOG_FORMAT") or ("console" if EMBEDDED else "json")

_shared_processors = [
    structlog.contextvars.merge_contextvars,
    structlog.stdlib.add_logger_name,
    structlog.stdlib.add_log_level,
    structlog.processors.TimeStamper(fmt="iso", utc=True),
]

structlog.configure(
    processors=[*_shared_processors, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
    logger_factory=structlog.stdlib.LoggerFactory(),
    wrapper_class=structlog.stdlib.BoundLogger,
    cache_logger_on_first_use=True,
)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "structured": {
            "()": structlog.stdlib.ProcessorFormatter,
            "processors": [
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                structlog.processors.format_exc_info,
                structlog.processors.JSONRenderer()
                if LOG_FORMAT == "json"
                else structlog.dev.ConsoleRenderer(colors=False),
            ],
            "foreign_pre_chain": _shared_processors,
        },
    },
    "handlers": {
        # stderr, so a command's own output on stdout (recover_runtime --json) stays parseable.
        "stderr": {"class": "logging.StreamHandler", "stream": "ext://sys.stderr", "formatter": "structured"},
    },
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "daphne": {"level": "WARNING"},
        "celery": {"level": "INFO"},
    },
}
