from django.contrib import messages
from django.contrib.auth import login
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.debug import sensitive_post_parameters

from campaigns.forms import SignupForm


def _next(request) -> str | None:
    """Where to go after signing up: a page of this site (an invitation link, typically), or nowhere."""
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


@sensitive_post_parameters("password1", "password2")
def signup(request):
    """Sign up with Django's own form; the new user is logged in and lands on the dashboard, or back on the
    invitation link that sent them here (`next`)."""
    if request.user.is_authenticated:
        return redirect("dashboard")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.get_username()}! Create a campaign or join one.")
        return redirect(_next(request) or "dashboard")
    return render(request, "registration/signup.html", {"form": form, "next": _next(request) or ""})
