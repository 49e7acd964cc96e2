from django.urls import path

from campaigns.throttling import throttled
from campaigns.views import accounts, password_reset

# Sign-up and password reset are throttled per address (and per e-mail); login is django-axes' (issue 14).
urlpatterns = [
    path("profile/", accounts.account, name="account"),
    path(
        "signup/",
        throttled("sign-up", limit_setting="SIGNUPS_PER_HOUR")(accounts.signup),
        name="signup",
    ),
    path(
        "password_reset/",
        throttled("password reset", limit_setting="PASSWORD_RESETS_PER_HOUR", fields=("email",))(
            password_reset.password_reset
        ),
        name="password_reset",
    ),
]
