"""Ransom offers waiting for an answer (TRAUMA_TABLE.md 12), as each player's dashboard shows them: the captor's
player sees the offers to accept or refuse, the captive's owner the offers waiting for the captor's answer.

Registered with `rosters.selectors.waiting` from `CombatConfig.ready()`; one query whatever the number of offers.
"""

# ruff: noqa: S608 - the SQL below is assembled from table names in Django's model metadata and fixed column
# names only; every value (the user, the status, the roles) is passed as a query parameter.
from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import connection
from django.urls import reverse

from campaigns.models import Campaign, Game, GamePlayer, Membership
from campaigns.terms import terms_for
from combat.models import PostGame, PostGameFighter
from combat.rules.words import possessive
from rosters.history.lookups import display_name
from rosters.models import Fighter, Warband
from rosters.selectors.waiting import WaitingAction, WaitingItem


@dataclass(frozen=True)
class Offer:
    """An offer waiting for an answer, with what its line says: the captive, the two warbands, the game."""

    pk: int
    fighter_id: int
    fighter_name: str
    ransom_offer: int
    captor_name: str
    captor_owner: object  # the captor's owner: a user with the columns `display_name` reads
    game_id: int
    game_number: int
    currency: str
    warband_id: int
    warband_name: str


def _offers_sql(User) -> str:
    """The offers waiting with what their lines say, for the parameters `user`, `open` and `writes`."""
    tables = {
        name: model._meta.db_table
        for name, model in {
            "offer": PostGameFighter,
            "post_game": PostGame,
            "player": GamePlayer,
            "game": Game,
            "campaign": Campaign,
            "warband": Warband,
            "fighter": Fighter,
            "member": Membership,
            "user": User,
        }.items()
    }
    # Three steps, each planned apart (MATERIALIZED): the offers not answered, those the user makes or answers,
    # then the names their lines say. As one join of nine tables PostgreSQL took many times longer to plan the
    # statement than to run it, on every render of every dashboard, for a list that is usually empty.
    return f"""
        WITH unanswered AS MATERIALIZED (
            SELECT o.id, o.fighter_id, o.ransom_offer, o.captor_id, pg.player_id
            FROM {tables["offer"]} o JOIN {tables["post_game"]} pg ON pg.id = o.post_game_id
            WHERE o.ransom_paid IS NULL AND o.ransom_offer IS NOT NULL AND pg.status = %(open)s
        ), mine AS MATERIALIZED (
            SELECT o.id, o.fighter_id, o.ransom_offer, gp.game_id, w.id AS warband_id, w.name AS warband_name,
                cw.name AS captor_name, cw.owner_id AS captor_owner_id
            FROM unanswered o
            JOIN {tables["player"]} gp ON gp.id = o.player_id
            JOIN {tables["warband"]} w ON w.id = gp.warband_id
            JOIN {tables["warband"]} cw ON cw.id = o.captor_id
            WHERE w.owner_id = %(user)s OR (cw.owner_id = %(user)s AND cw.campaign_id IN (
                SELECT campaign_id FROM {tables["member"]} WHERE user_id = %(user)s AND role = ANY(%(writes)s)))
        )
        SELECT o.id, o.fighter_id, f.name, o.ransom_offer, o.captor_name, u.id, u.{User.USERNAME_FIELD},
            u.first_name, g.id, g.number, c.preset, o.warband_id, o.warband_name
        FROM mine o
        JOIN {tables["game"]} g ON g.id = o.game_id
        JOIN {tables["campaign"]} c ON c.id = g.campaign_id
        JOIN {tables["fighter"]} f ON f.id = o.fighter_id
        JOIN {tables["user"]} u ON u.id = o.captor_owner_id
        ORDER BY g.number, f.name, o.id"""


def waiting_offers(*, user) -> list[Offer]:
    """The offers not yet answered that the user makes (owner of the captive's warband) or answers (the captor's
    player, while a player or the organiser of the campaign: a spectator only reads, even one who still owns a
    warband, docs/architecture.md, "Who may do what"), by game, captive and offer.

    Plain SQL over the columns the lines say: the dashboard asks on every render, and through the ORM building the
    statement of six joined tables and filling their rows cost most of the page's time for a list that is
    usually empty."""
    User = get_user_model()
    params = {
        "open": PostGame.Status.OPEN,
        "user": user.pk,
        "writes": [str(Membership.Role.PLAYER), str(Membership.Role.ORGANISER)],
    }
    with connection.cursor() as db:
        db.execute(_offers_sql(User), params)
        rows = db.fetchall()
    offers = []
    for pk, fighter_id, fighter_name, offer, captor_name, owner_id, username, first_name, *rest in rows:
        owner = User(id=owner_id, first_name=first_name, **{User.USERNAME_FIELD: username})
        game_id, game_number, preset, warband_id, warband_name = rest
        offers.append(
            Offer(
                pk,
                fighter_id,
                fighter_name,
                offer,
                captor_name,
                owner,
                game_id,
                game_number,
                terms_for(preset).currency,
                warband_id,
                warband_name,
            )
        )
    return offers


def _item(offer: Offer, user) -> WaitingItem:
    args = [offer.game_id, offer.warband_id]
    page = reverse("post_game_elites", args=args) + f"#fighter-{offer.fighter_id}"
    if offer.captor_owner.pk == user.pk:
        url = reverse("post_game_ransom_answer", args=args)
        fields = (("fighter", str(offer.fighter_id)), ("back", "dashboard"))
        return WaitingItem(
            key=f"ransom-{offer.pk}",
            text=f"{offer.warband_name} offers {offer.ransom_offer} {offer.currency} for {offer.fighter_name} "
            f"(Game {offer.game_number}), held by {offer.captor_name}.",
            link=page,
            link_label="See the post-game",
            actions=(
                WaitingAction("Accept", url, (*fields, ("answer", "accept"))),
                WaitingAction("Refuse", url, (*fields, ("answer", "refuse")), secondary=True),
            ),
        )
    return WaitingItem(
        key=f"ransom-{offer.pk}",
        text=f"{possessive(offer.fighter_name)} ransom (Game {offer.game_number}): {offer.ransom_offer} "
        f"{offer.currency} offered to {offer.captor_name}, waiting for "
        f"{possessive(display_name(offer.captor_owner))} answer.",
        link=page,
        link_label="Open the post-game",
    )


def ransom_items(*, user) -> list[WaitingItem]:
    """The dashboard's ransom lines for the user (`rosters.selectors.waiting` provider)."""
    return [_item(offer, user) for offer in waiting_offers(user=user)]
