"""`manage.py load_demo`: a demo campaign that tells a story, loaded only into a database with no campaign.

Two users (printed at the end, and in README.md under "Demo accounts"; local use only, never in Docker) and a
Trench Crusade campaign, *The Long Trench*, played the way a group plays it, so its history reads as a campaign:

1. Olga founds the campaign, Pat joins. Olga copies the made-up demo price list and saves the campaign's own
   made-up prices for its warbands as its second version (combat/management/demo_prices.py). Each warband opens
   its ledger with the starting value of 700 ducats and recruits fighter by fighter from that list (the Trench
   Pilgrims of the Iron Sepulchre, 12 strong, for 615 ducats, and the Grey Legion of Heretics for 560), with their
   Battlekit and an Arsenal, each paid from the Strongbox. Olga copies the made-up demo set of campaign data
   (combat/demo_campaign_data.py): skill charts, Locations, fighter types and each warband's Patron skills.
2. Game 1, No Man's Land: the Pilgrims win, 7 Victory Points to 3, corrected afterwards to 9. Their post-game: Pilgrim Hale, a Troop, fails his Survival Roll
   (D6 2) and dies; Prophet Anselm, an ELITE, rolls D66 14, a Hand Wound and a Battle Scar. The Heretics' Trooper
   Rhee survives (D6 5). XP is earned, Pat spends some, Battlekit moves out of the Arsenal, spoils go to the
   Strongbox.
3. Game 2, Raid on the Relic: the Heretics win, 8 Victory Points to 4. Castigator Voss is Captured (D66 12) and ransomed for 15 ducats;
   Brother Mattias draws Bitter Lessons (D66 65, D3 2 extra XP); the Heretics' Chorister Vex takes a Chest Wound
   (D66 16).
4. Game 3, Hold the Line: a draw, 5 Victory Points each, both post-games waiting, so the post-game wizard can be
   tried at once (Reinforcements offer 1000 less each warband's value: 415 and 440 ducats, RULING C-4). The
   standings rank the Pilgrims first on 18 Victory Points to 16.
5. Game 4, Night Raid: in progress on the tracker of a Trench Crusade board, played with Injury Rolls (the dice
   typed in): Trooper Lisk takes a Minor Hit, Sister Agnethe is Down, the TOUGH Anchorite of Saint Ludwin is saved
   from Out of Action by Tough, and a Bloodbath Roll on the Down Sister spends her Blood Markers; then two
   fighters marked Out of Action, a mark put on the wrong fighter and undone.

Every write goes through the services (`rosters.services`, `campaigns.services`, and combat's own post-game and
tracker functions, the reason this command lives in `combat`: docs/architecture.md, "Nothing imports combat.services
but combat's own views and commands"). The dice of every roll are ENTERED, as if typed in from the table, so the
story is the same on every machine. Each service call commits on its own: PostgreSQL stamps every history event
of one transaction with the same time, and a demo loaded in one transaction would read as one moment, grouped by
table. If a step fails, the half-made campaign is deleted again, so the next run starts clean.

This module holds the users, the two warbands' rosters and the story's start (the campaign, the price lists, the
recruits, the campaign data); the games themselves (steps 2 to 5) are in combat/management/demo_games.py, a mixin of `Command`.
"""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from campaigns.models import Campaign
from campaigns.services.campaigns import campaign_create
from campaigns.services.invitations import campaign_join
from combat.management.demo_games import DemoGames
from combat.management.demo_prices import NOTE as DEMO_PRICES_NOTE
from combat.management.demo_prices import the_long_trench_rows
from combat.services.campaign_data import campaign_data_copy_demo
from rosters.models import ELITE
from rosters.price_lists import BATTLEKIT, FIGHTERS
from rosters.selectors.price_lists import newest_price_lists
from rosters.services import battlekit as battlekit_services
from rosters.services import fighters as fighter_services
from rosters.services import warbands as warband_services
from rosters.services.price_lists import price_list_copy_demo, price_list_save

ORGANISER = ("organiser", "trench-organiser", "Olga")
PLAYER = ("player", "trench-player", "Pat")

