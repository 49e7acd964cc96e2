"""The post-game's Use Glory step (CAMPAIGN_PHASE.md step 7, "Use Glory"): what a warband spends
its Glory on after a battle.

"Glory Points are spent on Glory Items, mercenaries and other benefits." A `PostGameGlory` is one spend the player
has planned; like the other steps' answers it is not the roster: only the Apply writes it (the Glory Item given
to a fighter or the Arsenal, the mercenary hired, the benefit noted in the ledger), one ledger entry each moving
Glory, in the Apply's one transaction; the Revert takes it back from what the Apply kept.

A model of its own rather than `PostGameTrade` with a currency field: every read of a trade (the Strongbox's
lowest point, the Reinforcements' budget, the sales, the ledger's ducats, its check constraints) takes a trade's
cost as ducats, and each would have to filter on the currency to stay right; a spend also has what no trade has
(a benefit, with what it is) and no sale. Kept apart, each step's sums stay whole and each table's constraints say
exactly what its rows may be.
"""

from django.core.validators import MaxLengthValidator
from django.db import models
from django.db.models import Q

from campaigns.checks import ChecksInPython
from combat.models.postgame import PostGame
from rosters.models.limits import NAME_LENGTH, keywords_field, range_checks, within

# Glory a spend may cost: at least 1 (a spend of nothing is not one: the ledger's entries move something), and
# 1000 is far past what a warband gathers in a campaign: a bigger number is a typing slip, not a price.
GLORY_COST_RANGE = (1, 1_000)
GLORY_LIMITS = {"glory": GLORY_COST_RANGE}
BENEFIT_LENGTH = 200


class PostGameGlory(ChecksInPython, models.Model):
    """One spend of Glory planned in the post-game: a Glory Item (Battlekit, for a fighter or the Arsenal), a
    mercenary (a fighter hired for Glory) or another benefit (typed with what it is)."""

    class Kind(models.TextChoices):
        ITEM = "item", "Glory Item"
        MERCENARY = "mercenary", "Mercenary"
        BENEFIT = "benefit", "Other benefit"

    post_game = models.ForeignKey(PostGame, on_delete=models.CASCADE, related_name="glory_spends")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    name = models.CharField(max_length=NAME_LENGTH, validators=[MaxLengthValidator(NAME_LENGTH)])
    glory = models.PositiveIntegerField(
        validators=within(GLORY_LIMITS, "glory"), help_text="The Glory it costs."
    )
    fighter_type = models.CharField(max_length=NAME_LENGTH, blank=True, help_text="A mercenary's type.")
    keywords = keywords_field()
    removable = models.BooleanField(default=True, help_text="A Glory Item: whether it can be removed.")
    holder = models.ForeignKey(
        "rosters.Fighter",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        help_text="A Glory Item: the fighter who carries it (none: the Arsenal).",
    )
    benefit = models.CharField(
        max_length=BENEFIT_LENGTH,
        blank=True,
        validators=[MaxLengthValidator(BENEFIT_LENGTH)],
        help_text="Another benefit: what it is, in the player's words.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["post_game_id", "id"]
        constraints = [
            *range_checks("post_game_glory", GLORY_LIMITS),
            models.CheckConstraint(
                condition=Q(kind__in=["item", "mercenary", "benefit"]), name="post_game_glory_kind_known"
            ),
            # Only a Glory Item is carried; only a benefit says what it is, and it must.
            models.CheckConstraint(
                condition=Q(kind="item") | Q(holder__isnull=True), name="post_game_glory_only_items_carried"
            ),
            models.CheckConstraint(
                condition=(Q(kind="benefit") & ~Q(benefit="")) | (~Q(kind="benefit") & Q(benefit="")),
                name="post_game_glory_benefit_says_what",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.name} ({self.glory} Glory)"
