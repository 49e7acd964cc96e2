"""The post-game's money steps: what a warband buys and sells after a battle, and whether it
calls Reinforcements.

CAMPAIGN_PHASE.md, "The order of the steps": 4. Reinforcements (taking them skips 5, Looting and Exploration),
6. Hire new recruits and trade (buy; sell surplus). Like the other steps' answers, nothing here is the roster: a
`PostGameTrade` is a purchase or a sale the player has planned, and only the Apply writes it (the fighter
recruited, the Battlekit bought or sold, one ledger entry each), in the Apply's one transaction; the Revert takes
it back from the before-images the Apply kept.
"""

from django.core.validators import MaxLengthValidator
from django.db import models
from django.db.models import Q

from campaigns.checks import ChecksInPython
from combat.models.postgame import PostGame
from rosters.models.limits import COST_RANGE, ITEM_LIMITS, NAME_LENGTH, keywords_field, range_checks, within


class PostGameTrade(ChecksInPython, models.Model):
    """One purchase or sale planned in the post-game: a fighter recruited, Battlekit bought (for a fighter or the
    Arsenal) or Battlekit sold; `reinforcements` when it is paid from the Reinforcements' budget (RULING C-4)
    rather than from the Strongbox."""

    class Kind(models.TextChoices):
        RECRUIT = "recruit", "Recruit"
        BUY = "buy", "Buy"
        SELL = "sell", "Sell"

    post_game = models.ForeignKey(PostGame, on_delete=models.CASCADE, related_name="trades")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    reinforcements = models.BooleanField(
        default=False,
        help_text="Bought with the Reinforcements' budget (RULING C-4), not from the Strongbox.",
    )
    name = models.CharField(max_length=NAME_LENGTH, validators=[MaxLengthValidator(NAME_LENGTH)])
    fighter_type = models.CharField(max_length=NAME_LENGTH, blank=True)
    keywords = keywords_field()
    removable = models.BooleanField(default=True, help_text="Battlekit bought: whether it can be removed.")
    # A recruit picked from the price list: the profile the fighter starts with (movement, health, harm_limit).
    profile = models.JSONField(default=dict, blank=True)
    # The cost paid (a recruit, a purchase) or the base cost of what is sold (it sells for half, RULING C-3).
    cost = models.PositiveIntegerField(validators=within(ITEM_LIMITS, "cost"))
    holder = models.ForeignKey(
        "rosters.Fighter",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        help_text="Battlekit bought: the fighter who carries it (none: the Arsenal).",
    )
    # Battlekit sold: the piece's id, no foreign key (the Apply deletes the row and the Revert puts the same id
    # back, so the plan still names it after a revert).
    sold_item_id = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["post_game_id", "id"]
        constraints = [
            *range_checks("post_game_trade", {"cost": COST_RANGE}),
            models.CheckConstraint(
                condition=Q(kind__in=["recruit", "buy", "sell"]), name="post_game_trade_kind_known"
            ),
            # A sale names what is sold, and only a sale does; Reinforcements buy, they never sell (C-4).
            models.CheckConstraint(
                condition=(Q(kind="sell") & Q(sold_item_id__isnull=False) & Q(reinforcements=False))
                | (~Q(kind="sell") & Q(sold_item_id__isnull=True)),
                name="post_game_trade_sale_names_item",
            ),
            models.UniqueConstraint(
                fields=["post_game", "sold_item_id"],
                condition=Q(kind="sell"),
                name="post_game_trade_sold_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.name} ({self.cost})"
