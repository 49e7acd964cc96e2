"""Small helpers the roster views share."""

from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme

# Invalid input answers 422 with the form and its messages; base.html tells htmx to swap 422 responses in.
UNPROCESSABLE = 422


def add_errors(form, error: ValidationError) -> None:
    """A service's refusal shown on the form, as a message above its fields."""
    for message in error.messages:
        form.add_error(None, message)


def back_url(request, fallback: str) -> str:
    """The page the form was opened from (a `next` naming a page of this site), else `fallback`."""
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


def redirect_back(request, fallback: str):
    """Back to the page the form was on (a `next` field naming a page of this site), else to `fallback`."""
    return redirect(back_url(request, fallback))
