"""Rulings as links a player can follow: "RULING T-4" on a page becomes the ruling's name, linked to
its line on the rules page. No internal id is shown as text."""

from __future__ import annotations

import re
from functools import lru_cache

from django import template
from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

from combat import rules

register = template.Library()

# "RULING T-2", "RULINGS D-6, D-7 and D-9", "RULINGS A-1 to A-4": the word and every id after it.
CITATION = re.compile(r"\bRULINGS? ((?:[A-Z]-\d{1,2})(?:(?:, | and | to |, and )[A-Z]-\d{1,2})*)")
RULING_ID = re.compile(r"[A-Z]-\d{1,2}")


@register.simple_tag
def ruling_link(ruling_id: str) -> SafeString:
    """One ruling's name linked to the rules page (the id as text only for an id no ruling has)."""
    try:
        title = rules.ruling_title(ruling_id)
    except ValueError:
        return conditional_escape(ruling_id)
    url = f"{reverse('rules')}#ruling-{ruling_id}"
    # No tooltip with the ruling's sentence: it is in the rules' own words ("Battlekit"), which a Fallout:
    # Factions campaign calls otherwise; the rules page says it in full.
    return format_html('<a class="ruling" href="{}">{}</a>', url, title)


def _cited(match: re.Match) -> str:
    ids = RULING_ID.findall(match.group(1))
    if not all(ruling_id in rules.RULING_TITLES for ruling_id in ids):
        return match.group(0)  # not a citation of ours: left as it was written
    return RULING_ID.sub(lambda found: ruling_link(found.group(0)), match.group(1))


@register.filter(is_safe=True)
def with_rulings(text) -> SafeString:
    """The text escaped, each "RULING X-n" in it turned into the ruling's linked name."""
    return _linked(str(conditional_escape(text)), get_script_prefix(), get_urlconf(settings.ROOT_URLCONF))


@lru_cache(maxsize=1024)
def _linked(escaped: str, prefix: str, urlconf: str) -> SafeString:
    """The escaped text with its rulings linked, kept by the text and what `reverse` reads (the script prefix and
    the URLconf): a page's rows say the same few sentences (the Experience's words for each fighter), and
    linking each again took a regular expression and a `reverse` per ruling per row."""
    return mark_safe(CITATION.sub(_cited, escaped))  # noqa: S308 - escaped by the caller
