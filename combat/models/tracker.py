"""The in-game tracker's state: per game, per fighter, and an ordered log of actions that can be undone.

During a game nothing is written to the roster (`rosters.Fighter`): Harm, Injuries, Fatigue, the Health Pool
of a unit and the Out of Action marks of a board with no Endurance live here, and only `tracker_end_game`
(combat/services/tracker/end.py) turns the outcome into campaign records — Out of Action rows, crew XP from
Harsh Lessons, the results.

- `TrackerGame`: one per `campaigns.Game`. `version` grows by one with every action and every undo, so a poll can
  answer "nothing changed" from one integer, and a form knows which board it was filled in on. `pending` holds a
  step that must be settled before anything else happens (Confusion Tests, RULING D-10; equally close models of a
  unit, RULING A-2). `harsh_lessons` holds the crews (warband ids) that earned their Harsh Lessons XP this game
  (RULING D-11): what the engine's `HarshLessons` tracks, kept so it survives between requests. `shooting` holds
  the open shooting engagement (the engine's `ShootingEngagement` as JSON): the models of a unit assigned shooting
  damage stay on the table until the players end the engagement (RULING A-5).
- `TrackerFighter`: a fighter's state in the game. A unit (`Fighter.unit_size` > 1) keeps a Health Pool:
  `models_left` and the lost Health Points carried (`lost_hp`, RULING H-1), which is also its Sustained Damage
  pool when damage is allocated by distance (RULING A-4). A single model of a Trench Crusade board carries its
  Blood and Blessing Markers (0 to 6 each), whether it is Down and whether its Tough is used up this game
  (TC_IN_GAME.md, RULINGS I-3, I-4); taken Out of Action it leaves play with `status` "out_of_action" (I-7), as a
  mark does, for the Trauma Step.
- `TrackerAction`: every change, in order, with the before-image of each row it changed, so "Undo the last action"
  puts back exactly the previous state.
"""

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q

from campaigns.checks import ChecksInPython
from campaigns.tracking import track_history
from combat.rules.injury import MAX_MARKERS  # TC_IN_GAME.md, "Markers": at most 6 of each

# RULINGS.md, facts: "at 2 Fatigue it is Exhausted"; the engine refuses more (combat/rules/damage.py).
MAX_FATIGUE = 2
# A fighter's state an action may change: Fallout: Factions' Harm, Injuries, Fatigue; a unit's Health Pool; Trench
# Crusade's markers, Down and Tough (TC_IN_GAME.md). The before-image of every action and its history read these.
FIGHTER_STATE_FIELDS = (
    "harm",
    "injuries",
    "fatigue",
    "status",
    "models_left",
    "lost_hp",
    "blood",
    "blessings",
    "down",
    "tough_used",
)


@track_history
class TrackerGame(ChecksInPython, models.Model):
    game = models.OneToOneField("campaigns.Game", on_delete=models.CASCADE, related_name="tracker")
    version = models.PositiveIntegerField(default=0)
    pending = models.JSONField(
        null=True, blank=True, help_text="A step to settle before any other action: Confusion Tests, a tie."
    )
    harsh_lessons = ArrayField(
        models.BigIntegerField(),
        default=list,
        blank=True,
        help_text="Warbands (crews) that earned the Harsh Lessons XP in this game (RULING D-11).",
    )
    shooting = models.JSONField(
        null=True,
        blank=True,
        help_text="The open shooting engagement: damage assigned to a unit's models, removed when it ends "
        "(RULING A-5).",
    )
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Tracker of game {self.game_id}"

    @property
    def ended(self) -> bool:
        return self.ended_at is not None


