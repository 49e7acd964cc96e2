"""`manage.py load_demo`: a demo campaign to try the tool with, loaded only into a database with no campaign.

Two users (printed at the end, and in README.md under "Demo accounts"; local use only, never in Docker), a Trench
Crusade campaign, the player's Trench Pilgrims warband of 12 fighters with Battlekit, Injuries, Battle Scars and
an Arsenal, the organiser's Heretic Legion warband, and three games: two with their post-games done, and the
latest with both post-games still waiting, so the post-game wizard can be tried at once.

Everything is written through the services, so the history shows how the demo warbands came to be.
"""

import datetime

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaigns import services as campaign_services
from campaigns.models import Campaign, GamePlayer
from rosters import services
from rosters.services import GameEntry

ORGANISER = ("organiser", "trench-organiser")
PLAYER = ("player", "trench-player")

# name, type, ELITE, fields, Battlekit (name, keywords)
PILGRIMS = [
    (
        "Prophet Anselm the Unbowed",
        "War Prophet",
        True,
        {"xp": 9, "movement": 6},
        [
            ("Holy Icon", []),
            ("Trench Club", []),
            ("Standard Armour", []),
        ],
    ),
    (
        "Castigator Voss",
        "Castigator",
        True,
        {"xp": 6, "movement": 6},
        [
            ("Censer of Judgement", ["TWO-HANDED"]),
            ("Reinforced Armour", []),
        ],
    ),
    (
        "Castigator Ilse",
        "Castigator",
        True,
        {"xp": 4},
        [
            ("Great Hammer", ["HEAVY", "TWO-HANDED"]),
            ("Standard Armour", []),
        ],
    ),
    (
        "Communicant Brother Mattias",
        "Communicant",
        True,
        {"xp": 3, "health": 2},
        [
            ("Anti-Tank Hammer", ["HEAVY", "TWO-HANDED"]),
        ],
    ),
    (
        "The Anchorite of Saint Ludwin",
        "Anchorite Shrine",
        False,
        {"movement": 5, "health": 3, "harm_limit": None},
        [
            ("Shrine Flamer", ["HEAVY"]),
        ],
    ),
    ("Sister Agnethe", "Stigmatic Nun", False, {"movement": 7}, [("Blessed Blade", [])]),
    ("Sister Hedda", "Stigmatic Nun", False, {"movement": 7}, [("Blessed Blade", [])]),
    ("Pilgrim Odo", "Trench Pilgrim", False, {}, [("Bolt Action Rifle", []), ("Gas Mask", [])]),
    ("Pilgrim Jory", "Trench Pilgrim", False, {}, [("Shotgun", [])]),
    ("Pilgrim Bettina", "Trench Pilgrim", False, {}, [("Bolt Action Rifle", [])]),
    ("Pilgrim Hale", "Trench Pilgrim", False, {}, [("Trench Shield", [])]),
    ("Pilgrim Wendel", "Trench Pilgrim", False, {}, [("Jezzail", ["TWO-HANDED"])]),
]

HERETICS = [
    (
        "Heretic Priest Malachai",
        "Heretic Priest",
        True,
        {"xp": 7},
        [("Sacrificial Knife", []), ("Tartarus Bible", [])],
    ),
    ("Chorister Vex", "Heretic Chorister", True, {"xp": 3}, [("Infernal Brand", [])]),
    (
        "Death Commando Sabine",
        "Heretic Death Commando",
        True,
        {"xp": 4, "movement": 7},
        [
            ("Silenced Pistol", []),
            ("Assassin's Blade", []),
        ],
    ),
    ("Trooper Gorn", "Heretic Trooper", False, {}, [("Bolt Action Rifle", [])]),
    ("Trooper Lisk", "Heretic Trooper", False, {}, [("Bolt Action Rifle", [])]),
    ("Trooper Oszkar", "Heretic Trooper", False, {}, [("Machine Gun", ["HEAVY"])]),
    ("Trooper Rhee", "Heretic Trooper", False, {}, [("Trench Club", [])]),
]


def _trauma_row(code: str) -> dict:
    from campaigns.trauma_tables import default_rows

    return next(row for row in default_rows() if row["code"] == code)


