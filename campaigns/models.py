"""Campaigns, their members and the games they play.

`campaigns` sits at the bottom of the app layers (docs/architecture.md): it points at warbands and fighters only by
string reference ("rosters.Warband"), and never imports `rosters` or `combat` but the pure engine, which every app
may ask for a rule (what a campaign's preset and house rules use).
"""

import secrets
from functools import cached_property

from django.conf import settings
from django.core.validators import MaxLengthValidator, MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from campaigns.checks import ChecksInPython
from campaigns.terms import Terms, terms_for
from campaigns.tracking import track_history
from combat.rules.post_game_steps import CampaignUses, campaign_uses

# The Battle Scar limit: 3 by default in the rules (RULINGS.md T-4); a house rule may set 1 to 10. The field's
# validators, the database constraint and the forms (which read the field) all take these numbers.
SCAR_LIMIT_DEFAULT = 3
SCAR_LIMIT_MIN = 1
SCAR_LIMIT_MAX = 10


def new_invitation_code() -> str:
    return secrets.token_urlsafe(12)


@track_history(ignore=("last_game_number",))
class Campaign(ChecksInPython, models.Model):
    class Preset(models.TextChoices):
        TRENCH_CRUSADE = "trench_crusade", "Trench Crusade"
        FALLOUT_FACTIONS = "fallout_factions", "Fallout: Factions"

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        ARCHIVED = "archived", "Archived"

    name = models.CharField(max_length=100)
    description = models.TextField(blank=True)
    preset = models.CharField(max_length=20, choices=Preset.choices, default=Preset.TRENCH_CRUSADE)
    # Rows of the campaign's own Trauma Table (house rules), in the shape of the shipped data file;
    # empty means the shipped default table (Trench Crusade v1.0) is in use.
    house_trauma_table = models.JSONField(null=True, blank=True)
    # Games are numbered 1, 2, ... per campaign; a deleted game's number is never given again, so its history
    # stays its own.
    last_game_number = models.PositiveIntegerField(default=0, editable=False)
    scar_limit = models.PositiveSmallIntegerField(
        default=SCAR_LIMIT_DEFAULT,
        validators=[MinValueValidator(SCAR_LIMIT_MIN), MaxValueValidator(SCAR_LIMIT_MAX)],
        help_text="Battle Scars at which an ELITE fighter is Unfit For Duty.",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    # The steps of the campaign phase its preset uses. Trench Crusade's Threshold Value and
    # Field Strength (CAMPAIGN_PHASE.md, RULING C-1) may be left off, as a Fallout: Factions group may choose.
    uses_limits = models.BooleanField(
        "Threshold Value and Field Strength",
        default=True,
        help_text="Show each warband's Threshold Value and Field Strength for its next battle (RULING C-1), "
        "and warn when it is over them.",
    )
    # The house rules of its post-game: a step of the post-battle sequence switched on (true) or off (false) where
    # it differs from the preset's own; the engine decides which keys exist and what each needs
    # (combat/rules/post_game_steps.py). Empty: the preset's steps as they are.
    post_game_switches = models.JSONField(
        "post-game steps",
        default=dict,
        blank=True,
        help_text="Post-battle steps switched on or off from the preset's own (house rules).",
    )
    invitation_code = models.CharField(max_length=32, unique=True, default=new_invitation_code)
    # A read-only link for people without an account; empty when none is shared.
    share_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="campaigns_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(scar_limit__gte=SCAR_LIMIT_MIN) & Q(scar_limit__lte=SCAR_LIMIT_MAX),
                name="campaign_scar_limit_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_fallout(self) -> bool:
        return self.preset == self.Preset.FALLOUT_FACTIONS

    @property
    def terms(self) -> Terms:
        """The words this campaign's pages use (ELITE/Troop or Champion/Grunt...): see campaigns/terms.py."""
        return terms_for(self.preset)

    @cached_property
    def uses(self) -> CampaignUses:
        """What this campaign's pages show because its preset or house rules use it (the Promotion Dice tally,
        Glory, the crew's XP, the campaign's stages): the engine decides (`rules.campaign_uses`), templates read
        the flags."""
        return campaign_uses(
            preset=self.preset, switches=self.post_game_switches or {}, campaign_stages=self.uses_limits
        )

    @property
    def uses_house_trauma_table(self) -> bool:
        return bool(self.house_trauma_table)


@track_history
class Membership(ChecksInPython, models.Model):
    class Role(models.TextChoices):
        ORGANISER = "organiser", "Organiser"
        PLAYER = "player", "Player"
        SPECTATOR = "spectator", "Spectator"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="membership_once_per_campaign"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) in {self.campaign}"


