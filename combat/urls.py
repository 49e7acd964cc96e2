from django.urls import path

from combat.views import dice_log

urlpatterns = [
    path("campaigns/<int:campaign_id>/dice/", dice_log.campaign_dice_log, name="campaign_dice_log"),
]

# The in-game tracker (issue 7). The game page links to `tracker` by its literal path, /games/<id>/tracker/.
from combat.views import tracker as tracker_views  # noqa: E402

TRACKER = "games/<int:game_id>/tracker/"
TRACKER_FIGHTER = f"{TRACKER}fighters/<int:fighter_id>/"
urlpatterns += [
    path(TRACKER, tracker_views.tracker, name="tracker"),
    path(f"{TRACKER}board/", tracker_views.tracker_board, name="tracker_board"),
    path(f"{TRACKER}undo/", tracker_views.tracker_undo, name="tracker_undo"),
    path(f"{TRACKER}end/", tracker_views.tracker_end, name="tracker_end"),
    path(f"{TRACKER}ties/", tracker_views.tracker_ties, name="tracker_ties"),
    path(f"{TRACKER}confusion/friends/", tracker_views.tracker_friends, name="tracker_friends"),
    path(f"{TRACKER}confusion/test/", tracker_views.tracker_confusion_test, name="tracker_confusion_test"),
    path(
        f"{TRACKER}confusion/choice/", tracker_views.tracker_confusion_choice, name="tracker_confusion_choice"
    ),
    path(TRACKER_FIGHTER, tracker_views.tracker_target, name="tracker_target"),
    path(f"{TRACKER_FIGHTER}damage/", tracker_views.tracker_damage, name="tracker_damage"),
    path(f"{TRACKER_FIGHTER}attack/", tracker_views.tracker_attack, name="tracker_attack"),
    path(f"{TRACKER_FIGHTER}fatigue/", tracker_views.tracker_fatigue, name="tracker_fatigue"),
    path(f"{TRACKER_FIGHTER}recover-harm/", tracker_views.tracker_recover_harm, name="tracker_recover_harm"),
]
