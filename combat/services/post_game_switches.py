"""The house rules of a campaign's post-game: the organiser switches post-battle steps on or off, from the
campaign's data page. Which steps exist and what each reads is the engine's to say (`rules.post_game_sequence`,
combat/rules/post_game_steps.py); this stores the switches that differ from the preset's own, on the campaign, in
one write told in the history. A post-game already started keeps the steps it opened with (`PostGame.steps`)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from campaigns.models import Campaign
from campaigns.services.common import campaign_context, lock_campaign
from combat import rules

ACTION = "campaign.post_game_steps"


class PostGameSwitchError(Exception):
    """A set of switches the engine refuses; the message says why, in a player's words."""


def _words(switches: dict[str, bool]) -> str:
    return "; ".join(
        f"{rules.post_game_switch(key).name} switched {'on' if on else 'off'}"
        for key, on in sorted(switches.items())
    )


@transaction.atomic
def campaign_set_post_game_switches(*, campaign: Campaign, on: Iterable[str], by) -> Campaign:
    """The campaign's post-game takes exactly the switches in `on` (their keys), the others off. Stored: only those
    that differ from the preset's own. Refused, with nothing changed, for an unknown key or a step switched on
    without one it reads."""
    campaign = lock_campaign(campaign)
    wanted = set(on)
    try:
        for key in wanted:
            rules.post_game_switch(key)
        own = rules.preset_switches_on(campaign.preset)
        switches = {
            switch.key: switch.key in wanted
            for switch in rules.POST_GAME_SWITCHES
            if (switch.key in wanted) != (switch.key in own)
        }
        rules.post_game_sequence(preset=campaign.preset, switches=switches)
    except ValueError as error:
        raise PostGameSwitchError(str(error)[:1].upper() + str(error)[1:] + ".") from None
    if switches == (campaign.post_game_switches or {}):
        return campaign
    before = campaign.post_game_switches or {}
    changed = {key: on for key, on in switches.items() if before.get(key) != on}
    changed.update({key: key in own for key in before if key not in switches})
    with campaign_context(
        action=ACTION,
        reason=f"Post-game house rules: {_words(changed)}",
        campaign=campaign,
        by=by,
    ):
        campaign.post_game_switches = switches
        campaign.save(update_fields=["post_game_switches"])
    return campaign
