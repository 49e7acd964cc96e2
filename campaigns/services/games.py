"""The campaign's game counter: games are numbered 1, 2, ... per campaign, and a number is never given twice.

Recording a game needs warbands, so it is `rosters.services`' write; the number is the campaign's own invariant,
kept here (call it inside the write that creates the game).
"""

from django.db import transaction
from django.db.models import Max

from campaigns.models import Campaign, Game


@transaction.atomic
def campaign_next_game_number(*, campaign: Campaign) -> int:
    """The number of the campaign's next game, counted at once.

    The campaign row is locked first, so two games recorded at once get different numbers; the counter only goes
    up, so a deleted game's number is not given to the next one (its history keeps meaning that game). Games made
    elsewhere (the admin) are counted too. The counter is bookkeeping, not a change anyone reads in the history
    (`last_game_number` is left out of the campaign's tracked updates).
    """
    locked = Campaign.objects.select_for_update().only("last_game_number").get(pk=campaign.pk)
    highest = Game.objects.filter(campaign=campaign).aggregate(top=Max("number"))["top"] or 0
    number = max(locked.last_game_number, highest) + 1
    Campaign.objects.filter(pk=campaign.pk).update(last_game_number=number)
    return number
