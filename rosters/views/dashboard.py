"""The home page. It shows warbands and games, so it lives in `rosters`, the highest app it needs."""

from django.shortcuts import render

from rosters.selectors import dashboard_for


def dashboard(request):
    """A visitor learns what the tool is; a member sees their campaigns, warbands and what waits for them."""
    if not request.user.is_authenticated:
        return render(request, "campaigns/welcome.html")
    return render(request, "rosters/dashboard.html", {"dashboard": dashboard_for(user=request.user)})
