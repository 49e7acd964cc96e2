"""The account pages' URLs (/accounts/): the views are campaigns', the throttle in front of sign-up and password
reset is the site's (config/throttling.py), which no app may import; so the two meet here."""

from django.urls import path

from campaigns.views import accounts, password_reset
from config.throttling import throttled

# Sign-up and password reset are throttled per address (and per e-mail); login is django-axes'.
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
