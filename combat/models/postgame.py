"""The post-game Trauma Step of one warband in one game: its attempts, its stored rolls and the players' answers.

003_37ee4a105d59703a.txt "Trauma Step": "In this step of the Campaign Phase you must find out what happened to
models that were taken Out of Action during the game." Nothing here is the roster: the wizard gathers the dice and
the answers, and only `post_game_apply` (combat/services.py) writes the roster, in one transaction.

- `PostGame`: one attempt at a warband's post-game. At most one attempt per warband and game is not reverted (a
  partial unique constraint), so two tabs can never open two. `snapshot` holds the before-image of every row the
  Apply changed, so "Revert this post-game" restores them exactly; a roll is final, so the revert puts
  the SAME attempt back to open with every roll and answer in place (`reverted_by`/`reverted_at` say who and
  when). REVERTED is the first version's revert only: those attempts keep their rolls, marked "undone".
- `PostGameRoll`: each roll made for a fighter, in order, tied to the campaign's dice log (`DiceRoll`). The unique
  constraint on (attempt, fighter, purpose, sequence) is what makes a double click or a second tab unable to roll
  the same die twice; the outcome is never stored, it is worked out again from these faces by the rules engine.
- `PostGameFighter`: the answers the players give about one fighter: whether it took part, its Glorious Deeds,
  the organiser's XP adjustment, and for a Captured fighter the ransom (paid or not, how many ducats, to whom).
"""

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import F, Q

from campaigns.checks import ChecksInPython
from campaigns.tracking import track_history
from combat.models.advancement import SkillAdvancementChoice

# A fighter's XP from one post-game is small; these bounds refuse a typo such as 100 Glorious Deeds.
MAX_GLORIOUS_DEEDS = 10
MAX_XP_ADJUSTMENT = 20
# Abilities add a few Promotion Dice (P-1); skills and items move the Exploration Score a few points (E-3);
# a model takes at most 3 Promotion Dice (P-2, a Glorious Deed) unless every eligible model has 2, so 6 is ample.
MAX_PROMOTION_EXTRA = 6
MAX_EXPLORATION_MODIFIER = 12
MAX_PROMOTION_DICE = 6


