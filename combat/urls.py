from django.urls import path

from combat.views import campaign_stats, dice_log, rules

urlpatterns = [
    path("rules/", rules.rules, name="rules"),
    path("campaigns/<int:campaign_id>/dice/", dice_log.campaign_dice_log, name="campaign_dice_log"),
    path("campaigns/<int:campaign_id>/stats/", campaign_stats.campaign_stats_page, name="campaign_stats"),
    # A warband's roll history: the dice log of its rolls, linked from its roster and history.
    path("warbands/<int:warband_id>/dice/", dice_log.warband_dice_log, name="warband_dice_log"),
]

# A late joiner's starting XP (CAMPAIGN_PHASE.md, late joiners).
from combat.views import starting_xp  # noqa: E402

urlpatterns += [
    path("warbands/<int:warband_id>/starting-xp/", starting_xp.starting_xp, name="starting_xp"),
    path(
        "warbands/<int:warband_id>/starting-xp/share/",
        starting_xp.starting_xp_share,
        name="starting_xp_share",
    ),
    path(
        "warbands/<int:warband_id>/starting-xp/apply/",
        starting_xp.starting_xp_apply,
        name="starting_xp_apply",
    ),
    path(
        "warbands/<int:warband_id>/starting-xp/rolls/<int:roll_id>/correct/",
        starting_xp.starting_xp_correct,
        name="starting_xp_correct",
    ),
]

# The post-game wizard. The game page links to `post_game` by its literal path. Each step's page comes from the
# registry of steps (combat/selectors/post_game/steps.py): `<post-game>/<key>/`, named and served as its entry says.
from django.utils.module_loading import import_string  # noqa: E402

from combat.selectors.post_game.steps import POST_GAME_STEPS  # noqa: E402
from combat.views.post_game import apply as post_game_apply  # noqa: E402
from combat.views.post_game import fixes as post_game_fixes  # noqa: E402
from combat.views.post_game import pages as post_game_pages  # noqa: E402
from combat.views.post_game import ransom as post_game_ransom  # noqa: E402
from combat.views.post_game import rolls as post_game_rolls  # noqa: E402

POST_GAME = "games/<int:game_id>/post-game/<int:warband_id>/"
urlpatterns += [
    path(POST_GAME, post_game_pages.post_game, name="post_game"),
    path(f"{POST_GAME}status/", post_game_pages.post_game_status, name="post_game_status"),
    *(
        path(f"{POST_GAME}{entry.key}/", import_string(entry.view), name=entry.url_name)
        for entry in POST_GAME_STEPS
    ),
    path(f"{POST_GAME}roll/", post_game_rolls.post_game_roll, name="post_game_roll"),
    path(f"{POST_GAME}ransom/", post_game_ransom.post_game_ransom, name="post_game_ransom"),
    path(
        f"{POST_GAME}ransom/withdraw/",
        post_game_ransom.post_game_ransom_withdraw,
        name="post_game_ransom_withdraw",
    ),
    path(
        f"{POST_GAME}ransom/answer/", post_game_ransom.post_game_ransom_answer, name="post_game_ransom_answer"
    ),
    path(
        f"{POST_GAME}ransom/reopen/", post_game_ransom.post_game_ransom_reopen, name="post_game_ransom_reopen"
    ),
    path(f"{POST_GAME}apply/", post_game_apply.post_game_apply, name="post_game_apply"),
    path(f"{POST_GAME}revert/", post_game_apply.post_game_revert, name="post_game_revert"),
    path(
        f"{POST_GAME}rolls/<int:roll_id>/correct/",
        post_game_fixes.post_game_correct,
        name="post_game_correct",
    ),
    path(f"{POST_GAME}rolls/<int:roll_id>/void/", post_game_fixes.post_game_void, name="post_game_void"),
    path(
        f"{POST_GAME}fighters/<int:fighter_id>/reopen/",
        post_game_fixes.post_game_reopen,
        name="post_game_reopen",
    ),
    path(
        f"{POST_GAME}fighters/<int:fighter_id>/settle/",
        post_game_fixes.post_game_settle,
        name="post_game_settle",
    ),
    path(
        f"{POST_GAME}fighters/<int:fighter_id>/out-of-action/",
        post_game_fixes.post_game_reopened_mark,
        name="post_game_reopened_mark",
    ),
]

# The in-game tracker. The game page links to `tracker` by its literal path, /games/<id>/tracker/.
from combat.views import tracker as tracker_views  # noqa: E402
from combat.views import tracker_end, tracker_injury, tracker_target  # noqa: E402

