from django.urls import path

from campaigns.views import accounts

urlpatterns = [
    path("signup/", accounts.signup, name="signup"),
]
