"""`manage.py load_demo`: a demo campaign that tells a story, loaded only into a database with no campaign.

Two users (printed at the end, and in README.md under "Demo accounts"; local use only, never in Docker) and a
Trench Crusade campaign, *The Long Trench*, played the way a group plays it, so its history reads as a campaign:

1. Olga founds the campaign, Pat joins; each recruits a warband fighter by fighter (the Trench Pilgrims of the
   Iron Sepulchre, 12 strong, and the Grey Legion of Heretics), with their Battlekit and an Arsenal. Olga copies
   the made-up demo set of campaign data (combat/demo_campaign_data.py): skill charts, Locations, fighter types and
   each warband's Patron skills, invented names only.
2. Game 1, No Man's Land: the Pilgrims win. Their post-game: Pilgrim Hale, a Troop, fails his Survival Roll
   (D6 2) and dies; Prophet Anselm, an ELITE, rolls D66 14, a Hand Wound and a Battle Scar. The Heretics' Trooper
   Rhee survives (D6 5). XP is earned, Pat spends some, Battlekit moves out of the Arsenal, spoils go to the
   Strongbox.
3. Game 2, Raid on the Relic: the Heretics win. Castigator Voss is Captured (D66 12) and ransomed for 15 ducats;
   Brother Mattias draws Bitter Lessons (D66 65, D3 2 extra XP); the Heretics' Chorister Vex takes a Chest Wound
   (D66 16).
4. Game 3, Hold the Line: recorded, both post-games waiting, so the post-game wizard can be tried at once.
5. Game 4, Night Raid: in progress on the tracker, a few attacks in, a Confusion Test, an action undone.

Every write goes through the services (`rosters.services`, `campaigns.services`, and combat's own post-game and
tracker functions, the reason this command lives in `combat`: ARCHITECTURE.md, "Nothing imports combat.services
but combat's own views and commands"). The dice of every roll are ENTERED, as if typed in from the table, so the
story is the same on every machine. Each service call commits on its own: PostgreSQL stamps every history event
of one transaction with the same time, and a demo loaded in one transaction would read as one moment, grouped by
table. If a step fails, the half-made campaign is deleted again, so the next run starts clean.
"""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from campaigns.models import Campaign, Game, GamePlayer
from campaigns.services.campaigns import campaign_create
from campaigns.services.invitations import campaign_join
from combat.models import TrackerFighter, TrackerGame
from combat.selectors.post_game.state import post_game_state
from combat.selectors.tracker_attack import AttackTest
from combat.services.campaign_data import campaign_data_copy_demo
from combat.services.post_game.advancement import (
    post_game_advancement_charts,
    post_game_advancement_pick,
    post_game_advancement_roll,
)
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.experience import ExperienceAnswer, post_game_record_experience
from combat.services.post_game.out_of_action import post_game_set_out_of_action
from combat.services.post_game.ransom import post_game_answer_ransom
from combat.services.post_game.rolls import post_game_roll
from combat.services.tracker import board as tracker_board
from combat.services.tracker import confusion as tracker_confusion
from combat.services.tracker import damage as tracker_damage
from rosters.services import battlekit as battlekit_services
from rosters.services import fighters as fighter_services
from rosters.services import games as game_services
from rosters.services import warbands as warband_services
from rosters.services.games import GameEntry
from rosters.services.price_lists import price_list_copy_demo

ORGANISER = ("organiser", "trench-organiser", "Olga")
PLAYER = ("player", "trench-player", "Pat")

