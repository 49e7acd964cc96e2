from django.urls import path

from campaigns.views import dashboard

urlpatterns = [
    path("", dashboard.dashboard, name="dashboard"),
]
