"""The demo campaign's games (`manage.py load_demo`, combat/management/commands/load_demo.py): its four games
recorded, each warband's post-game through the wizard's own services with the dice typed in, and the game on the
tracker.

`DemoGames` is a mixin of the command: it reads the users (`self.organiser`, `self.player`) and the warbands with
their fighters by name (`self.pilgrims`/`self.p`, `self.heretics`/`self.h`) that the command's story made first.
It lives under `combat/management/` with the command, as it writes through combat's services (docs/architecture.md,
"Nothing imports combat.services but combat's own views and commands").
"""

from __future__ import annotations

from campaigns.models import Game, GamePlayer
from combat.models import TrackerGame
from combat.selectors.post_game.state import post_game_state
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
from combat.services.tracker import injury as tracker_injury
from combat.services.tracker import out_of_action as tracker_marks
from rosters.services import battlekit as battlekit_services
from rosters.services import fighters as fighter_services
from rosters.services import games as game_services
from rosters.services import warbands as warband_services
from rosters.services.game_scores import SideScore, game_score_correct
from rosters.services.games import GameEntry


class DemoGames:
    """The demo's games, one service call (one transaction) at a time, for `load_demo`'s `Command`."""

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
                GameEntry(
                    self.pilgrims,
                    "win",
                    [p["Prophet Anselm the Unbowed"], p["Pilgrim Hale"]],
                    victory_points=7,
                ),
                GameEntry(self.heretics, "loss", [h["Trooper Rhee"]], victory_points=3),
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
        # A Victory Point typed wrong at the table, put right afterwards with its reason (the standings read it:
        # RULING W-2), as the game page's score correction does.
        game_score_correct(
            game=game,
            by=organiser,
            scores={self.pilgrims.pk: SideScore(result="win", victory_points=9)},
            reason="The Prophet's crater was a second objective: 2 Victory Points more for the Iron Sepulchre",
        )

    def _game_two(self, campaign, played_on, tome) -> None:
        organiser, player, p, h = self.organiser, self.player, self.p, self.h
        game = game_services.game_record(
            campaign=campaign,
            by=player,
            played_on=played_on,
            scenario="Raid on the Relic",
            entries=[
                GameEntry(
                    self.pilgrims,
                    "loss",
                    [p["Castigator Voss"], p["Communicant Brother Mattias"]],
                    victory_points=4,
                ),
                GameEntry(self.heretics, "win", [h["Chorister Vex"]], victory_points=8),
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
                GameEntry(self.pilgrims, "draw", [p["Castigator Ilse"], p["Pilgrim Jory"]], victory_points=5),
                GameEntry(
                    self.heretics, "draw", [h["Trooper Gorn"], h["Death Commando Sabine"]], victory_points=5
                ),
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

        def out_of_action(fighter, by) -> None:
            tracker_marks.tracker_out_of_action(
                game=game, target_id=fighter.pk, taken=True, by=by, version=version()
            )

        self._injury_rolls(game, version)
        # A Trench Crusade board also marks by a tap who was taken Out of Action at the table, for the Trauma Step
        # after the game (combat/rules/board_rules.py).
        out_of_action(p["Pilgrim Odo"], organiser)
        # Marked on the wrong fighter, undone, then on the right one.
        out_of_action(h["Heretic Priest Malachai"], player)
        tracker_board.tracker_undo(game=game, by=player, version=version())
        out_of_action(h["Trooper Oszkar"], player)

    def _injury_rolls(self, game, version) -> None:
        """Game 4's Injury Rolls through the board's own services and the roll store, the dice typed in
        (TC_IN_GAME.md, RULINGS I-1 to I-8), each rolled by the attacker's player: a Minor Hit, a Down, a TOUGH
        model saved from Out of Action (I-4) and a Bloodbath Roll on a Down model (I-6)."""
        organiser, player, p, h = self.organiser, self.player, self.p, self.h

        def roll(fighter, by, faces, **given) -> None:
            tracker_injury.injury_roll(
                game=game, target_id=fighter.pk, by=by, version=version(), faces=faces, **given
            )

        roll(h["Trooper Lisk"], player, [2, 3])  # 5: a Minor Hit, 1 Blood Marker
        roll(p["Sister Agnethe"], organiser, [4, 4])  # 8: Down, 1 Blood Marker
        # 11 would take the Anchorite Out of Action; TOUGH turns it into Down, once (RULING I-4).
        roll(p["The Anchorite of Saint Ludwin"], organiser, [6, 5])
        for _ in range(2):
            tracker_injury.tracker_marker(
                game=game,
                target_id=p["Sister Agnethe"].pk,
                what="blood",
                change=1,
                by=organiser,
                version=version(),
            )
        # Down with 3 Blood Markers: a Bloodbath Roll spending the 3 (RULING I-6), 3D6 and one more for a melee
        # attack on a Down model, the 3 highest kept (RULING I-1).
        roll(p["Sister Agnethe"], organiser, [5, 3, 2, 1], bloodbath=True, melee=True)
