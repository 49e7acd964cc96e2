from django.contrib import messages
from django.contrib.auth import login
from django.shortcuts import redirect, render
from django.views.decorators.debug import sensitive_post_parameters

from campaigns.forms import SignupForm


@sensitive_post_parameters("password1", "password2")
def signup(request):
    """Sign up with Django's own form; the new user is logged in and lands on the dashboard."""
    if request.user.is_authenticated:
        return redirect("dashboard")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.get_username()}! Create a campaign or join one.")
        return redirect("dashboard")
    return render(request, "registration/signup.html", {"form": form})
