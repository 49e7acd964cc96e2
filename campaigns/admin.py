from django.contrib import admin

from campaigns.models import BattleReport, Campaign, Game, GamePlayer, Membership, OutOfAction


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "preset", "status", "scar_limit", "created_by", "created_at"]
    list_filter = ["preset", "status"]
    search_fields = ["name"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["campaign", "user", "role", "joined_at"]
    list_filter = ["role"]
    raw_id_fields = ["user", "campaign"]


class GamePlayerInline(admin.TabularInline):
    model = GamePlayer
    extra = 0
    raw_id_fields = ["warband"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "campaign", "played_on", "scenario", "status"]
    list_filter = ["status"]
    inlines = [GamePlayerInline]


@admin.register(GamePlayer)
class GamePlayerAdmin(admin.ModelAdmin):
    list_display = ["game", "warband", "result", "post_game"]
    raw_id_fields = ["game", "warband"]


@admin.register(OutOfAction)
class OutOfActionAdmin(admin.ModelAdmin):
    list_display = ["player", "fighter"]
    raw_id_fields = ["player", "fighter"]


@admin.register(BattleReport)
class BattleReportAdmin(admin.ModelAdmin):
    list_display = ["title", "game", "author", "updated_at"]
    search_fields = ["title"]
    raw_id_fields = ["game", "author"]