TRACKER = "games/<int:game_id>/tracker/"
TRACKER_FIGHTER = f"{TRACKER}fighters/<int:fighter_id>/"
urlpatterns += [
    path(TRACKER, tracker_views.tracker, name="tracker"),
    path(f"{TRACKER}start/", tracker_views.tracker_start, name="tracker_start"),
    path(f"{TRACKER}board/", tracker_views.tracker_board, name="tracker_board"),
    path(f"{TRACKER}undo/", tracker_views.tracker_undo, name="tracker_undo"),
    path(f"{TRACKER}end/", tracker_end.tracker_end, name="tracker_end"),
    path(f"{TRACKER}ties/", tracker_views.tracker_ties, name="tracker_ties"),
    path(f"{TRACKER}shooting/end/", tracker_views.tracker_end_shooting, name="tracker_end_shooting"),
    path(f"{TRACKER}confusion/friends/", tracker_views.tracker_friends, name="tracker_friends"),
    path(f"{TRACKER}confusion/test/", tracker_views.tracker_confusion_test, name="tracker_confusion_test"),
    path(
        f"{TRACKER}confusion/choice/", tracker_views.tracker_confusion_choice, name="tracker_confusion_choice"
    ),
    path(TRACKER_FIGHTER, tracker_target.tracker_target, name="tracker_target"),
    path(f"{TRACKER_FIGHTER}card/", tracker_views.tracker_card, name="tracker_card"),
    path(f"{TRACKER_FIGHTER}damage/", tracker_target.tracker_damage, name="tracker_damage"),
    path(f"{TRACKER_FIGHTER}attack/", tracker_target.tracker_attack, name="tracker_attack"),
    path(f"{TRACKER_FIGHTER}fatigue/", tracker_views.tracker_fatigue, name="tracker_fatigue"),
    path(f"{TRACKER_FIGHTER}recover-harm/", tracker_views.tracker_recover_harm, name="tracker_recover_harm"),
    path(f"{TRACKER_FIGHTER}harm/", tracker_views.tracker_add_harm, name="tracker_add_harm"),
    path(f"{TRACKER_FIGHTER}injury/", tracker_views.tracker_add_injury, name="tracker_add_injury"),
    path(
        f"{TRACKER_FIGHTER}out-of-action/", tracker_views.tracker_out_of_action, name="tracker_out_of_action"
    ),
    path(f"{TRACKER_FIGHTER}back-in-play/", tracker_views.tracker_back_in_play, name="tracker_back_in_play"),
    # Trench Crusade (TC_IN_GAME.md): the Injury Roll's short form with its odds, the roll, the one-tap markers.
    path(f"{TRACKER_FIGHTER}injury-roll/", tracker_injury.tracker_injury, name="tracker_injury"),
    path(
        f"{TRACKER_FIGHTER}injury-roll/roll/", tracker_injury.tracker_injury_roll, name="tracker_injury_roll"
    ),
    path(f"{TRACKER_FIGHTER}markers/", tracker_injury.tracker_markers, name="tracker_markers"),
]

# The house Trauma Table editor, linked from the campaign's settings page (it moved here from campaigns).
from combat.views import trauma_table as trauma_table_views  # noqa: E402

urlpatterns += [
    path(
        "campaigns/<int:campaign_id>/settings/trauma-table/",
        trauma_table_views.campaign_trauma_table,
        name="campaign_trauma_table",
    ),
]

# The campaign's data: skill charts, Location tables, fighter types, Patron skills, versioned.
from combat.views import campaign_data as campaign_data_views  # noqa: E402

CAMPAIGN_DATA = "campaigns/<int:campaign_id>/data/"
urlpatterns += [
    path(CAMPAIGN_DATA, campaign_data_views.campaign_data, name="campaign_data"),
    path(
        f"{CAMPAIGN_DATA}<str:data_kind>/", campaign_data_views.campaign_data_kind, name="campaign_data_kind"
    ),
    path(
        f"{CAMPAIGN_DATA}<str:data_kind>/export/",
        campaign_data_views.campaign_data_export,
        name="campaign_data_export",
    ),
]

# A game's scenario roll: the game page links to it by name.
from combat.views import scenario as scenario_views  # noqa: E402

urlpatterns += [path("games/<int:game_id>/scenario/", scenario_views.game_scenario, name="game_scenario")]
