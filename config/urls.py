from django.contrib import admin
from django.urls import include, path

from config import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("campaigns.urls_accounts")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("campaigns.urls")),
    path("", include("rosters.urls")),
    path("", include("combat.urls")),
]