class Command(BaseCommand):
    help = "Load the demo campaign into an empty database (run by `make run`)."

    def handle(self, *args, **options):
        if Campaign.objects.exists():
            self.stdout.write("The database already has campaigns; the demo is not loaded again.")
            return
        with transaction.atomic():
            accounts = [self._user(*ORGANISER, first=True), self._user(*PLAYER)]
            self._campaign(accounts[0][0], accounts[1][0])
        self.stdout.write(self.style.SUCCESS("Demo campaign loaded: The Long Trench."))
        self.stdout.write("Log in at http://127.0.0.1:8000/accounts/login/ with (local use only):")
        for user, password in accounts:
            shown = password or "(the user existed already: its password is unchanged)"
            self.stdout.write(f"  {user.get_username():<10} {shown}")

    def _user(self, username: str, password: str, *, first: bool = False):
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=username, defaults={"email": f"{username}@example.org"}
        )
        if not created:
            return user, None
        user.set_password(password)
        user.save(update_fields=["password"])
        return user, password

    def _warband(self, campaign, owner, name, faction, fighters, **fields):
        warband = services.warband_create(
            campaign=campaign, owner=owner, name=name, faction=faction, by=owner, **fields
        )
        made = {}
        for fighter_name, kind, elite, stats, kit in fighters:
            fighter = services.fighter_create(
                warband=warband, by=owner, name=fighter_name, fighter_type=kind, elite=elite, **stats
            )
            for item_name, keywords in kit:
                services.item_create(
                    warband=warband, fighter=fighter, name=item_name, keywords=keywords, by=owner
                )
            made[fighter_name] = fighter
        return warband, made

    def _injure(self, fighter, code, *, game, d66, by):
        row = _trauma_row(code)
        services.injury_add(
            fighter=fighter,
            by=by,
            code=code,
            name=row["name"],
            effect=row["effect"],
            game=game,
            d66=d66,
            action="post_game.apply",
            step="trauma",
        )
        fighter.refresh_from_db()
        changes = {"battle_scars": fighter.battle_scars + (1 if row["scar"] else 0)}
        if code == "leg_wound":
            changes["movement"] = max(fighter.movement - 2, 0)
        services.fighter_update(fighter=fighter, by=by, changes=changes)

    def _done(self, game, by):
        for player in GamePlayer.objects.filter(game=game):
            services.game_post_game_mark(player=player, state="done", by=by)

    def _campaign(self, organiser, player):
        campaign = campaign_services.campaign_create(
            name="The Long Trench",
            description="A demo Trench Crusade campaign: the Trench Pilgrims of the Iron Sepulchre against the "
            "Grey Legion, in the mud between the lines.",
            by=organiser,
        )
        campaign_services.campaign_join(code=campaign.invitation_code, user=player)
        pilgrims, p = self._warband(
            campaign,
            player,
            "The Iron Sepulchre",
            "Trench Pilgrims",
            PILGRIMS,
            strongbox=85,
            glory=2,
            notes="Sworn to carry the relic of Saint Ludwin to the Cathedral of the Throne.",
        )
        heretics, h = self._warband(
            campaign, organiser, "The Grey Legion", "Heretic Legion", HERETICS, strongbox=60, glory=1
        )
        for name, keywords in (("Spare Trench Shield", []), ("Incendiary Grenades", ["GRENADE"])):
            services.item_create(warband=pilgrims, name=name, keywords=keywords, by=player)
        services.item_create(warband=heretics, name="Blasphemous Tome", by=organiser)

        start = datetime.date.today() - datetime.timedelta(days=21)
        game1 = services.game_record(
            campaign=campaign,
            by=organiser,
            played_on=start,
            scenario="No Man's Land",
            notes="The Prophet held the crater against three charges.",
            entries=[
                GameEntry(pilgrims, "win", [p["Prophet Anselm the Unbowed"], p["Pilgrim Hale"]]),
                GameEntry(heretics, "loss", [h["Trooper Rhee"]]),
            ],
        )
        self._injure(p["Prophet Anselm the Unbowed"], "hand_wound", game=game1, d66=14, by=player)
        services.fighter_remove(
            fighter=p["Pilgrim Hale"],
            status="dead",
            battlekit="lost",
            by=player,
            reason="Pilgrim Hale failed his Survival Roll (D6 2) after Game 1",
        )
        services.fighter_adjust_xp(fighter=p["Prophet Anselm the Unbowed"], delta=1, by=player, game=game1)
        self._done(game1, organiser)

        game2 = services.game_record(
            campaign=campaign,
            by=player,
            played_on=start + datetime.timedelta(days=7),
            scenario="Raid on the Relic",
            entries=[
                GameEntry(pilgrims, "loss", [p["Castigator Voss"]]),
                GameEntry(heretics, "win", [h["Chorister Vex"]]),
            ],
        )
        self._injure(p["Castigator Voss"], "leg_wound", game=game2, d66=31, by=player)
        self._injure(h["Chorister Vex"], "chest_wound", game=game2, d66=16, by=organiser)
        services.warband_adjust(
            warband=heretics, glory=1, by=organiser, reason="Glory for the Raid", game=game2
        )
        self._done(game2, organiser)

        # Game 3: both post-games wait, with an ELITE fighter and a Troop Out of Action for the Pilgrims.
        services.game_record(
            campaign=campaign,
            by=player,
            played_on=start + datetime.timedelta(days=14),
            scenario="Hold the Line",
            notes="Try the post-game wizard on this one.",
            entries=[
                GameEntry(pilgrims, "draw", [p["Castigator Ilse"], p["Pilgrim Jory"]]),
                GameEntry(heretics, "draw", [h["Trooper Gorn"], h["Death Commando Sabine"]]),
            ],
        )
