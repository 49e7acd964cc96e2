from django.shortcuts import render

from campaigns.selectors import campaigns_for_user


def dashboard(request):
    """The home page: a visitor learns what the tool is; a member sees their campaigns."""
    if not request.user.is_authenticated:
        return render(request, "campaigns/welcome.html")
    return render(request, "campaigns/dashboard.html", {"campaigns": campaigns_for_user(user=request.user)})
