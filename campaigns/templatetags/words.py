"""`{{ warband.name|possessive }}`: a name with its possessive ("Pilgrims'", "Pat's"), and `{{ fighter|profile:terms }}`:
a fighter's stats in its campaign's profile (campaigns/profiles.py), in every template (a builtin,
config/settings.py)."""

from django import template

from campaigns.profiles import ShownStat, profile_of
from campaigns.terms import Terms
from combat.rules.words import possessive as possessive_of

register = template.Library()


@register.filter
def possessive(name) -> str:
    return possessive_of(name)


@register.filter
def profile(fighter, terms: Terms) -> list[ShownStat]:
    return profile_of(fighter, terms.profile)
