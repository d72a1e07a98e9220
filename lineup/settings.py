"""LineUp settings: one module, configured from the environment.

With nothing set, LineUp runs in its *embedded default*: SQLite under ``$LINEUP_DATA_DIR``
(``./var/``), the in-memory channel layer and the in-process deadline scheduler. Setting
``DATABASE_URL`` and ``REDIS_URL`` switches to the production topology: PostgreSQL, the
channels_redis layer, and Celery (worker + exactly one beat) settling deadlines.

Variables:
    DATABASE_URL            e.g. postgres://postgres@127.0.0.1:5432/lineup (default: SQLite)
    REDIS_URL               e.g. redis://127.0.0.1:6379/0 (default: none -> in-memory layer)
    LINEUP_DB_CONN_MAX_AGE  seconds a PostgreSQL connection is kept for reuse (default 600; 0 closes
                            each after use, e.g. behind PgBouncer in transaction mode)
    LINEUP_DB_PREPARE       PostgreSQL binds parameters on the server and prepares a statement on
                            its Nth run on a connection, so it stops planning it again (default 5;
                            0 turns it off: needed behind PgBouncer in transaction mode before 1.21,
                            or without max_prepared_statements; decision 0038)
    LINEUP_DATA_DIR         where the embedded SQLite file and login live (default ./var)
    LINEUP_SCHEDULER        embedded | celery | none (default: celery with REDIS_URL, else embedded)
    LINEUP_SECRET_KEY       required outside the embedded default, which makes one per install and
                            keeps it in $LINEUP_DATA_DIR/secret_key; at least 50 characters and not the
                            documentation's example, unless LINEUP_DEBUG=1 (lineup.secret_key)
    LINEUP_SECRET_KEY_FALLBACKS  comma separated former keys, still accepted for signatures (sessions)
                            while a new LINEUP_SECRET_KEY takes over (docs/operations.md, key rotation)
    LINEUP_DEBUG            1/0 (default 0; ``run_embedded --debug`` sets it): Django's debug pages
    LINEUP_ALLOWED_HOSTS    comma separated (default localhost,127.0.0.1,[::1])
    LINEUP_HTTPS            1: the site is reached over HTTPS only: Secure cookies, HSTS, http -> https
    LINEUP_BEHIND_TLS_PROXY 1: a proxy terminates TLS and sets X-Forwarded-Proto (implies LINEUP_HTTPS)
    LINEUP_HSTS_SECONDS     HSTS max-age with LINEUP_HTTPS (default 31536000, a year)
    LINEUP_HSTS_INCLUDE_SUBDOMAINS / LINEUP_HSTS_PRELOAD  1/0 (default 1 / 1)
    LINEUP_LOGIN_FAILURE_LIMIT  failed sign-ins of one username from one address before a lockout (5)
    LINEUP_LOGIN_COOLOFF_MINUTES  how long a lockout lasts (default 15)
    LINEUP_LOGIN_ADDRESS_FAILURE_LIMIT  failed sign-ins from one address, any usernames, before that
                            address is paused too (default 30)
    LINEUP_LOG_LEVEL        DEBUG/INFO/... (default INFO)
    LINEUP_LOG_FORMAT       json | console (default console when embedded, json otherwise)
    LINEUP_SWEEP_SECONDS    beat sweep period (default 2)
    LINEUP_SETTLE_MAX_FAILURES  failed settlements before an operation is flagged (default 5)
    LINEUP_SETTLE_BACKOFF_SECONDS / _MAX_SECONDS  retry backoff of a failed settlement (5 / 300)
    LINEUP_CELERY_QUEUE     Celery queue name (default lineup)
    LINEUP_OUTBOX_REDELIVERY_SECONDS  resend an unacked tool.result after this long (default 5)
    LINEUP_OUTBOX_REDELIVERY_MAX_SECONDS  each resend waits twice as long, up to this (default 300)
    LINEUP_AGENT_HEARTBEAT_SECONDS  a live /ws/agent/ connection refreshes its row this often (default 15)
    LINEUP_DB_THREADS       database threads of an ASGI process's sockets, each with its own
                            connection (default 4; 0 = Channels' single thread; SQLite always 0)
    LINEUP_GC_FREEZE        1/0: an ASGI process freezes its start-up heap out of the garbage
                            collector's full passes (default 1; lineup/heap.py, decision 0059)
    LINEUP_AGENT_CREDENTIAL_SECONDS  a /ws/agent/ connection re-reads its token at most this long
                            after the last read (default 1; a revocation hint re-reads at once)
    LINEUP_WS_HELLO_TIMEOUT_SECONDS / LINEUP_WS_HELLO_MAX_BYTES  /ws/agent/'s first frame must be a
                            valid hello this soon and this small, else close 4401 (5 / 4096)
    LINEUP_WS_MAX_FRAME_BYTES  largest frame either socket handles (65536)
    LINEUP_AGENT_FRAMES_PER_SECOND / _BURST  per /ws/agent/ connection (200 / 1000)
    LINEUP_WORKSPACE_FRAMES_PER_SECOND / _BURST  per /ws/workspace/ connection (30 / 120)
    LINEUP_WS_QUEUE_FRAMES / LINEUP_WS_QUEUE_BYTES  frames waiting per connection (64 / 1048576)
    LINEUP_AGENT_CONNECTIONS_PER_TOKEN / _PER_USER  live /ws/agent/ connections per process (32 / 64)
    LINEUP_WORKSPACE_CONNECTIONS_PER_USER  live /ws/workspace/ connections per process (32)
    LINEUP_MCP_IN_FLIGHT_PER_TOKEN  /mcp/ requests handled at once per token, per process (4)
    LINEUP_MCP_IN_FLIGHT_PER_USER   /mcp/ requests handled at once per person, any tokens, per process (8)
    LINEUP_MCP_REQUESTS_PER_SECOND_PER_TOKEN  /mcp/ requests started per second per token (5, burst 20; more wait)
    LINEUP_MCP_HELD_PER_PROCESS  /mcp/ requests held open (tasks/result) at once per process, all people (512)
    LINEUP_MCP_CONFORMANCE_FIXTURES  1: install the MCP conformance suite's fixture MiniApp (tests only)
    LINEUP_CRASH_APP        1: install the crash-point harness' MiniApp (tests only)
    LINEUP_STRANGER_LOOKUPS_PER_SECOND / _PER_ADDRESS  tokens this process has not seen yet, looked up in
                            the database per second for everyone / per client address (50 / 5, bursts of
                            five seconds' worth; more are refused 429, late); lineup.doors.strangers
    LINEUP_HTTP_MAX_BODY_BYTES  largest request body (4194304); refused from Content-Length
    LINEUP_HTTP_HEADER_TIMEOUT_SECONDS  a request's headers must be complete this soon (10)
    LINEUP_HTTP_IDLE_TIMEOUT_SECONDS  an idle HTTP connection is closed after this long (60)
    LINEUP_TRUSTED_PROXY_HOPS  proxies in front that append to X-Forwarded-For (default 0: none
                            trusted, the socket's peer is the client's address)
    LINEUP_REFERENCE_AGENT_URL  run the reference Agent in-process against this /ws/agent/ URL
    LINEUP_LLM_BASE_URL     an OpenAI-compatible API base, e.g. http://127.0.0.1:11434/v1; with
    LINEUP_LLM_MODEL        the model name, the built-in Agent is the LLM Agent (docs/agents.md)
    LINEUP_LLM_API_KEY      its key (default: OPENAI_API_KEY; none for a local server)
    LINEUP_LLM_TIMEOUT_SECONDS  per model request (default 60)
    LINEUP_LLM_MAX_RETRIES  retries of a failed model request (default 2)
    LINEUP_LLM_CONTEXT_TOKENS  the model server's context in tokens, e.g. 2048 (default: learned from
                            its first "context length exceeded" answer; decision 0051)
    LINEUP_SERVE_STATIC     1/0: Daphne serves /static/ itself (default 1; 0 behind a proxy)
    LINEUP_MANIFEST_GLOBS   comma separated manifest globs, relative to BASE_DIR or absolute
                            (default interact/manifest.json,miniapps/*/manifest.json)
    LINEUP_METRICS_DIR      a directory the processes of one host share for /metrics (Prometheus
                            multi-process mode, e.g. /run/lineup/metrics; empty it at boot). Unset:
                            each process's /metrics shows its own figures only
    LINEUP_METRICS_TOKEN    a bearer token with which any client may read /metrics (loopback needs none)
    LINEUP_METRICS_NETWORKS comma separated networks (CIDR) that may read /metrics without the token
    LINEUP_METRICS_LOOPBACK 1/0: loopback clients (no forwarding header) may read /metrics and /readyz's
                            details without the token (default 1; 0 when a proxy on this host
                            forwards without X-Forwarded-For)
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
import structlog

from lineup.data_dir import secure_data_dir
from lineup.secret_key import install_secret_key, refuse_weak_key
from miniapps.bundled import BUNDLED_MINIAPPS

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

# Off unless asked for, the embedded default included: its pages may be reachable from a network
# (run_embedded --host 0.0.0.0), and a debug page lists the URLs, settings and code.
DEBUG = _env_flag("LINEUP_DEBUG", False)
SECRET_KEY = os.environ.get("LINEUP_SECRET_KEY", "")
if not SECRET_KEY:
    if not EMBEDDED:
        raise RuntimeError("LINEUP_SECRET_KEY must be set outside the embedded default")
    # One per install, next to its database and login; never a key published with the code.
    SECRET_KEY = install_secret_key(DATA_DIR)
elif not DEBUG:
    refuse_weak_key(SECRET_KEY)  # the example key of lineup.env.example, or one too short to be secret

# Key rotation without signing everyone out: sessions signed with a former key stay valid.
SECRET_KEY_FALLBACKS = [k.strip() for k in os.environ.get("LINEUP_SECRET_KEY_FALLBACKS", "").split(",") if k.strip()]

ALLOWED_HOSTS = [
    h.strip() for h in os.environ.get("LINEUP_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h.strip()
]

# Tests only: the official MCP conformance suite's fixture tools as a MiniApp (never in production).
MCP_CONFORMANCE_FIXTURES = os.environ.get("LINEUP_MCP_CONFORMANCE_FIXTURES") == "1"
CONFORMANCE_FIXTURES_APP = "tests.lineup.gateways.mcp.conformance_app"
CRASH_APP = os.environ.get("LINEUP_CRASH_APP") == "1"
CRASH_APP_PACKAGE = "tests.reliability.crash_app"

INSTALLED_APPS = [
    "daphne",
    "axes",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    # The bundled MiniApps come first: their AppConfig.ready() registers their tool handlers before
    # the Runtime's validates the manifests (docs/miniapps.md). They import only runtime.api.
    *BUNDLED_MINIAPPS,
    # The MCP conformance suite's fixture MiniApp: tests only (tests/lineup/gateways/mcp/test_official_suite.py).
    *([CONFORMANCE_FIXTURES_APP] if MCP_CONFORMANCE_FIXTURES else []),
    # The crash-point harness' MiniApp: tests only (tests/reliability/crash_app).
    *([CRASH_APP_PACKAGE] if CRASH_APP else []),
    # Bottom to top (docs/decisions/0010-layers.md): each app imports only those listed before it.
    "runtime",
    "interact",
    "lineup",
]

MIDDLEWARE = [
    # First: /healthz, /readyz and /metrics are answered before anything checks the Host header
    # (a load balancer probes by IP) or redirects to HTTPS.
    "lineup.probes.ProbeMiddleware",
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
    # A default policy for every page that sets none itself (sign-in, admin, errors); the workspace
    # and the Surfaces set their own, stricter ones (interact.views).
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into the lockout page.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # First: refuses a locked-out username/address before the password is even checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
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
    # Persistent connections: a new PostgreSQL connection costs 3-4 ms, and each of a socket's
    # database calls used to open one. The health check (one ``SELECT 1`` before the first query
    # after a request's or command's start) replaces a connection that a database restart or a
    # network cut left dead, so the next decision succeeds (tests/reliability/
    # test_database_restart.py). The sockets' database threads (runtime.db_threads) and the worker's
    # eta settlements (runtime.tasks) skip it: their first statement is the check, and a call that
    # finds its connection dead runs once more on a new one (decisions 0036, 0039). Behind
    # PgBouncer in transaction mode, set LINEUP_DB_CONN_MAX_AGE=0.
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL,
            conn_max_age=int(os.environ.get("LINEUP_DB_CONN_MAX_AGE", "600")),
            conn_health_checks=True,
        )
    }
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        # A SQLite file named by URL decides as the embedded default's does (below): without
        # IMMEDIATE two racing decisions both read, then one fails "database is locked".
        DATABASES["default"]["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
    # Planning the ORM's statements was a quarter of PostgreSQL's time per decision (the
    # credential read alone 0.3 ms a run, 0.03 ms to execute); prepared, each is planned once per
    # connection (decision 0038; measured in round 27i, in docs/benchmarks.md's history). The options are psycopg's,
    # so a DATABASE_URL naming another engine (sqlite://…) gets none.
    _prepare_after = int(os.environ.get("LINEUP_DB_PREPARE", "5"))
    if _prepare_after > 0 and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=_prepare_after
        )
else:
    # The embedded default needs nothing installed; its data is its owner's only (0700 / 0600).
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": secure_data_dir(DATA_DIR),
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
# The worker and beat outlive a Redis restart or outage: they reconnect every few seconds for as
# long as it takes (Celery's default gives up after 100 attempts), and a worker holding unacked
# tasks survives losing its connection (lineup.internals.kombu's RedisTransport, which the setting
# names as lineup.celery:RedisTransport; a memory:// broker has none).
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_BROKER_CONNECTION_TIMEOUT = 4
if REDIS_URL:
    CELERY_BROKER_TRANSPORT = "lineup.celery:RedisTransport"
CELERY_TASK_IGNORE_RESULT = True
# Celery's Django fixup closes the worker's database connection before and after every task unless
# this is set; set, it closes it once every this many tasks, and between them lineup.celery applies
# Django's per-request rule (close_old_connections: CONN_MAX_AGE, errors). So an eta task reuses its
# child's connection instead of opening one, without a health check first (decision 0039).
CELERY_DB_REUSE_MAX = 1000
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
# The sockets' database work runs on this many threads per process, each with its own connection
# (runtime/db_threads.py, docs/decisions/0032-socket-transport-off-the-hot-path.md).
LINEUP_DB_THREADS = int(os.environ.get("LINEUP_DB_THREADS", "4"))
# A /ws/agent/ connection trusts its last credential read this long before a frame re-reads it;
# the agent.revoked / agent.deactivated hint re-reads at once (decision 0032).
LINEUP_AGENT_CREDENTIAL_SECONDS = float(os.environ.get("LINEUP_AGENT_CREDENTIAL_SECONDS", "1"))

# The doors' limits (lineup.doors, docs/decisions/0024-bounded-doors.md): what one client may cost.
# Generous for any legitimate client (the reference Agent, a page, the soak's Agents); published
# to Agents in welcome.limits.
LINEUP_WS_HELLO_TIMEOUT_SECONDS = float(os.environ.get("LINEUP_WS_HELLO_TIMEOUT_SECONDS", "5"))
LINEUP_WS_HELLO_MAX_BYTES = int(os.environ.get("LINEUP_WS_HELLO_MAX_BYTES", "4096"))
LINEUP_WS_MAX_FRAME_BYTES = int(os.environ.get("LINEUP_WS_MAX_FRAME_BYTES", str(64 * 1024)))
LINEUP_AGENT_FRAMES_PER_SECOND = float(os.environ.get("LINEUP_AGENT_FRAMES_PER_SECOND", "200"))
LINEUP_AGENT_FRAMES_BURST = int(os.environ.get("LINEUP_AGENT_FRAMES_BURST", "1000"))
LINEUP_WORKSPACE_FRAMES_PER_SECOND = float(os.environ.get("LINEUP_WORKSPACE_FRAMES_PER_SECOND", "30"))
LINEUP_WORKSPACE_FRAMES_BURST = int(os.environ.get("LINEUP_WORKSPACE_FRAMES_BURST", "120"))
LINEUP_WS_QUEUE_FRAMES = int(os.environ.get("LINEUP_WS_QUEUE_FRAMES", "64"))
LINEUP_WS_QUEUE_BYTES = int(os.environ.get("LINEUP_WS_QUEUE_BYTES", str(1024 * 1024)))
LINEUP_AGENT_CONNECTIONS_PER_TOKEN = int(os.environ.get("LINEUP_AGENT_CONNECTIONS_PER_TOKEN", "32"))
LINEUP_AGENT_CONNECTIONS_PER_USER = int(os.environ.get("LINEUP_AGENT_CONNECTIONS_PER_USER", "64"))
LINEUP_WORKSPACE_CONNECTIONS_PER_USER = int(os.environ.get("LINEUP_WORKSPACE_CONNECTIONS_PER_USER", "32"))
LINEUP_MCP_IN_FLIGHT_PER_TOKEN = int(os.environ.get("LINEUP_MCP_IN_FLIGHT_PER_TOKEN", "4"))
LINEUP_MCP_IN_FLIGHT_PER_USER = int(os.environ.get("LINEUP_MCP_IN_FLIGHT_PER_USER", "8"))
LINEUP_MCP_REQUESTS_PER_SECOND_PER_TOKEN = float(os.environ.get("LINEUP_MCP_REQUESTS_PER_SECOND_PER_TOKEN", "5"))
# Each held tasks/result keeps a connection (a file descriptor) and a coroutine: half of the usual
# 1024 open files, leaving the rest to sockets, pages and the database.
LINEUP_MCP_HELD_PER_PROCESS = int(os.environ.get("LINEUP_MCP_HELD_PER_PROCESS", "512"))
LINEUP_STRANGER_LOOKUPS_PER_SECOND = float(os.environ.get("LINEUP_STRANGER_LOOKUPS_PER_SECOND", "50"))
LINEUP_STRANGER_LOOKUPS_PER_SECOND_PER_ADDRESS = float(
    os.environ.get("LINEUP_STRANGER_LOOKUPS_PER_SECOND_PER_ADDRESS", "5")
)
LINEUP_HTTP_MAX_BODY_BYTES = int(os.environ.get("LINEUP_HTTP_MAX_BODY_BYTES", str(4 * 1024 * 1024)))
LINEUP_HTTP_HEADER_TIMEOUT_SECONDS = float(os.environ.get("LINEUP_HTTP_HEADER_TIMEOUT_SECONDS", "10"))
LINEUP_HTTP_IDLE_TIMEOUT_SECONDS = float(os.environ.get("LINEUP_HTTP_IDLE_TIMEOUT_SECONDS", "60"))

# The built-in reference Agent, run inside the server process when this URL is set (run_embedded
# sets it to its own /ws/agent/). In production run `manage.py run_reference_agent` once instead.
LINEUP_REFERENCE_AGENT_URL = os.environ.get("LINEUP_REFERENCE_AGENT_URL", "")

# The built-in Agent is the LLM Agent (agents.llm) when both of these are set, the
# reference Agent otherwise; either runs wherever the reference Agent would.
LINEUP_LLM_BASE_URL = os.environ.get("LINEUP_LLM_BASE_URL", "").strip()
LINEUP_LLM_MODEL = os.environ.get("LINEUP_LLM_MODEL", "").strip()
LINEUP_LLM_API_KEY = os.environ.get("LINEUP_LLM_API_KEY") or os.environ.get("OPENAI_API_KEY", "")
LINEUP_LLM_TIMEOUT_SECONDS = float(os.environ.get("LINEUP_LLM_TIMEOUT_SECONDS", "60"))
LINEUP_LLM_MAX_RETRIES = int(os.environ.get("LINEUP_LLM_MAX_RETRIES", "2"))
LINEUP_LLM_CONTEXT_TOKENS = int(os.environ.get("LINEUP_LLM_CONTEXT_TOKENS") or 0) or None

# --- MiniApps -------------------------------------------------------------------------------
LINEUP_MANIFEST_GLOBS = [
    g.strip()
    for g in os.environ.get("LINEUP_MANIFEST_GLOBS", "interact/manifest.json,miniapps/*/manifest.json").split(",")
    if g.strip()
]
LINEUP_MANIFEST_GLOBS += [
    package.replace(".", "/") + "/manifest.json"
    for package, installed in ((CONFORMANCE_FIXTURES_APP, MCP_CONFORMANCE_FIXTURES), (CRASH_APP_PACKAGE, CRASH_APP))
    if installed
]

# --- Metrics and probes (lineup.probes, runtime.metrics) --------------------------------------
LINEUP_METRICS_DIR = os.environ.get("LINEUP_METRICS_DIR", "").strip()
if LINEUP_METRICS_DIR:
    # prometheus-client reads this when it is first imported (after the settings, by runtime.metrics).
    Path(LINEUP_METRICS_DIR).mkdir(parents=True, exist_ok=True)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = LINEUP_METRICS_DIR
LINEUP_METRICS_TOKEN = os.environ.get("LINEUP_METRICS_TOKEN", "")
LINEUP_METRICS_LOOPBACK = os.environ.get("LINEUP_METRICS_LOOPBACK", "1").strip().lower() not in ("0", "false", "no")
LINEUP_METRICS_NETWORKS = [n.strip() for n in os.environ.get("LINEUP_METRICS_NETWORKS", "").split(",") if n.strip()]

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

# --- HTTPS, CSP and sign-in throttling -------------------------------------------------------
LINEUP_BEHIND_TLS_PROXY = _env_flag("LINEUP_BEHIND_TLS_PROXY", False)
LINEUP_HTTPS = _env_flag("LINEUP_HTTPS", LINEUP_BEHIND_TLS_PROXY)
if LINEUP_BEHIND_TLS_PROXY:
    # Only behind a proxy that sets this header itself (and drops a client's): else anyone could.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
if LINEUP_HTTPS:
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("LINEUP_HSTS_SECONDS", str(365 * 24 * 60 * 60)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = _env_flag("LINEUP_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = _env_flag("LINEUP_HSTS_PRELOAD", True)

# The sign-in page and the admin: their own scripts and styles only, no frames, forms to this site.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'none'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "base-uri": ["'none'"],
        "object-src": ["'none'"],
        "frame-ancestors": ["'none'"],
    }
}

# django-axes on /accounts/login/ and /admin/login/ (decision 0018): after this many failed
# sign-ins of one username from one address, that pair is refused until the cool-off has passed
# or an admin unlocks it (Axes -> Access attempts -> delete). A success resets the count.
AXES_FAILURE_LIMIT = int(os.environ.get("LINEUP_LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = float(os.environ.get("LINEUP_LOGIN_COOLOFF_MINUTES", "15")) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "lineup.lockout.locked_out"
AXES_VERBOSE = False
# ... and an address is refused after this many failures across all usernames (lineup.login_throttle).
AXES_HANDLER = "lineup.login_throttle.AddressAwareHandler"
LINEUP_LOGIN_ADDRESS_FAILURE_LIMIT = int(os.environ.get("LINEUP_LOGIN_ADDRESS_FAILURE_LIMIT", "30"))
# The address is REMOTE_ADDR, or behind N proxies of ours the N-th X-Forwarded-For entry from the
# right (lineup.client_address); never Daphne's --proxy-headers, which believes the client's.
LINEUP_TRUSTED_PROXY_HOPS = int(os.environ.get("LINEUP_TRUSTED_PROXY_HOPS", "0"))
AXES_CLIENT_IP_CALLABLE = "lineup.client_address.client_ip"

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
    "filters": {"quiet_sweep": {"()": "lineup.logs.QuietPeriodicSweep"}},
    "handlers": {
        # stderr, so a command's own output on stdout (recover_runtime --json) stays parseable.
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "structured",
            "filters": ["quiet_sweep"],
        },
    },
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "daphne": {"level": "WARNING"},
        "celery": {"level": "INFO"},
    },
}
