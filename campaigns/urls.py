from django.urls import path

from campaigns.views import campaigns, invitations, members, reports

# The house Trauma Table editor (/campaigns/<id>/settings/trauma-table/) is combat's: combat/urls.py.
# The dashboard (/) and the campaign page (/campaigns/<id>/) show warbands, so they live in rosters/urls.py.
urlpatterns = [
    path("campaigns/new/", campaigns.campaign_create, name="campaign_create"),
    path("campaigns/<int:campaign_id>/settings/", campaigns.campaign_settings, name="campaign_settings"),
    path(
        "campaigns/<int:campaign_id>/settings/invitation/",
        invitations.campaign_rotate_invitation,
        name="campaign_rotate_invitation",
    ),
    path(
        "campaigns/<int:campaign_id>/members/<int:membership_id>/",
        members.campaign_member,
        name="campaign_member",
    ),
    path("games/<int:game_id>/report/", reports.game_report, name="game_report"),
    path("join/<str:code>/", invitations.campaign_join, name="campaign_join"),
]
