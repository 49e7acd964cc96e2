from django.urls import path  # noqa: F401 - patterns are added by the tracker and post-game pages

urlpatterns: list = []
