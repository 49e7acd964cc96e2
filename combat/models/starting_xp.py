"""A late joiner's starting XP (CAMPAIGN_PHASE.md, late joiners): "may tick 1 XP per battle
played by the warband that has played most, shared among its ELITE models as its player likes, with the Skill
Advancements those XP reach."

It happens outside any game, so it has its own home beside the post-game's tables, in the same shape:

- `StartingXp`: the warband's one ticking of its starting XP (a unique warband: once only). Open while its Skill
  Advancement Rolls are made; applied once, and then it stands.
- `StartingXpFighter`: one ELITE fighter's share, with its XP before it (the Skill Advancement Rolls it reaches
  follow from both, RULING X-1). At the Apply, `told` holds its history sentence.
- `StartingXpAdvancement` and `StartingXpRoll`: one Skill Advancement Roll's two picked charts and the skill taken,
  and each chart's 2D6 tied to the campaign's dice log, as `PostGameAdvancement` and `PostGameRoll` are for a
  post-game (sequence `2 * number - 1` for the first chart, `2 * number` for the second).
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from campaigns.checks import ChecksInPython
from campaigns.tracking import track_history
from combat.models.advancement import SkillAdvancementChoice

# A late joiner's share is at most its allowance: 1 per battle, and a warband joins before battle 12.
MAX_STARTING_XP = 11
SENTENCE_LENGTH = 500


class StartingXp(ChecksInPython, models.Model):
    """A late joiner's starting XP, ticked once. Not tracked: the fighters' XP and skills it writes are, and its
    fighters' shares tell the history."""

    class Status(models.TextChoices):
        OPEN = "open", "In progress"
        APPLIED = "applied", "Applied"

    warband = models.OneToOneField(
        "rosters.Warband", on_delete=models.CASCADE, related_name="starting_xp_tick"
    )
    allowance = models.PositiveSmallIntegerField(
        help_text="1 per battle of the warband that had played most."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    started_at = models.DateTimeField(auto_now_add=True)
    applied_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["open", "applied"]), name="starting_xp_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(allowance__lte=MAX_STARTING_XP), name="starting_xp_allowance_range"
            ),
            models.CheckConstraint(
                condition=~Q(status="applied") | Q(applied_at__isnull=False), name="starting_xp_applied_when"
            ),
        ]

    def __str__(self) -> str:
        return f"Starting XP of warband {self.warband_id}"

    @property
    def is_applied(self) -> bool:
        return self.status == self.Status.APPLIED


@track_history
class StartingXpFighter(ChecksInPython, models.Model):
    """One ELITE fighter's share of the starting XP."""

    start = models.ForeignKey(StartingXp, on_delete=models.CASCADE, related_name="shares")
    fighter = models.ForeignKey(
        "rosters.Fighter", on_delete=models.CASCADE, related_name="starting_xp_shares"
    )
    xp = models.PositiveSmallIntegerField(help_text="Its share of the starting XP.")
    xp_before = models.PositiveIntegerField(help_text="Its XP when the share was ticked.")
    told = models.CharField(
        max_length=SENTENCE_LENGTH, blank=True, help_text="Its history sentence, at the Apply."
    )

    class Meta:
        ordering = ["start_id", "fighter_id"]
        constraints = [
            models.UniqueConstraint(fields=["start", "fighter"], name="starting_xp_fighter_once"),
            models.CheckConstraint(
                condition=Q(xp__gte=1) & Q(xp__lte=MAX_STARTING_XP), name="starting_xp_fighter_xp_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.xp} starting XP for fighter {self.fighter_id}"


class StartingXpAdvancement(SkillAdvancementChoice):
    """One Skill Advancement Roll the starting XP reached: the two charts picked and the skill taken, stored as the
    post-game's are (`SkillAdvancementChoice`)."""

    start = models.ForeignKey(StartingXp, on_delete=models.CASCADE, related_name="advancements")
    fighter = models.ForeignKey("rosters.Fighter", on_delete=models.CASCADE, related_name="+")
    number = models.PositiveSmallIntegerField(help_text="1 for its first Skill Advancement Roll due here...")

    class Meta:
        ordering = ["start_id", "fighter_id", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["start", "fighter", "number"], name="starting_xp_advancement_once"
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1) & Q(number__lte=6), name="starting_xp_advancement_number_range"
            ),
            # CAMPAIGN_PHASE.md: "the player picks 2 of the 4 skill charts": two different ones.
            models.CheckConstraint(
                condition=~Q(first_chart=F("second_chart")), name="starting_xp_advancement_two_charts"
            ),
        ]

    def __str__(self) -> str:
        return f"Skill Advancement {self.number} of fighter {self.fighter_id} (starting XP)"


class StartingXpRoll(ChecksInPython, models.Model):
    """A Skill Advancement 2D6 of the starting XP, tied to the campaign's dice log; never deleted on its own."""

    start = models.ForeignKey(StartingXp, on_delete=models.CASCADE, related_name="rolls")
    fighter = models.ForeignKey("rosters.Fighter", on_delete=models.CASCADE, related_name="+")
    sequence = models.PositiveSmallIntegerField(
        help_text="2 * number - 1 for the first chart, 2 * number the second."
    )
    dice_roll = models.OneToOneField(
        "combat.DiceRoll", on_delete=models.RESTRICT, related_name="starting_xp_roll"
    )

    class Meta:
        ordering = ["start_id", "fighter_id", "sequence"]
        constraints = [
            # Never the same die twice: a double click or a second tab finds this roll instead.
            models.UniqueConstraint(fields=["start", "fighter", "sequence"], name="starting_xp_roll_once"),
            models.CheckConstraint(condition=Q(sequence__gte=1), name="starting_xp_roll_sequence_positive"),
        ]

    def __str__(self) -> str:
        return f"Starting XP 2D6 {self.sequence} for fighter {self.fighter_id}"

    @property
    def purpose(self) -> str:
        """As `PostGameRoll.purpose` reads: the pages that show a roll (its fix form) ask what it was for."""
        return "advancement"
