"""What waits for a member on their dashboard beyond their own post-games, told by the app that knows it.

`rosters` sits below `combat` and names none of its tables (docs/architecture.md): an app registers a provider from
its `AppConfig.ready()` (`register`), and the dashboard asks each one for the user's items. A provider reads
with a fixed number of queries whatever the number of items, so the dashboard's query count stays constant.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class WaitingAction:
    """A button on the dashboard: a plain POST form (no JavaScript needed) with its hidden fields."""

    label: str
    url: str
    fields: tuple[tuple[str, str], ...] = ()
    secondary: bool = False


@dataclass(frozen=True)
class WaitingItem:
    """One thing waiting for the user: a sentence, the page it is about, and what they can do about it."""

    key: str  # unique on the page (an HTML id)
    text: str
    link: str | None = None
    link_label: str = ""
    actions: tuple[WaitingAction, ...] = field(default_factory=tuple)


Provider = Callable[..., list[WaitingItem]]
_PROVIDERS: dict[str, Provider] = {}


def register(name: str, provider: Provider) -> None:
    """`provider(user=...)` gives the user's items; registering a name again replaces it."""
    _PROVIDERS[name] = provider


def waiting_items(*, user) -> list[WaitingItem]:
    return [item for provider in _PROVIDERS.values() for item in provider(user=user)]
