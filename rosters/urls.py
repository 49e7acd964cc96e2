from django.urls import path  # noqa: F401 - patterns are added by the roster pages

urlpatterns: list = []