# name, type, ELITE, fields, Battlekit (name, keywords)
PILGRIMS = [
    (
        "Prophet Anselm the Unbowed",
        "War Prophet",
        True,
        {"xp": 9, "movement": 6},
        [("Holy Icon", []), ("Trench Club", []), ("Standard Armour", [])],
    ),
    (
        "Castigator Voss",
        "Castigator",
        True,
        {"xp": 6, "movement": 6},
        [("Censer of Judgement", ["TWO-HANDED"]), ("Reinforced Armour", [])],
    ),
    (
        "Castigator Ilse",
        "Castigator",
        True,
        {"xp": 4},
        [("Great Hammer", ["HEAVY", "TWO-HANDED"]), ("Standard Armour", [])],
    ),
    (
        "Communicant Brother Mattias",
        "Communicant",
        True,
        {"xp": 3, "health": 2},
        [("Anti-Tank Hammer", ["HEAVY", "TWO-HANDED"])],
    ),
    (
        "The Anchorite of Saint Ludwin",
        "Anchorite Shrine",
        False,
        {"movement": 5, "health": 3, "harm_limit": None},
        [("Shrine Flamer", ["HEAVY"])],
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
        [("Silenced Pistol", []), ("Assassin's Blade", [])],
    ),
    ("Trooper Gorn", "Heretic Trooper", False, {}, [("Bolt Action Rifle", [])]),
    ("Trooper Lisk", "Heretic Trooper", False, {}, [("Bolt Action Rifle", [])]),
    ("Trooper Oszkar", "Heretic Trooper", False, {}, [("Machine Gun", ["HEAVY"])]),
    ("Trooper Rhee", "Heretic Trooper", False, {}, [("Trench Club", [])]),
]


