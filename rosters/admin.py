from django.contrib import admin

from rosters.models import Fighter, FoundLocation, Injury, Item, PriceList, Skill, StrongboxEntry, Warband


class FighterInline(admin.TabularInline):
    model = Fighter
    extra = 0
    fields = ["name", "fighter_type", "keywords", "xp", "battle_scars", "status"]
    show_change_link = True


@admin.register(Warband)
class WarbandAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "owner", "faction", "strongbox", "glory", "crew_xp"]
    search_fields = ["name"]
    raw_id_fields = ["campaign", "owner"]
    inlines = [FighterInline]


class InjuryInline(admin.TabularInline):
    model = Injury
    extra = 0
    raw_id_fields = ["game"]


class SkillInline(admin.TabularInline):
    model = Skill
    extra = 0
    raw_id_fields = ["game"]


class ItemInline(admin.TabularInline):
    model = Item
    extra = 0
    fk_name = "fighter"
    raw_id_fields = ["warband"]


@admin.register(Fighter)
class FighterAdmin(admin.ModelAdmin):
    list_display = ["name", "warband", "fighter_type", "xp", "battle_scars", "status"]
    list_filter = ["status"]
    search_fields = ["name"]
    raw_id_fields = ["warband"]
    inlines = [InjuryInline, SkillInline, ItemInline]


@admin.register(Injury)
class InjuryAdmin(admin.ModelAdmin):
    list_display = ["name", "fighter", "game", "d66"]
    raw_id_fields = ["fighter", "game"]


@admin.register(Item)
class ItemAdmin(admin.ModelAdmin):
    list_display = ["name", "warband", "fighter", "removable", "cost"]
    raw_id_fields = ["warband", "fighter"]


@admin.register(Skill)
class SkillAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "fighter", "chart", "game"]
    search_fields = ["name", "code"]
    raw_id_fields = ["fighter", "game"]


@admin.register(FoundLocation)
class FoundLocationAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "table", "score", "warband", "game"]
    list_filter = ["table"]
    search_fields = ["name", "code"]
    raw_id_fields = ["warband", "game"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows never edited once written (the ledger; a price list's version): the admin shows them only."""

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False


@admin.register(StrongboxEntry)
class StrongboxEntryAdmin(ReadOnlyAdmin):
    list_display = ["warband", "cause", "ducats", "glory", "balance", "reason", "game", "by", "created_at"]
    list_filter = ["cause"]
    raw_id_fields = ["warband", "game", "by"]


@admin.register(PriceList)
class PriceListAdmin(ReadOnlyAdmin):
    list_display = ["campaign", "kind", "version", "created_by", "created_at", "note"]
    list_filter = ["kind"]