# name, type (its row on the campaign's price list gives its cost, profile and ELITE keyword), its own fields, and the
# Battlekit it is recruited with (each a row of the list's Battlekit)
PILGRIMS = [
    ("Prophet Anselm the Unbowed", "War Prophet", {"xp": 9}, ["Holy Icon", "Trench Club", "Standard Armour"]),
    ("Castigator Voss", "Castigator", {"xp": 6}, ["Censer of Judgement", "Reinforced Armour"]),
    ("Castigator Ilse", "Castigator", {"xp": 4}, ["Great Hammer", "Standard Armour"]),
    ("Communicant Brother Mattias", "Communicant", {"xp": 3}, ["Anti-Tank Hammer"]),
    ("The Anchorite of Saint Ludwin", "Anchorite Shrine", {}, ["Shrine Flamer"]),
    ("Sister Agnethe", "Stigmatic Nun", {}, ["Blessed Blade"]),
    ("Sister Hedda", "Stigmatic Nun", {}, ["Blessed Blade"]),
    ("Pilgrim Odo", "Trench Pilgrim", {}, ["Bolt Action Rifle", "Gas Mask"]),
    ("Pilgrim Jory", "Trench Pilgrim", {}, ["Shotgun"]),
    ("Pilgrim Bettina", "Trench Pilgrim", {}, ["Bolt Action Rifle"]),
    ("Pilgrim Hale", "Trench Pilgrim", {}, ["Trench Shield"]),
    ("Pilgrim Wendel", "Trench Pilgrim", {}, ["Jezzail"]),
]

HERETICS = [
    ("Heretic Priest Malachai", "Heretic Priest", {"xp": 7}, ["Sacrificial Knife", "Tartarus Bible"]),
    ("Chorister Vex", "Heretic Chorister", {"xp": 3}, ["Infernal Brand"]),
    ("Death Commando Sabine", "Heretic Death Commando", {"xp": 4}, ["Silenced Pistol", "Assassin's Blade"]),
    ("Trooper Gorn", "Heretic Trooper", {}, ["Bolt Action Rifle"]),
    ("Trooper Lisk", "Heretic Trooper", {}, ["Bolt Action Rifle"]),
    ("Trooper Oszkar", "Heretic Trooper", {}, ["Machine Gun"]),
    ("Trooper Rhee", "Heretic Trooper", {}, ["Trench Club"]),
]