@track_history
class Game(ChecksInPython, models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", "In progress"
        RECORDED = "recorded", "Recorded"
        POST_GAME = "post_game", "Post-game in progress"
        DONE = "done", "Post-game done"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField(help_text="Game 1, Game 2, ... within the campaign.")
    played_on = models.DateField()
    scenario = models.CharField(max_length=100, blank=True)
    notes = models.TextField(blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.RECORDED)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="game_number_once_per_campaign"),
        ]

    def __str__(self) -> str:
        return f"Game {self.number}"


# CAMPAIGN_PHASE.md: "Each scenario awards Victory Points"; no scenario awards more than this in one game.
VICTORY_POINTS_MAX = 100


@track_history
class GamePlayer(ChecksInPython, models.Model):
    """A warband that took part in a game, with its result, its Victory Points and where its post-game stands."""

    class Result(models.TextChoices):
        WIN = "win", "Win"
        LOSS = "loss", "Loss"
        DRAW = "draw", "Draw"

    class PostGame(models.TextChoices):
        PENDING = "pending", "Waiting"
        IN_PROGRESS = "in_progress", "In progress"
        DONE = "done", "Done"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="players")
    warband = models.ForeignKey("rosters.Warband", on_delete=models.CASCADE, related_name="game_entries")
    result = models.CharField(max_length=4, choices=Result.choices, blank=True)
    post_game = models.CharField(max_length=12, choices=PostGame.choices, default=PostGame.PENDING)
    victory_points = models.PositiveSmallIntegerField(
        "Victory Points",
        default=0,
        validators=[MinValueValidator(0), MaxValueValidator(VICTORY_POINTS_MAX)],
        help_text="The scenario's Victory Points this warband scored (the leaderboard ranks by them, RULING W-2).",
    )
    # The fighters its player fields for this battle, checked against the Threshold Value and
    # Field Strength (RULING C-1) by rosters/services/fielding.py.
    fielded = models.ManyToManyField("rosters.Fighter", blank=True, related_name="fielded_in")

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "warband"], name="warband_once_per_game"),
            models.CheckConstraint(
                condition=Q(victory_points__gte=0) & Q(victory_points__lte=VICTORY_POINTS_MAX),
                name="game_player_victory_points_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.warband} in {self.game}"


@track_history
class OutOfAction(ChecksInPython, models.Model):
    """A fighter taken Out of Action in a game: the input of its warband's Trauma Step."""

    player = models.ForeignKey(GamePlayer, on_delete=models.CASCADE, related_name="out_of_action")
    fighter = models.ForeignKey("rosters.Fighter", on_delete=models.CASCADE, related_name="out_of_action")

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "fighter"], name="out_of_action_once_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.fighter} Out of Action in {self.player.game}"


# A battle report's limits: the fields carry them, and the report form reads them from the fields.
REPORT_TITLE_LENGTH = 120
REPORT_TEXT_LENGTH = 10_000


@track_history
class BattleReport(ChecksInPython, models.Model):
    """A game's battle report: a title and plain text (shown escaped, with its line breaks), written by a player
    whose warband took part or by the organiser, and edited by its author or the organiser."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="report")
    title = models.CharField(max_length=REPORT_TITLE_LENGTH)
    text = models.TextField(
        max_length=REPORT_TEXT_LENGTH, validators=[MaxLengthValidator(REPORT_TEXT_LENGTH)]
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="battle_reports"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~Q(title=""), name="battle_report_has_a_title"),
        ]

    def __str__(self) -> str:
        return f"{self.title} ({self.game})"
