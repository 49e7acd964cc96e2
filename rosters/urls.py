from django.urls import path  # noqa: F401 - patterns are added by the roster pages

urlpatterns: list = []

# History, exports and read-only sharing (issue 6).
from rosters.views import history as history_views  # noqa: E402

urlpatterns += [
    path("campaigns/<int:campaign_id>/history/", history_views.campaign_history, name="campaign_history"),
    path(
        "campaigns/<int:campaign_id>/history.csv",
        history_views.campaign_history_csv,
        name="campaign_history_csv",
    ),
    path("warbands/<int:warband_id>/history/", history_views.warband_history, name="warband_history"),
    path("warbands/<int:warband_id>/as-of/<int:game_id>/", history_views.warband_as_of, name="warband_as_of"),
    path("fighters/<int:fighter_id>/history/", history_views.fighter_history, name="fighter_history"),
]

from rosters.views import portability  # noqa: E402

urlpatterns += [
    path("warbands/<int:warband_id>/export.json", portability.warband_export, name="warband_export"),
    path("campaigns/<int:campaign_id>/import/", portability.warband_import, name="warband_import"),
]