class Command(DemoGames, BaseCommand):
    help = "Load the demo campaign into an empty database (run by `make run`)."

    def handle(self, *args, **options):
        if Campaign.objects.exists():
            self.stdout.write("The database already has campaigns; the demo is not loaded again.")
            return
        accounts = [self._user(*ORGANISER), self._user(*PLAYER)]
        self.organiser, self.player = accounts[0][0], accounts[1][0]
        try:
            campaign = self._story()
        except BaseException:
            # No half-told demo: with the campaign gone, the next run loads it whole (its history rows remain,
            # as they do for any deleted campaign).
            Campaign.objects.filter(name="The Long Trench", created_by=self.organiser).delete()
            raise
        self.stdout.write(self.style.SUCCESS(f"Demo campaign loaded: {campaign.name}."))
        self.stdout.write("Log in at http://127.0.0.1:8000/accounts/login/ with (local use only):")
        for user, password in accounts:
            shown = password or "(the user existed already: its password is unchanged)"
            self.stdout.write(f"  {user.get_username():<10} {shown}")

    def _user(self, username: str, password: str, first_name: str):
        user, created = get_user_model().objects.get_or_create(
            username=username, defaults={"email": f"{username}@example.org", "first_name": first_name}
        )
        if not created:
            return user, None
        user.set_password(password)
        user.save(update_fields=["password"])
        return user, password

    # -- the story, one service call (one transaction) at a time ---------------------------------------------

    def _story(self) -> Campaign:
        organiser, player = self.organiser, self.player
        campaign = campaign_create(
            name="The Long Trench",
            description="A demo Trench Crusade campaign: the Trench Pilgrims of the Iron Sepulchre against the "
            "Grey Legion, in the mud between the lines.",
            by=organiser,
        )
        campaign_join(code=campaign.invitation_code, user=player)
        # The price lists first, so every recruit is paid what the list says: the made-up demo list the project
        # ships (no official list ships), then the campaign's own made-up prices for its warbands as version 2.
        price_list_copy_demo(campaign=campaign, by=organiser)
        for kind, rows in the_long_trench_rows().items():
            price_list_save(campaign=campaign, kind=kind, rows=rows, by=organiser, note=DEMO_PRICES_NOTE)
        self.prices = {
            kind: {row["name"]: row for row in price_list.rows}
            for kind, price_list in newest_price_lists(campaign=campaign).items()
        }
        # Each warband opens with its starting value in its Strongbox (the ledger's "start") and pays every
        # recruit and piece of Battlekit from it (CAMPAIGN_PHASE.md: "A warband begins the campaign with its
        # starting value in ducats in its Strongbox"; "A purchase is paid from the Strongbox in full").
        self.pilgrims, self.p = self._recruit(
            campaign,
            player,
            "The Iron Sepulchre",
            "Trench Pilgrims",
            PILGRIMS,
            glory=2,
            notes="Sworn to carry the relic of Saint Ludwin to the Cathedral of the Throne.",
        )
        self.heretics, self.h = self._recruit(
            campaign, organiser, "The Grey Legion", "Heretic Legion", HERETICS, glory=1
        )
        # A spare Trench Shield, bought at the Trench Shield's price, and Battlekit kept in the Arsenal.
        shield = self._buy(self.pilgrims, player, "Spare Trench Shield", listed_as="Trench Shield")
        self._buy(self.pilgrims, player, "Incendiary Grenades")
        tome = self._buy(self.heretics, organiser, "Blasphemous Tome")
        # The campaign data, a small made-up set (no official names ship): charts, Locations, types, Patrons.
        campaign_data_copy_demo(campaign=campaign, by=organiser)

        start = datetime.date.today() - datetime.timedelta(days=21)
        self._game_one(campaign, start, shield)
        self._game_two(campaign, start + datetime.timedelta(days=7), tome)
        self._game_three(campaign, start + datetime.timedelta(days=14))
        self._game_four(campaign, datetime.date.today())
        return campaign

    def _recruit(self, campaign, owner, name, faction, fighters, **fields):
        """A warband founded at the standard starting value, its fighters recruited one by one from the price
        list, each with its Battlekit, all paid through the ledger as the recruit form pays them."""
        warband = warband_services.warband_create(
            campaign=campaign, owner=owner, name=name, faction=faction, by=owner, **fields
        )
        made = {}
        for fighter_name, kind, stats, kit in fighters:
            fighter = fighter_services.fighter_create(
                warband=warband, by=owner, name=fighter_name, pay=True, **{**self._listed_type(kind), **stats}
            )
            for item_name in kit:
                self._buy(warband, owner, item_name, fighter=fighter)
            made[fighter_name] = fighter
        return warband, made

    def _listed_type(self, kind: str) -> dict:
        """A fighter type's row on the campaign's list as the new fighter's fields: its cost and starting profile,
        ELITE as the elite flag (RULING T-1)."""
        row = self.prices[FIGHTERS][kind]
        return {
            "fighter_type": kind,
            "cost": row["cost"],
            "movement": row["movement"],
            "health": row["health"],
            "harm_limit": row["harm_limit"],
            "keywords": [word for word in row["keywords"] if word != ELITE],
            "elite": ELITE in row["keywords"],
        }

    def _buy(self, warband, by, name, *, fighter=None, listed_as=None):
        """A piece of Battlekit bought at its listed price (`listed_as`: the row it is bought as, when its name
        says more), paid from the Strongbox; held by `fighter`, or kept in the Arsenal."""
        row = self.prices[BATTLEKIT][listed_as or name]
        return battlekit_services.item_create(
            warband=warband,
            fighter=fighter,
            name=name,
            keywords=row["keywords"],
            removable=row["removable"],
            cost=row["cost"],
            pay=True,
            by=by,
        )