class PostGame(ChecksInPython, models.Model):
    """One attempt at a warband's post-game. Not tracked by pghistory: the roster rows it changes are, and the
    attempt is itself a log (who applied or reverted it, and when)."""

    class Status(models.TextChoices):
        OPEN = "open", "In progress"
        APPLIED = "applied", "Applied"
        REVERTED = "reverted", "Reverted"

    player = models.ForeignKey("campaigns.GamePlayer", on_delete=models.CASCADE, related_name="post_games")
    attempt = models.PositiveSmallIntegerField(default=1)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    started_at = models.DateTimeField(auto_now_add=True)
    applied_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    applied_at = models.DateTimeField(null=True, blank=True)
    reverted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reverted_at = models.DateTimeField(null=True, blank=True)
    snapshot = models.JSONField(
        null=True, blank=True, help_text="Before-images of every row the Apply changed, for Revert."
    )
    # The answers of the warband's own steps after Experience.
    promotion_extra = models.PositiveSmallIntegerField(
        default=0, help_text="Promotion Dice from abilities (RULING P-1)."
    )
    exploration_modifier = models.SmallIntegerField(
        default=0, help_text="The warband's exploration skills and items (RULING E-3)."
    )
    exploration_reroll_die = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Which Exploration Die (1 = the first) the winner rerolled (RULING E-2).",
    )
    exploration_reroll_declined = models.BooleanField(
        default=False, help_text="The winner declined its reroll of one Exploration Die (RULING E-2)."
    )
    location_code = models.CharField(
        max_length=40, blank=True, help_text="The Location picked when the score finds two (RULING E-4)."
    )
    # RULING P-4: the die rolled at a tally of 5 is not rolled; the model the player gave it to is kept here.
    promotion_automatic = models.ForeignKey(
        "rosters.Fighter",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The model given the automatic success after 5 failed Promotion Dice (RULING P-4).",
    )
    # Steps whose answers may all be "nothing" (no dice assigned, nobody dismissed): done once the player went on.
    promotions_passed = models.BooleanField(
        default=False, help_text="The Promotion Dice were assigned (or none), so the step went on."
    )
    dismiss_passed = models.BooleanField(
        default=False, help_text="The Dismiss the wounded page was passed (with or without dismissals)."
    )
    # Reinforcements called (True), declined (False) or not answered (None); Hire & Trade passed.
    reinforcements_called = models.BooleanField(
        null=True, blank=True, help_text="Reinforcements called instead of the Exploration (RULING C-4)."
    )
    trade_passed = models.BooleanField(
        default=False, help_text="The Hire & Trade page was passed (with or without purchases and sales)."
    )
    glory_passed = models.BooleanField(
        default=False, help_text="The Use Glory page was passed (with or without spends)."
    )
    summary = models.JSONField(
        default=list, blank=True, help_text="The changes the Apply made, one plain sentence each."
    )
    # The steps this attempt takes, fixed when it opens: a house rule switched on or off later applies to the
    # post-games not started yet, so an attempt half done (and its Revert) keeps the steps it began with.
    steps = ArrayField(
        models.CharField(max_length=40),
        default=list,
        blank=True,
        help_text="The keys of the post-game's steps when this attempt opened; empty for an older attempt.",
    )

    class Meta:
        ordering = ["player_id", "-attempt"]
        constraints = [
            models.UniqueConstraint(fields=["player", "attempt"], name="post_game_attempt_unique"),
            # One live attempt per warband and game: a second tab or a double click finds the same one.
            models.UniqueConstraint(
                fields=["player"], condition=~Q(status="reverted"), name="post_game_one_live_attempt"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["open", "applied", "reverted"]), name="post_game_status_valid"
            ),
            models.CheckConstraint(
                condition=~Q(status="applied") | Q(applied_at__isnull=False, snapshot__isnull=False),
                name="post_game_applied_has_snapshot",
            ),
            models.CheckConstraint(
                condition=Q(promotion_extra__lte=MAX_PROMOTION_EXTRA), name="post_game_promotion_extra_range"
            ),
            models.CheckConstraint(
                condition=Q(exploration_modifier__gte=-MAX_EXPLORATION_MODIFIER)
                & Q(exploration_modifier__lte=MAX_EXPLORATION_MODIFIER),
                name="post_game_exploration_modifier_range",
            ),
            models.CheckConstraint(
                condition=Q(exploration_reroll_die__isnull=True)
                | Q(exploration_reroll_die__gte=1, exploration_reroll_die__lte=6),
                name="post_game_exploration_reroll_die_range",
            ),
            # RULING E-2: the winner's reroll is taken or declined, never both.
            models.CheckConstraint(
                condition=Q(exploration_reroll_declined=False) | Q(exploration_reroll_die__isnull=True),
                name="post_game_exploration_reroll_taken_or_declined",
            ),
        ]

    def __str__(self) -> str:
        return f"Post-game of {self.player} (attempt {self.attempt})"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def is_applied(self) -> bool:
        return self.status == self.Status.APPLIED

    @property
    def was_reverted(self) -> bool:
        """Open again after a revert (the same attempt, its rolls kept)."""
        return self.is_open and self.reverted_at is not None


