"""Combat's tables in the Django admin, for looking into a game or a post-game and fixing a stuck one.

Logs stay as they were written: the dice log (`DiceRoll`, RULING T-7), the tracker's actions with their
before-images (`TrackerAction`, what Undo restores) and a post-game's attempts and rolls (`PostGame` with the
snapshot Revert restores, `PostGameRoll`) can be read, and deleted by a superuser, but not added or edited here:
Undo, Revert and the dice log would no longer tell the truth. The state the players can fix by hand (a board's
pending step, a tracked fighter's Harm, the answers of a post-game) stays editable.
"""

from django.contrib import admin

from combat.models import (
    CampaignDataSet,
    DiceRoll,
    GameScenario,
    PostGame,
    PostGameAdvancement,
    PostGameFighter,
    PostGameGlory,
    PostGameRoll,
    PostGameTrade,
    StartingXp,
    StartingXpAdvancement,
    StartingXpFighter,
    StartingXpRoll,
    TrackerAction,
    TrackerActionKey,
    TrackerFighter,
    TrackerGame,
)


class ReadOnlyLogAdmin(admin.ModelAdmin):
    """A log: every field shown, nothing added or changed by hand."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(DiceRoll)
class DiceRollAdmin(ReadOnlyLogAdmin):
    list_display = ["created_at", "campaign", "game", "purpose", "label", "faces", "source", "rolled_by"]
    list_filter = ["source", "purpose"]
    list_select_related = ["campaign", "game", "rolled_by"]
    search_fields = ["label"]
    date_hierarchy = "created_at"
    raw_id_fields = ["campaign", "game", "warband", "fighter", "rolled_by"]


# ---- In-game tracker --------------------------------------------------------------------------------


class TrackerFighterInline(admin.TabularInline):
    model = TrackerFighter
    extra = 0
    fields = ["fighter", "player", "harm", "injuries", "fatigue", "status", "models_left", "lost_hp"]
    raw_id_fields = ["fighter", "player"]
    show_change_link = True


@admin.register(TrackerGame)
class TrackerGameAdmin(admin.ModelAdmin):
    list_display = ["game", "campaign", "version", "started_at", "ended_at", "waiting"]
    list_filter = [("ended_at", admin.EmptyFieldListFilter)]
    list_select_related = ["game__campaign"]
    search_fields = ["game__campaign__name"]
    raw_id_fields = ["game"]
    # The version is what every phone's form is checked against: only actions move it.
    readonly_fields = ["version", "started_at"]
    inlines = [TrackerFighterInline]

    @admin.display(description="Campaign", ordering="game__campaign__name")
    def campaign(self, obj: TrackerGame):
        return obj.game.campaign

    @admin.display(description="Step waiting")
    def waiting(self, obj: TrackerGame) -> str:
        return (obj.pending or {}).get("kind", "")


@admin.register(TrackerFighter)
class TrackerFighterAdmin(admin.ModelAdmin):
    list_display = [
        "fighter",
        "tracker",
        "player",
        "harm",
        "injuries",
        "fatigue",
        "status",
        "models_left",
        "lost_hp",
    ]
    list_filter = ["status"]
    list_select_related = ["fighter", "tracker", "player__game", "player__warband"]
    search_fields = ["fighter__name"]
    raw_id_fields = ["tracker", "player", "fighter"]


@admin.register(TrackerAction)
class TrackerActionAdmin(ReadOnlyLogAdmin):
    list_display = ["tracker", "version", "kind", "summary", "by", "created_at", "undone_at"]
    list_filter = ["kind", ("undone_at", admin.EmptyFieldListFilter)]
    list_select_related = ["tracker", "by"]
    search_fields = ["summary"]
    raw_id_fields = ["tracker", "by", "undone_by"]


@admin.register(TrackerActionKey)
class TrackerActionKeyAdmin(ReadOnlyLogAdmin):
    """The idempotency key a phone gave an action: it goes with its action, never edited."""

    list_display = ["key", "game", "user", "batch", "action", "created_at"]
    list_select_related = ["game", "user", "action"]
    search_fields = ["key", "batch"]
    raw_id_fields = ["game", "user", "action"]


# ---- Post-game Trauma Step ----------------------------------------------------------------------------


class PostGameRollInline(admin.TabularInline):
    model = PostGameRoll
    extra = 0
    fields = ["fighter", "purpose", "sequence", "dice_roll"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class PostGameFighterInline(admin.TabularInline):
    model = PostGameFighter
    extra = 0
    fields = ["fighter", "took_part", "glorious_deeds", "xp_adjustment", "ransom_paid", "ransom", "captor"]
    raw_id_fields = ["fighter", "captor"]
    show_change_link = True


@admin.register(PostGame)
class PostGameAdmin(admin.ModelAdmin):
    """An attempt and its before-images (`snapshot`, what Revert restores) are read-only; the answers in its
    inline stay editable, as they are in the wizard until the Apply."""

    list_display = [
        "player",
        "campaign",
        "attempt",
        "status",
        "started_by",
        "started_at",
        "applied_at",
        "reverted_at",
    ]
    list_filter = ["status"]
    list_select_related = ["player__game__campaign", "player__warband", "started_by"]
    search_fields = ["player__warband__name"]
    inlines = [PostGameRollInline, PostGameFighterInline]

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # an attempt starts with the wizard's first write

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in self.model._meta.fields]

    @admin.display(description="Campaign", ordering="player__game__campaign__name")
    def campaign(self, obj: PostGame):
        return obj.player.game.campaign


@admin.register(PostGameRoll)
class PostGameRollAdmin(ReadOnlyLogAdmin):
    list_display = ["post_game", "fighter", "purpose", "sequence", "dice_roll"]
    list_filter = ["purpose"]
    list_select_related = ["post_game__player__game", "post_game__player__warband", "fighter", "dice_roll"]
    raw_id_fields = ["post_game", "fighter", "dice_roll"]


@admin.register(PostGameFighter)
class PostGameFighterAdmin(admin.ModelAdmin):
    list_display = [
        "fighter",
        "post_game",
        "took_part",
        "glorious_deeds",
        "xp_adjustment",
        "ransom_paid",
        "ransom",
        "captor",
    ]
    list_filter = ["took_part", "ransom_paid"]
    list_select_related = ["fighter", "post_game__player__game", "post_game__player__warband", "captor"]
    search_fields = ["fighter__name"]
    raw_id_fields = ["post_game", "fighter", "captor"]


# ---- Campaign data --------------------------------------------------------------------------


@admin.register(CampaignDataSet)
class CampaignDataSetAdmin(ReadOnlyLogAdmin):
    """Each version as saved: a past post-game reads the one it used, so none is edited (a trigger refuses too)."""

    list_display = ["campaign", "kind", "version", "created_by", "created_at", "note"]
    list_filter = ["kind"]
    list_select_related = ["campaign", "created_by"]
    search_fields = ["campaign__name", "kind", "note"]
    date_hierarchy = "created_at"
    raw_id_fields = ["campaign", "created_by"]


@admin.register(GameScenario)
class GameScenarioAdmin(ReadOnlyLogAdmin):
    """A game's scenario roll: the table version it read and every face, as rolled (its dice are in the log)."""

    list_display = ["game", "campaign", "stage", "scenario", "faces", "rolled_by", "created_at"]
    list_filter = ["stage"]
    list_select_related = ["game", "campaign", "rolled_by"]
    search_fields = ["scenario"]
    raw_id_fields = ["game", "campaign", "table", "rolled_by"]