class Command(BaseCommand):
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
        self.pilgrims, self.p = self._recruit(
            campaign,
            player,
            "The Iron Sepulchre",
            "Trench Pilgrims",
            PILGRIMS,
            strongbox=85,
            glory=2,
            notes="Sworn to carry the relic of Saint Ludwin to the Cathedral of the Throne.",
        )
        self.heretics, self.h = self._recruit(
            campaign, organiser, "The Grey Legion", "Heretic Legion", HERETICS, strongbox=60, glory=1
        )
        shield = battlekit_services.item_create(warband=self.pilgrims, name="Spare Trench Shield", by=player)
        battlekit_services.item_create(
            warband=self.pilgrims, name="Incendiary Grenades", keywords=["GRENADE"], by=player
        )
        tome = battlekit_services.item_create(warband=self.heretics, name="Blasphemous Tome", by=organiser)
        # The campaign data, a small made-up set (no official names ship): charts, Locations, types, Patrons.
        campaign_data_copy_demo(campaign=campaign, by=organiser)
        # Issue 13: a small made-up price list to recruit and buy from (no official list ships).
        price_list_copy_demo(campaign=campaign, by=organiser)

        start = datetime.date.today() - datetime.timedelta(days=21)
        self._game_one(campaign, start, shield)
        self._game_two(campaign, start + datetime.timedelta(days=7), tome)
        self._game_three(campaign, start + datetime.timedelta(days=14))
        self._game_four(campaign, datetime.date.today())
        return campaign

    def _recruit(self, campaign, owner, name, faction, fighters, **fields):
        warband = warband_services.warband_create(
            campaign=campaign, owner=owner, name=name, faction=faction, by=owner, **fields
        )
        made = {}
        for fighter_name, kind, elite, stats, kit in fighters:
            fighter = fighter_services.fighter_create(
                warband=warband, by=owner, name=fighter_name, fighter_type=kind, elite=elite, **stats
            )
            for item_name, keywords in kit:
                battlekit_services.item_create(
                    warband=warband, fighter=fighter, name=item_name, keywords=keywords, by=owner
                )
            made[fighter_name] = fighter
        return warband, made

    def _entry(self, game: Game, warband) -> GamePlayer:
        return GamePlayer.objects.select_related("game__campaign", "warband").get(game=game, warband=warband)

    def _post_game(self, game, warband, by, *, rolls, deeds=None, ransoms=None):
        """One warband's post-game through the wizard's own steps, with the dice typed in (RULING T-7).

        `rolls`: (fighter, purpose, faces) in the order the wizard asks (RULING T-1: Troops first); `ransoms`:
        fighter -> ducats paid to the other warband (TRAUMA_TABLE.md 12, Captured).
        """
        entry = self._entry(game, warband)
        marked = list(entry.out_of_action.values_list("fighter_id", flat=True))
        post_game_set_out_of_action(player=entry, fighter_ids=marked, by=by)
        sequences: dict[tuple[int, str], int] = {}
        for fighter, purpose, faces in rolls:
            key = (fighter.pk, purpose)
            sequences[key] = sequences.get(key, 0) + 1
            post_game_roll(
                player=entry,
                fighter_id=fighter.pk,
                purpose=purpose,
                sequence=sequences[key],
                faces=faces,
                by=by,
            )
        for fighter, ducats in (ransoms or {}).items():
            post_game_answer_ransom(player=entry, fighter_id=fighter.pk, paid=True, ransom=ducats, by=by)
        if deeds:
            answers = {
                fighter.pk: ExperienceAnswer(took_part=True, glorious_deeds=count)
                for fighter, count in deeds.items()
            }
            post_game_record_experience(player=entry, by=by, answers=answers)
        self._advancements(entry, by)
        return post_game_apply(player=entry, by=by)

    # Every Skill Advancement Roll of the demo: Melee & Strength and Ranged, 2D6 typed in as 3+4 and 4+5.
    ADVANCEMENT_CHARTS = ("melee_strength", "ranged")
    ADVANCEMENT_FACES = {1: [3, 4], 2: [4, 5]}

    def _advancements(self, entry, by) -> None:
        """The Advancement step through its own services (RULINGS X-1 to X-3): each card's charts, its two 2D6
        typed in, and the first skill found taken."""
        while True:
            step = post_game_state(player=entry).advancement
            card = next((card for card in step.cards if card.waiting_for), None) if step else None
            if card is None:
                return
            common = {"player": entry, "fighter_id": card.fighter.pk, "number": card.number, "by": by}
            if card.waiting_for == "charts":
                first, second = self.ADVANCEMENT_CHARTS
                post_game_advancement_charts(first_chart=first, second_chart=second, **common)
            elif card.waiting_for == "roll":
                die = card.next_roll.die
                post_game_advancement_roll(die=die, faces=self.ADVANCEMENT_FACES[die], **common)
            else:
                post_game_advancement_pick(skill_code=card.options[0].code, **common)

    def _game_one(self, campaign, played_on, shield) -> None:
        organiser, player, p, h = self.organiser, self.player, self.p, self.h
        game = game_services.game_record(
            campaign=campaign,
            by=organiser,
            played_on=played_on,
            scenario="No Man's Land",
            notes="The Prophet held the crater against three charges.",
            entries=[
                GameEntry(self.pilgrims, "win", [p["Prophet Anselm the Unbowed"], p["Pilgrim Hale"]]),
                GameEntry(self.heretics, "loss", [h["Trooper Rhee"]]),
            ],
        )
        # A Troop that dies (D6 2, RULING T-2) and an ELITE's Hand Wound (D66 14) with its Battle Scar (T-4).
        self._post_game(
            game,
            self.pilgrims,
            player,
            rolls=[
                (p["Pilgrim Hale"], "survival", [2]),
                (p["Prophet Anselm the Unbowed"], "trauma", [1, 4]),
            ],
            deeds={p["Castigator Voss"]: 1},
        )
        # A Troop that survives (D6 5).
        self._post_game(game, self.heretics, organiser, rolls=[(h["Trooper Rhee"], "survival", [5])])
        warband_services.warband_adjust(
            warband=self.pilgrims,
            by=player,
            strongbox=20,
            glory=1,
            reason="spoils of No Man's Land",
            game=game.pk,
        )
        fighter_services.fighter_adjust_xp(
            fighter=p["Prophet Anselm the Unbowed"], delta=-5, by=player, reason="spent on an Advancement"
        )
        battlekit_services.item_move(item=shield, to_fighter=p["Pilgrim Bettina"], by=player)

    def _game_two(self, campaign, played_on, tome) -> None:
        organiser, player, p, h = self.organiser, self.player, self.p, self.h
        game = game_services.game_record(
            campaign=campaign,
            by=player,
            played_on=played_on,
            scenario="Raid on the Relic",
            entries=[
                GameEntry(self.pilgrims, "loss", [p["Castigator Voss"], p["Communicant Brother Mattias"]]),
                GameEntry(self.heretics, "win", [h["Chorister Vex"]]),
            ],
        )
        # Captured (D66 12) and ransomed: 15 ducats to the captor, Full Recovery (RULING T-8); Bitter Lessons
        # (D66 65) with its D3 of extra XP.
        self._post_game(
            game,
            self.pilgrims,
            player,
            rolls=[
                (p["Castigator Voss"], "trauma", [1, 2]),
                (p["Communicant Brother Mattias"], "trauma", [6, 5]),
                (p["Communicant Brother Mattias"], "bitter_lessons", [2]),
            ],
            ransoms={p["Castigator Voss"]: 15},
        )
        self._post_game(
            game,
            self.heretics,
            organiser,
            rolls=[(h["Chorister Vex"], "trauma", [1, 6])],
            deeds={h["Death Commando Sabine"]: 1},
        )
        warband_services.warband_adjust(
            warband=self.heretics, glory=1, by=organiser, reason="Glory for the Raid", game=game.pk
        )
        battlekit_services.item_move(item=tome, to_fighter=h["Heretic Priest Malachai"], by=organiser)
        fighter_services.fighter_adjust_xp(
            fighter=h["Heretic Priest Malachai"], delta=-4, by=organiser, reason="spent on an Advancement"
        )

    def _game_three(self, campaign, played_on) -> None:
        p, h = self.p, self.h
        # Both post-games wait, with an ELITE fighter and a Troop Out of Action on each side.
        game_services.game_record(
            campaign=campaign,
            by=self.player,
            played_on=played_on,
            scenario="Hold the Line",
            notes="Try the post-game wizard on this one.",
            entries=[
                GameEntry(self.pilgrims, "draw", [p["Castigator Ilse"], p["Pilgrim Jory"]]),
                GameEntry(self.heretics, "draw", [h["Trooper Gorn"], h["Death Commando Sabine"]]),
            ],
        )

    def _game_four(self, campaign, played_on) -> None:
        organiser, player, p, h = self.organiser, self.player, self.p, self.h
        game = game_services.game_start(
            campaign=campaign,
            by=player,
            played_on=played_on,
            warbands=[self.pilgrims, self.heretics],
            scenario="Night Raid",
            notes="In progress on the tracker: open it to carry on.",
        )
        tracker_board.tracker_start(game=game, by=player)

        def version() -> int:
            return TrackerGame.objects.get(game=game).version

        def attack(attacker, target, faces, by, stat=5):
            tracked = TrackerFighter.objects.get(tracker__game=game, fighter=attacker)
            test = AttackTest(dice=len(faces), stat=stat, attacker=tracked)
            tracker_damage.tracker_roll_attack(
                game=game, target_id=target.pk, attack=test, faces=faces, by=by, version=version()
            )

        # 2 Hits on Endurance 5: 1 Harm. Then 5 Hits on Pilgrim Odo: an Injury, and with Health 1 he is
        # Incapacitated; his friends within 3" take their Confusion Tests (000 "Confusion").
        attack(p["Prophet Anselm the Unbowed"], h["Trooper Lisk"], [2, 4, 9], player)
        attack(h["Death Commando Sabine"], p["Pilgrim Odo"], [1, 3, 2, 5, 4], organiser)
        tracker_confusion.tracker_mark_friends(
            game=game,
            friend_ids=[p["Pilgrim Bettina"].pk, p["Pilgrim Wendel"].pk],
            by=player,
            version=version(),
        )
        tracker_confusion.tracker_confusion_test(
            game=game, friend_id=p["Pilgrim Bettina"].pk, faces=[3, 8], by=player, version=version()
        )
        tracker_confusion.tracker_confusion_test(
            game=game, friend_id=p["Pilgrim Wendel"].pk, faces=[7, 9], by=player, version=version()
        )
        tracker_confusion.tracker_confusion_choose(game=game, choice="fatigue", by=player, version=version())
        # Damage put on the wrong fighter, undone, then put on the right one.
        tracker_damage.tracker_apply_damage(
            game=game, target_id=h["Heretic Priest Malachai"].pk, damage=3, by=player, version=version()
        )
        tracker_board.tracker_undo(game=game, by=player, version=version())
        tracker_damage.tracker_apply_damage(
            game=game, target_id=h["Trooper Oszkar"].pk, damage=3, by=player, version=version()
        )
