from django.urls import path

from rosters.views import (
    campaigns,
    cards,
    dashboard,
    fighters,
    game_scores,
    games,
    items,
    ledger,
    portability,
    price_lists,
    recruit,
    share,
    warbands,
)
from rosters.views import history as history_views

urlpatterns = [
    path("", dashboard.dashboard, name="dashboard"),
    # The campaign page shows warbands, so it is served here (docs/architecture.md); its settings are campaigns'.
    path("campaigns/<int:campaign_id>/", campaigns.campaign_detail, name="campaign_detail"),
    path("campaigns/<int:campaign_id>/warbands/new/", campaigns.warband_create, name="warband_create"),
    path("campaigns/<int:campaign_id>/games/new/", games.game_create, name="game_create"),
    path("warbands/<int:warband_id>/", warbands.warband_detail, name="warband_detail"),
    path("warbands/<int:warband_id>/edit/", warbands.warband_edit, name="warband_edit"),
    path("warbands/<int:warband_id>/print/", warbands.warband_print, name="warband_print"),
    path("warbands/<int:warband_id>/cards/", cards.warband_cards, name="warband_cards"),
    path("warbands/<int:warband_id>/fighters/new/", fighters.fighter_create, name="fighter_create"),
    path("warbands/<int:warband_id>/recruit/", recruit.warband_recruit, name="warband_recruit"),
    path("warbands/<int:warband_id>/items/new/", warbands.item_create, name="item_create"),
    path("warbands/<int:warband_id>/items/move/", warbands.item_move, name="item_move"),
    path("fighters/<int:fighter_id>/", fighters.fighter_detail, name="fighter_detail"),
    path("fighters/<int:fighter_id>/card/", cards.fighter_card_print, name="fighter_card_print"),
    path("fighters/<int:fighter_id>/edit/", fighters.fighter_edit, name="fighter_edit"),
    path("fighters/<int:fighter_id>/row/", fighters.fighter_row, name="fighter_row"),
    path("fighters/<int:fighter_id>/xp/", fighters.fighter_xp, name="fighter_xp"),
    path("fighters/<int:fighter_id>/remove/", fighters.fighter_remove, name="fighter_remove"),
    path("fighters/<int:fighter_id>/restore/", fighters.fighter_restore, name="fighter_restore"),
    path("fighters/<int:fighter_id>/injuries/new/", fighters.injury_create, name="injury_create"),
    path("injuries/<int:injury_id>/delete/", fighters.injury_delete, name="injury_delete"),
    path("fighters/<int:fighter_id>/skills/new/", fighters.skill_create, name="skill_create"),
    path("skills/<int:skill_id>/delete/", fighters.skill_delete, name="skill_delete"),
    path("items/<int:item_id>/edit/", items.item_edit, name="item_edit"),
    path("items/<int:item_id>/delete/", items.item_delete, name="item_delete"),
    path("games/<int:game_id>/", games.game_detail, name="game_detail"),
    path("games/<int:game_id>/edit/", games.game_edit, name="game_edit"),
    path("games/<int:game_id>/score/", game_scores.game_score, name="game_score"),
    path("games/<int:game_id>/delete/", games.game_delete, name="game_delete"),
]

# History, exports and read-only sharing.
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

urlpatterns += [
    path("warbands/<int:warband_id>/export.json", portability.warband_export, name="warband_export"),
    path("campaigns/<int:campaign_id>/import/", portability.warband_import, name="warband_import"),
]

urlpatterns += [
    path("campaigns/<int:campaign_id>/share/", share.campaign_share, name="campaign_share"),
    path("campaigns/<int:campaign_id>/share/new/", share.campaign_share_create, name="campaign_share_create"),
    path(
        "campaigns/<int:campaign_id>/share/revoke/", share.campaign_share_revoke, name="campaign_share_revoke"
    ),
    path("share/<str:token>/", share.share_campaign, name="share_campaign"),
    path("share/<str:token>/history/", share.share_history, name="share_history"),
    path("share/<str:token>/warbands/<int:warband_id>/", share.share_warband, name="share_warband"),
    path(
        "share/<str:token>/warbands/<int:warband_id>/as-of/<int:game_id>/",
        share.share_as_of,
        name="share_as_of",
    ),
]

# Price lists, the Strongbox's ledger, selling Battlekit.
urlpatterns += [
    path("campaigns/<int:campaign_id>/prices/", price_lists.price_lists, name="price_lists"),
    path("campaigns/<int:campaign_id>/games/", campaigns.campaign_games, name="campaign_games"),
    path("games/<int:game_id>/fielded/<int:warband_id>/", games.game_field, name="game_field"),
    path("warbands/<int:warband_id>/disband/", warbands.warband_disband, name="warband_disband"),
    path("warbands/<int:warband_id>/ledger/", ledger.warband_ledger, name="warband_ledger"),
    path("items/<int:item_id>/sell/", items.item_sell, name="item_sell"),
    path(
        "campaigns/<int:campaign_id>/prices/<str:kind>/export/",
        price_lists.price_list_export,
        name="price_list_export",
    ),
]
