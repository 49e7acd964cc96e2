from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.debug import sensitive_post_parameters

from campaigns.forms import AccountForm, SignupForm
from campaigns.people import display_name
from campaigns.services.accounts import account_update

UNPROCESSABLE = 422


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
        messages.success(request, f"Welcome, {display_name(user)}! Create a campaign or join one.")
        return redirect(_next(request) or "dashboard")
    return render(request, "registration/signup.html", {"form": form, "next": _next(request) or ""})


@login_required
def account(request):
    """The account page: the username one logs in with (shown only here), the display name everyone sees, the
    e-mail, and the way to change the password."""
    user = request.user
    initial = {"display_name": user.first_name or user.get_username(), "email": user.email}
    form = AccountForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            account_update(user=user, **form.cleaned_data)
        except ValidationError as error:
            for field, errors in error.message_dict.items():
                form.add_error(field if field in form.fields else None, errors)
        else:
            messages.success(
                request, "Saved: the group now sees you as " + form.cleaned_data["display_name"] + "."
            )
            return redirect("account")
    status = UNPROCESSABLE if request.method == "POST" else 200
    return render(request, "registration/account.html", {"form": form}, status=status)
