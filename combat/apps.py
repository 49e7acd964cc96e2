from django.apps import AppConfig


class CombatConfig(AppConfig):
    name = "combat"
    verbose_name = "Combat"

    def ready(self):
        # Combat tells its own events in the history (ARCHITECTURE.md): rosters' history names none of its tables.
        from combat.history.campaign_data import CampaignDataSource
        from combat.history.dice_log import DiceLogSource
        from combat.history.post_game import PostGameSource
        from combat.history.tracker import TrackerSource
        from rosters.history import registry

        for source in (DiceLogSource(), PostGameSource(), TrackerSource(), CampaignDataSource()):
            registry.register(source)
