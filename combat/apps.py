from django.apps import AppConfig


class CombatConfig(AppConfig):
    name = "combat"
    verbose_name = "Combat"

    def ready(self):
        # Combat tells its own events in the history (docs/architecture.md): rosters' history names none of its tables.
        from combat.history.campaign_data import CampaignDataSource
        from combat.history.dice_log import DiceLogSource
        from combat.history.post_game import PostGameSource
        from combat.history.ransom import RansomSource
        from combat.history.scenario import ScenarioSource
        from combat.history.starting_xp import StartingXpSource
        from combat.history.tracker import TrackerSource
        from combat.selectors.post_game.offers import ransom_items
        from rosters.history import registry
        from rosters.selectors import waiting

        for source in (
            DiceLogSource(),
            PostGameSource(),
            TrackerSource(),
            CampaignDataSource(),
            RansomSource(),
            ScenarioSource(),
            StartingXpSource(),
        ):
            registry.register(source)
        # The ransom offers waiting for each player, on their dashboard.
        waiting.register("ransom_offers", ransom_items)
        # The roster's XP buttons ask the campaign data whether a fighter's type has Limited Potential (RULING X-2).
        from combat.selectors.campaign_data import fighter_has_limited_potential
        from rosters import limited_potential

        limited_potential.register(fighter_has_limited_potential)
        # The tracker poll's remembered readers are forgotten by the cache's one owner, config/page_versions.py.
