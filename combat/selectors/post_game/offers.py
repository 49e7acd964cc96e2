"""Ransom offers waiting for an answer (TRAUMA_TABLE.md 12), as each player's dashboard shows them: the captor's
player sees the offers to accept or refuse, the captive's owner the offers waiting for the captor's answer.

Registered with `rosters.selectors.waiting` from `CombatConfig.ready()`; one query whatever the number of offers.
"""

from __future__ import annotations

from django.db.models import Q
from django.urls import reverse

from campaigns.models import Membership
from combat.models import PostGame, PostGameFighter
from combat.rules.words import possessive
from rosters.history.lookups import display_name
from rosters.selectors.waiting import WaitingAction, WaitingItem


def _writes_in(user):
    """The campaigns where the user may answer for the warbands they own: a player's or the organiser's (a
    spectator only reads, even one who still owns a warband: docs/architecture.md, "Who may do what")."""
    return Membership.objects.filter(
        user=user, role__in=(Membership.Role.PLAYER, Membership.Role.ORGANISER)
    ).values("campaign_id")


OFFER_COLUMNS = (
    "ransom_offer",
    "fighter__name",
    "captor__name",
    "captor__owner__username",
    "captor__owner__first_name",
    "post_game__player__game__number",
    "post_game__player__game__campaign__preset",
    "post_game__player__warband__name",
)


def waiting_offers(*, user) -> list[PostGameFighter]:
    """The offers not yet answered that the user makes (owner of the captive's warband) or answers (the captor's
    player, while a player or the organiser of the campaign)."""
    return list(
        PostGameFighter.objects.filter(
            ransom_paid__isnull=True,
            ransom_offer__isnull=False,
            captor__isnull=False,
            post_game__status=PostGame.Status.OPEN,
        )
        .filter(
            Q(captor__owner=user, captor__campaign__in=_writes_in(user))
            | Q(post_game__player__warband__owner=user)
        )
        .select_related(
            "fighter", "captor__owner", "post_game__player__game__campaign", "post_game__player__warband"
        )
        # Only what the lines say: the dashboard asks on every render, and building and filling every column of
        # six tables' rows was most of its time.
        .only(*OFFER_COLUMNS)
        .order_by("post_game__player__game__number", "fighter__name", "pk")
    )


def _item(offer: PostGameFighter, user) -> WaitingItem:
    player = offer.post_game.player
    game, warband, captor = player.game, player.warband, offer.captor
    currency = game.campaign.terms.currency
    args = [game.pk, warband.pk]
    page = reverse("post_game_elites", args=args) + f"#fighter-{offer.fighter_id}"
    if captor.owner_id == user.pk:
        url = reverse("post_game_ransom_answer", args=args)
        fields = (("fighter", str(offer.fighter_id)), ("back", "dashboard"))
        return WaitingItem(
            key=f"ransom-{offer.pk}",
            text=f"{warband.name} offers {offer.ransom_offer} {currency} for {offer.fighter.name} "
            f"(Game {game.number}), held by {captor.name}.",
            link=page,
            link_label="See the post-game",
            actions=(
                WaitingAction("Accept", url, (*fields, ("answer", "accept"))),
                WaitingAction("Refuse", url, (*fields, ("answer", "refuse")), secondary=True),
            ),
        )
    return WaitingItem(
        key=f"ransom-{offer.pk}",
        text=f"{possessive(offer.fighter.name)} ransom (Game {game.number}): {offer.ransom_offer} {currency} "
        f"offered to {captor.name}, waiting for {possessive(display_name(captor.owner))} answer.",
        link=page,
        link_label="Open the post-game",
    )


def ransom_items(*, user) -> list[WaitingItem]:
    """The dashboard's ransom lines for the user (`rosters.selectors.waiting` provider)."""
    return [_item(offer, user) for offer in waiting_offers(user=user)]