@admin.register(PostGameAdvancement)
class PostGameAdvancementAdmin(admin.ModelAdmin):
    """A Skill Advancement Roll's answers (the two charts, the skill taken); its dice are `PostGameRoll`s."""

    list_display = ["fighter", "post_game", "number", "first_chart", "second_chart", "skill_name"]
    list_select_related = ["fighter", "post_game__player__game", "post_game__player__warband"]
    search_fields = ["fighter__name", "skill_name"]
    raw_id_fields = ["post_game", "fighter"]


@admin.register(PostGameTrade)
class PostGameTradeAdmin(ReadOnlyLogAdmin):
    """A purchase or sale of the post-game's money steps: the Apply writes the ledger entries from it
    and the Revert takes them back by it, so it is read here, not edited."""

    list_display = ["post_game", "kind", "name", "cost", "reinforcements", "holder", "created_at"]
    list_filter = ["kind", "reinforcements"]
    list_select_related = ["post_game__player__game", "post_game__player__warband", "holder"]
    search_fields = ["name"]
    raw_id_fields = ["post_game", "holder"]


@admin.register(PostGameGlory)
class PostGameGloryAdmin(ReadOnlyLogAdmin):
    """A spend of the post-game's Use Glory: the Apply writes the ledger entries from it and the Revert
    takes them back by it, so it is read here, not edited."""

    list_display = ["post_game", "kind", "name", "glory", "holder", "created_at"]
    list_filter = ["kind"]
    list_select_related = ["post_game__player__game", "post_game__player__warband", "holder"]
    search_fields = ["name", "benefit"]
    raw_id_fields = ["post_game", "holder"]


# ---- A late joiner's starting XP ------------------------------------------------------------


class StartingXpFighterInline(admin.TabularInline):
    model = StartingXpFighter
    extra = 0
    fields = ["fighter", "xp", "xp_before"]
    raw_id_fields = ["fighter"]


@admin.register(StartingXp)
class StartingXpAdmin(admin.ModelAdmin):
    """A warband's one ticking of its starting XP: started by the page's first write and applied once, so its own
    fields are read-only; the shares (inline) stay editable, as on the page until the Apply."""

    list_display = ["warband", "allowance", "status", "started_by", "started_at", "applied_at"]
    list_filter = ["status"]
    list_select_related = ["warband", "started_by"]
    search_fields = ["warband__name"]
    inlines = [StartingXpFighterInline]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in self.model._meta.fields]


@admin.register(StartingXpFighter)
class StartingXpFighterAdmin(admin.ModelAdmin):
    list_display = ["fighter", "start", "xp", "xp_before"]
    list_select_related = ["fighter", "start__warband"]
    search_fields = ["fighter__name"]
    raw_id_fields = ["start", "fighter"]


@admin.register(StartingXpAdvancement)
class StartingXpAdvancementAdmin(admin.ModelAdmin):
    """A Skill Advancement Roll the starting XP reached; its dice are `StartingXpRoll`s."""

    list_display = ["fighter", "start", "number", "first_chart", "second_chart", "skill_name"]
    list_select_related = ["fighter", "start__warband"]
    search_fields = ["fighter__name", "skill_name"]
    raw_id_fields = ["start", "fighter"]


@admin.register(StartingXpRoll)
class StartingXpRollAdmin(ReadOnlyLogAdmin):
    list_display = ["start", "fighter", "sequence", "dice_roll"]
    list_select_related = ["start__warband", "fighter", "dice_roll"]
    raw_id_fields = ["start", "fighter", "dice_roll"]
