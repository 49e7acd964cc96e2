"""Strict readers for settings that come from the environment.

A malformed value stops the process at start with a message that names the variable, rather than running
with a guess: `DEBUG=ture` must not quietly mean "off" on one machine and "on" on another.
"""

import os
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_str(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip()


def env_bool(name: str, default: bool) -> bool:
    value = env_str(name)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be one of true/false, yes/no, on/off or 1/0; got {value!r}.")


def env_int(name: str, default: int) -> int:
    value = env_str(name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number; got {value!r}.") from None


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list; blanks between commas are refused so a typo is not silently dropped."""
    value = env_str(name)
    if value is None:
        return list(default)
    items = [item.strip() for item in value.split(",")]
    if any(not item for item in items):
        raise ImproperlyConfigured(
            f"{name} must be a comma-separated list with no empty items; got {value!r}."
        )
    return items


def env_origins(name: str, default: list[str]) -> list[str]:
    """Origins such as https://ledger.example.org, as CSRF_TRUSTED_ORIGINS wants them."""
    origins = env_list(name, default)
    for origin in origins:
        parts = urlsplit(origin)
        if parts.scheme not in {"http", "https"} or not parts.netloc or parts.path not in {"", "/"}:
            raise ImproperlyConfigured(
                f"{name} must list origins like https://ledger.example.org (scheme and host, no path); "
                f"got {origin!r}."
            )
    return origins
