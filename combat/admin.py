from django.contrib import admin

from combat.models import DiceRoll


@admin.register(DiceRoll)
class DiceRollAdmin(admin.ModelAdmin):
    list_display = ["created_at", "campaign", "game", "purpose", "label", "source", "rolled_by"]
    list_filter = ["source", "purpose"]
    raw_id_fields = ["campaign", "game", "warband", "fighter", "rolled_by"]
