"""The rules page at `/rules/`: every ruling the tool applies, each a line a link elsewhere can point at."""

from django.shortcuts import render
from django.views.decorators.http import require_GET

from combat.selectors.rules_page import rules_page


@require_GET
def rules(request):
    """Readable by anyone, logged in or not: the rulings are the project's, and a player may read them at the
    table before joining a campaign."""
    return render(request, "combat/rules.html", {"sections": rules_page()})
