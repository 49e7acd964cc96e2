"""`{{ user|person }}`: a person by their display name on every page (campaigns/people.py)."""

from django import template

from campaigns.people import display_name

register = template.Library()


@register.filter
def person(user) -> str:
    return display_name(user)
