from django.urls import path

from combat.views import dice_log

urlpatterns = [
    path("campaigns/<int:campaign_id>/dice/", dice_log.campaign_dice_log, name="campaign_dice_log"),
]
