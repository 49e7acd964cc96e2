"""Settings, read from the environment (see `.env.example`).

Development (`make run`) sets DEBUG=true; anything else is production and needs SECRET_KEY, ALLOWED_HOSTS and,
behind a proxy that terminates TLS, CSRF_TRUSTED_ORIGINS.
"""

from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from config.cache import cache_config
from config.database import database_config
from config.env import env_bool, env_int, env_list, env_origins, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", default=False)

SECRET_KEY = env_str("SECRET_KEY")
if SECRET_KEY is None:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off (generate one with "
            "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`)."
        )
    SECRET_KEY = "insecure-development-key-only-used-with-DEBUG-on"  # noqa: S105 - DEBUG only

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_origins("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.forms",
    "django_htmx",
    "template_partials",
    "pgtrigger",
    "pghistory",
    "pghistory.admin",
    # Login throttling: failures per user and per address, kept in the database for every process.
    "axes",
    "campaigns",
    "rosters",
    "combat",
    # The site on top of the apps: its management commands (backup, restore) and the page cache's tokens.
    "config",
]

MIDDLEWARE = [
    # Outermost: a lost database answers 503 (one retry for safe requests), /healthz answers before any session,
    # host or HTTPS check (config/middleware.py).
    "config.middleware.DatabaseOutageMiddleware",
    "config.middleware.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Compresses pages after every inner middleware has written them; below WhiteNoise, which serves
    # static files already compressed with brotli and gzip. Django 5.2's GZipMiddleware pads each compressed
    # page with random bytes in its gzip header, against BREACH (a length leak of the CSRF token in the page).
    "django.middleware.gzip.GZipMiddleware",
    # A page read again with nothing changed is answered from the shared cache before the session, CSRF and auth
    # middleware run (config/page_cache.py).
    "config.page_cache.PageCacheMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Every answer to a logged-in user is `private, no-store` unless its view says otherwise; inside the page
    # cache, so a kept page keeps the header (config/middleware.py).
    "config.middleware.PrivateCacheMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # An htmx request sent to log in (its session expired) gets HX-Redirect to the login page.
    "config.htmx_login.HtmxLoginRedirectMiddleware",
    # Records the user behind every tracked change (django-pghistory).
    "pghistory.middleware.HistoryMiddleware",
    # Last, as django-axes asks: turns a lockout into its 429 page.
    "axes.middleware.AxesMiddleware",
]

# pghistory's middleware reads the user of each request it tracks, to stamp the events written under it. GET never
# writes (tests/test_get_writes_nothing.py), so it is not tracked: the tracker's poll then answers from the cache
# without loading the user.
PGHISTORY_MIDDLEWARE_METHODS = ("POST", "PUT", "PATCH", "DELETE")

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

FORM_RENDERER = "config.forms.LedgerFormRenderer"

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
                # base.html's links and static addresses, worked out once per process.
                "config.context_processors.site_links",
            ],
            "builtins": [
                "template_partials.templatetags.partials",
                "campaigns.templatetags.choices",
                "campaigns.templatetags.people",
                "campaigns.templatetags.words",
                "combat.templatetags.rulings",
            ],
        },
    }
]

DATABASES = {"default": database_config(BASE_DIR)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes checks every login (the site's and the admin's) before Django's own backend does.
AUTHENTICATION_BACKENDS = [
    "config.throttling.LoginThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "dashboard"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# WhiteNoise serves from STATIC_ROOT after collectstatic; in DEBUG and tests it reads the finders instead.
WHITENOISE_USE_FINDERS = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # The project's CSS and JavaScript minified, then hashed and pre-compressed (config/storage.py).
    "staticfiles": {"BACKEND": "config.storage.MinifiedStaticStorage"},
}

# One cache for every web process: Redis when REDIS_URL is set (docker compose sets it), so the roster's
# fragments, the board's version and the readers the tracker's poll knows are shared by every worker and host;
# local memory otherwise (`make run`). The roster's parts are keyed on a digest of the rows they show
# (rosters/selectors/roster.py), so they are never stale in either. What is written when it changes (the board's
# version, the sessions) is only trusted from a cache every process shares (CACHE_IS_SHARED): in local memory
# another gunicorn worker would keep its own old copy, a logged-out session or a board two actions behind.
REDIS_URL = env_str("REDIS_URL")
CACHES = {"default": cache_config(REDIS_URL, key_prefix=env_str("CACHE_KEY_PREFIX", "wl"))}
CACHE_IS_SHARED = REDIS_URL is not None

# With Redis, sessions are read from the cache and written through to the database: a warm request needs no query
# for its session, and a flushed or restarted Redis logs nobody out. Without it, the database alone.
SESSION_ENGINE = (
    "django.contrib.sessions.backends.cached_db" if CACHE_IS_SHARED else "django.contrib.sessions.backends.db"
)

EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Warband Ledger <ledger@localhost>")

# Production hardening; `manage.py check --deploy` reports nothing with DEBUG off and these defaults.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
if env_bool("BEHIND_TLS_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"
# Docker's HEALTHCHECK asks over plain HTTP on the container's own address; config.middleware answers /healthz
# before SecurityMiddleware, and this keeps it so if the middleware order ever changes.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# Throttling. Login and the admin login: django-axes locks a username, and separately an address, out
# after LOGIN_FAILURE_LIMIT failures for LOGIN_COOLOFF_MINUTES. Sign-up and password reset: at most
# SIGNUPS_PER_HOUR / PASSWORD_RESETS_PER_HOUR per address (and per e-mail for resets), config/throttling.py.
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15))
# A username is locked at one address, never everyone behind an address (a gaming club shares one) nor a
# user everywhere; one address trying many usernames meets the much higher limit (config/throttling.py).
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", 50)
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/throttled.html"
AXES_CLIENT_IP_CALLABLE = "config.throttling.client_ip"
# Behind a TLS proxy every request comes from the proxy: the client is the address the proxy appended last.
THROTTLE_TRUST_FORWARDED_FOR = env_bool("BEHIND_TLS_PROXY", default=False)
SIGNUPS_PER_HOUR = env_int("SIGNUPS_PER_HOUR", 10)
PASSWORD_RESETS_PER_HOUR = env_int("PASSWORD_RESETS_PER_HOUR", 5)

# A strict Content-Security-Policy (django-csp). Scripts only from this site's own files: no inline
# script, no handler attribute, no eval (htmx's allowEval is off in base.html). Styles: only this site's
# stylesheets, no <style> element (htmx's own indicator style is off; ledger.css has it), but style="..."
# attributes are allowed (style-src-attr): the tracker's odds bars set their width from the numbers, and an
# attribute can neither select other elements nor read the page, so it is no way to exfiltrate it.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'none'"],
        "object-src": ["'none'"],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A refusal (403) is logged as one line, not with the traceback of the PermissionDenied that made it.
    "filters": {"refusals_without_traceback": {"()": "config.log_filters.RefusalsWithoutTraceback"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["refusals_without_traceback"]}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
