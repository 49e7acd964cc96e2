"""`{{ warband.name|possessive }}`: a name with its possessive ("Pilgrims'", "Pat's"), in every template (a
builtin, config/settings.py)."""

from django import template

from campaigns.words import possessive as possessive_of

register = template.Library()


@register.filter
def possessive(name) -> str:
    return possessive_of(name)