@track_history
class TrackerFighter(ChecksInPython, models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        INCAPACITATED = "incapacitated", "Incapacitated"
        # RULING D-9: removed from play but not Incapacitated, so not Out of Action.
        FLED = "fled", "Fled"
        # A board whose fighters have no Endurance (Trench Crusade) marks who is taken Out of Action, for the
        # Trauma Step (seed 003; combat/rules/board_rules.py).
        OUT_OF_ACTION = "out_of_action", "Out of Action"

    tracker = models.ForeignKey(TrackerGame, on_delete=models.CASCADE, related_name="fighters")
    player = models.ForeignKey("campaigns.GamePlayer", on_delete=models.CASCADE, related_name="tracked")
    fighter = models.ForeignKey("rosters.Fighter", on_delete=models.CASCADE, related_name="tracked")
    harm = models.PositiveSmallIntegerField(default=0)
    injuries = models.PositiveSmallIntegerField(default=0, help_text="Injury Boxes marked.")
    fatigue = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=14, choices=Status.choices, default=Status.ACTIVE)
    models_left = models.PositiveSmallIntegerField(default=1, help_text="Models of a unit still in play.")
    lost_hp = models.PositiveSmallIntegerField(
        default=0, help_text="Lost Health Points carried by a unit's Health Pool (RULING H-1)."
    )
    blood = models.PositiveSmallIntegerField(default=0, help_text="Blood Markers (Trench Crusade, 0 to 6).")
    blessings = models.PositiveSmallIntegerField(
        default=0, help_text="Blessing Markers (Trench Crusade, 0 to 6)."
    )
    down = models.BooleanField(default=False, help_text="Down (Trench Crusade, RULING I-4).")
    tough_used = models.BooleanField(
        default=False, help_text="A TOUGH model's save from Out of Action used up this game (RULING I-4)."
    )

    class Meta:
        ordering = ["player_id", "fighter_id"]
        constraints = [
            models.UniqueConstraint(fields=["tracker", "fighter"], name="tracker_fighter_once_per_game"),
            models.CheckConstraint(condition=Q(harm__lte=10), name="tracker_fighter_harm_range"),
            models.CheckConstraint(condition=Q(injuries__lte=20), name="tracker_fighter_injuries_range"),
            models.CheckConstraint(
                condition=Q(fatigue__lte=MAX_FATIGUE), name="tracker_fighter_fatigue_range"
            ),
            models.CheckConstraint(condition=Q(models_left__lte=100), name="tracker_fighter_models_range"),
            models.CheckConstraint(condition=Q(blood__lte=MAX_MARKERS), name="tracker_fighter_blood_range"),
            models.CheckConstraint(
                condition=Q(blessings__lte=MAX_MARKERS), name="tracker_fighter_blessings_range"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["active", "incapacitated", "fled", "out_of_action"]),
                name="tracker_fighter_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.fighter} in game {self.player.game_id}"

    @property
    def in_play(self) -> bool:
        return self.status == self.Status.ACTIVE


class TrackerAction(ChecksInPython, models.Model):
    """One action on the board, in order; `before` holds the rows as they were, for Undo.

    Not tracked by pghistory: it is itself the log, and the rows it changes are tracked.
    """

    class Kind(models.TextChoices):
        DAMAGE = "damage", "Damage"
        ATTACK = "attack", "Attack Test"
        TIE = "tie", "Equally close models ordered"
        CONFUSION_FRIENDS = "confusion_friends", 'Friends within 3"'
        CONFUSION_TEST = "confusion_test", "Confusion Test"
        CONFUSION_CHOICE = "confusion_choice", "Flee or Take Fatigue"
        FATIGUE = "fatigue", "Fatigue"
        RECOVER_HARM = "recover_harm", "Recover Harm"
        HARM = "harm", "1 Harm marked"
        INJURY = "injury", "1 Injury marked"
        SHOOTING_END = "shooting_end", "End of the shooting"
        OUT_OF_ACTION = "out_of_action", "Out of Action marked"
        BACK_IN_PLAY = "back_in_play", "Out of Action taken back"
        # Trench Crusade (TC_IN_GAME.md): an Injury or Bloodbath Roll, and the one-tap markers and Down.
        INJURY_ROLL = "injury_roll", "Injury Roll"
        BLOOD = "blood", "Blood Marker"
        BLESSING = "blessing", "Blessing Marker"
        DOWN = "down", "Down or stood up"

    tracker = models.ForeignKey(TrackerGame, on_delete=models.CASCADE, related_name="actions")
    version = models.PositiveIntegerField(help_text="The board's version this action produced.")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    # Who did it, when the players say: a fighter of the other side (the Attack Test's attacker, the "by" of a
    # Damage, an Out of Action mark or an Injury Roll). The campaign's statistics count who took whom Out of Action
    # from it.
    attacker = models.ForeignKey(
        "rosters.Fighter", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    summary = models.TextField(help_text="What happened, in one plain sentence that names the rule.")
    touched = ArrayField(
        models.BigIntegerField(),
        default=list,
        blank=True,
        help_text="The roster Fighter ids whose tracked state this action changed; 0 for the game's own state.",
    )
    before = models.JSONField(help_text="The rows this action changed, as they were before it.")
    rolls = ArrayField(models.BigIntegerField(), default=list, blank=True, help_text="DiceRoll ids.")
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    undone_version = models.PositiveIntegerField(
        null=True, blank=True, help_text="The board's version the undo produced."
    )

    class Meta:
        ordering = ["-version"]
        constraints = [
            models.UniqueConstraint(fields=["tracker", "version"], name="tracker_action_version_unique"),
        ]

    def __str__(self) -> str:
        return self.summary

    @property
    def undone(self) -> bool:
        return self.undone_at is not None


# A queued tap's idempotency key: a UUID's 36 characters, with room to spare; its batch (one phone's queue) alike.
ACTION_KEY_LENGTH = 64


class TrackerActionKey(ChecksInPython, models.Model):
    """The idempotency key a phone gave an action on the board: a tap queued offline is sent again
    until the phone hears the answer, and a repeat is answered with the action it made, never applied twice.

    Scoped per person and game: `key` is unique for (`game`, `user`). `batch` names the phone's queue the tap was
    kept in: the taps of one queue were made on the same board version, and each is checked against what others
    changed since, not against the taps sent before it from the same queue (combat/services/tracker/keys.py).
    Not tracked by pghistory: the action it points to is the log; a key goes with its action.
    """

    game = models.ForeignKey("campaigns.Game", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=ACTION_KEY_LENGTH)
    batch = models.CharField(max_length=ACTION_KEY_LENGTH, blank=True)
    action = models.OneToOneField(TrackerAction, on_delete=models.CASCADE, related_name="key")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user", "key"], name="tracker_action_key_once"),
            models.CheckConstraint(condition=~Q(key=""), name="tracker_action_key_not_empty"),
        ]
        indexes = [models.Index(fields=["game", "user", "batch"], name="tracker_action_key_batch")]

    def __str__(self) -> str:
        return self.key