class PostGameRoll(ChecksInPython, models.Model):
    """A roll made for a fighter in a post-game attempt: the link between the attempt and the dice log."""

    class Purpose(models.TextChoices):
        # RULING T-2: a Troop's Survival Roll, one D6.
        SURVIVAL = "survival", "Survival Roll"
        # RULING T-3 and T-5: an ELITE model's D66 on the Trauma Table, rolled again for a result it has.
        TRAUMA = "trauma", "Trauma roll"
        # TRAUMA_TABLE.md, Bitter Lessons: "gains D3 extra XP".
        BITTER_LESSONS = "bitter_lessons", "Bitter Lessons D3"
        # CAMPAIGN_PHASE.md, Experience and Advancement; RULING X-3: 2D6 on one of the two picked skill charts.
        ADVANCEMENT = "advancement", "Skill Advancement 2D6"
        # RULINGS P-3 and P-4: one Promotion Die (D6) for a Troop (or a Head-Wounded ELITE, P-6).
        PROMOTION = "promotion", "Promotion Die"
        # RULING E-1: the warband's Exploration Dice (D6), no fighter's.
        EXPLORATION = "exploration", "Exploration Dice"
        # RULING E-2: the winner's reroll of one Exploration Die.
        EXPLORATION_REROLL = "exploration_reroll", "Exploration reroll"

    post_game = models.ForeignKey(PostGame, on_delete=models.CASCADE, related_name="rolls")
    # None for a roll of the whole warband (the Exploration Dice).
    fighter = models.ForeignKey(
        "rosters.Fighter", on_delete=models.CASCADE, null=True, blank=True, related_name="post_game_rolls"
    )
    purpose = models.CharField(max_length=20, choices=Purpose.choices)
    sequence = models.PositiveSmallIntegerField(
        help_text="1 for the first roll of this purpose, 2 for a reroll..."
    )
    # RESTRICT, not PROTECT: a stored roll cannot be deleted on its own, but it goes with its game or campaign.
    dice_roll = models.OneToOneField(
        "combat.DiceRoll", on_delete=models.RESTRICT, related_name="post_game_roll"
    )

    class Meta:
        ordering = ["post_game_id", "fighter_id", "purpose", "sequence"]
        constraints = [
            # Never the same die twice: a refresh, a double click or a second tab finds this roll instead.
            # NULLS NOT DISTINCT: the warband's own rolls (no fighter) are made once too.
            models.UniqueConstraint(
                fields=["post_game", "fighter", "purpose", "sequence"],
                name="post_game_roll_once",
                nulls_distinct=False,
            ),
            models.CheckConstraint(condition=Q(sequence__gte=1), name="post_game_roll_sequence_positive"),
            models.CheckConstraint(
                condition=Q(
                    purpose__in=[
                        "survival",
                        "trauma",
                        "bitter_lessons",
                        "advancement",
                        "promotion",
                        "exploration",
                        "exploration_reroll",
                    ]
                ),
                name="post_game_roll_purpose_valid",
            ),
            # A fighter's roll names its fighter; the Exploration Dice are the warband's.
            models.CheckConstraint(
                condition=Q(purpose__in=["exploration", "exploration_reroll"], fighter__isnull=True)
                | (~Q(purpose__in=["exploration", "exploration_reroll"]) & Q(fighter__isnull=False)),
                name="post_game_roll_fighter_when_needed",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_purpose_display()} {self.sequence} for fighter {self.fighter_id}"


@track_history
class PostGameFighter(ChecksInPython, models.Model):
    """The players' answers about one fighter in a post-game attempt (defaults when there is no row)."""

    post_game = models.ForeignKey(PostGame, on_delete=models.CASCADE, related_name="answers")
    fighter = models.ForeignKey("rosters.Fighter", on_delete=models.CASCADE, related_name="post_game_answers")
    took_part = models.BooleanField(default=True, help_text="Took part in the game (for the XP it earns).")
    glorious_deeds = models.PositiveSmallIntegerField(
        default=0,
        help_text=(
            "Glorious Deeds done in the game: at least one gives an ELITE model 1 XP (RULING X-4); "
            "a Troop's count toward the Promotion Pool."
        ),
    )
    xp_adjustment = models.SmallIntegerField(
        default=0, help_text="The organiser's adjustment to the XP gained."
    )
    ransom_paid = models.BooleanField(
        null=True, blank=True, help_text="Captured: whether the ransom is paid."
    )
    ransom = models.PositiveIntegerField(default=0, help_text="Captured: the ransom paid, in ducats.")
    captor = models.ForeignKey(
        "rosters.Warband", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Ransom by agreement (TRAUMA_TABLE.md 12, "the players may agree a ransom"): the captive's owner offers, the
    # captor's player (or the organiser for an absent player) accepts or refuses. `ransom_paid` is the settled
    # answer the engine reads; while an offer waits it is None and `ransom_offer` holds the ducats offered.
    ransom_offer = models.PositiveIntegerField(
        null=True, blank=True, help_text="Captured: the ransom offered, waiting for the captor's answer."
    )
    ransom_offered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    ransom_offered_at = models.DateTimeField(null=True, blank=True)
    ransom_answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    ransom_answered_at = models.DateTimeField(null=True, blank=True)
    # Fix one fighter after Apply: its Trauma result is reopened while the rest of the post-game stands.
    reopened = models.BooleanField(
        default=False,
        help_text="Its Trauma result is reopened after Apply; the rest of the post-game stands.",
    )
    # Promotions (RULINGS P-1 to P-6): the Promotion Dice assigned to this model.
    promotion_dice = models.PositiveSmallIntegerField(
        default=0, help_text="Promotion Dice assigned (RULING P-2)."
    )
    # CAMPAIGN_PHASE.md: a fighter with 2 or more Battle Scars may be dismissed (its Battlekit to the Arsenal).
    dismissed = models.BooleanField(default=False, help_text="Dismissed after the Trauma Step.")

    class Meta:
        ordering = ["post_game_id", "fighter_id"]
        constraints = [
            models.UniqueConstraint(fields=["post_game", "fighter"], name="post_game_fighter_once"),
            models.CheckConstraint(
                condition=Q(glorious_deeds__lte=MAX_GLORIOUS_DEEDS), name="post_game_fighter_deeds_range"
            ),
            models.CheckConstraint(
                condition=Q(xp_adjustment__gte=-MAX_XP_ADJUSTMENT) & Q(xp_adjustment__lte=MAX_XP_ADJUSTMENT),
                name="post_game_fighter_adjustment_range",
            ),
            models.CheckConstraint(
                condition=Q(ransom_paid=True) | Q(ransom=0), name="post_game_fighter_ransom_only_when_paid"
            ),
            models.CheckConstraint(
                condition=Q(promotion_dice__lte=MAX_PROMOTION_DICE),
                name="post_game_fighter_promotion_dice_range",
            ),
        ]

    def __str__(self) -> str:
        return f"Answers for fighter {self.fighter_id} in post-game {self.post_game_id}"


@track_history
class PostGameAdvancement(SkillAdvancementChoice):
    """One Skill Advancement Roll of a fighter in a post-game attempt (CAMPAIGN_PHASE.md; RULINGS X-1 to X-3): the
    two skill charts the player picked, and the skill taken (`SkillAdvancementChoice`). Its two 2D6 are `PostGameRoll`s of purpose
    `advancement`, sequence `2 * number - 1` for the first chart and `2 * number` for the second."""

    post_game = models.ForeignKey(PostGame, on_delete=models.CASCADE, related_name="advancements")
    fighter = models.ForeignKey(
        "rosters.Fighter", on_delete=models.CASCADE, related_name="post_game_advancements"
    )
    number = models.PositiveSmallIntegerField(
        help_text="1 for the first Skill Advancement Roll due, 2 for the next..."
    )

    class Meta:
        ordering = ["post_game_id", "fighter_id", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["post_game", "fighter", "number"], name="post_game_advancement_once"
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1) & Q(number__lte=6), name="post_game_advancement_number_range"
            ),
            # CAMPAIGN_PHASE.md: "the player picks 2 of the 4 skill charts": two different ones.
            models.CheckConstraint(
                condition=~Q(first_chart=F("second_chart")), name="post_game_advancement_two_charts"
            ),
        ]

    def __str__(self) -> str:
        return (
            f"Skill Advancement {self.number} of fighter {self.fighter_id} in post-game {self.post_game_id}"
        )
