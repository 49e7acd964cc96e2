from django.apps import AppConfig


class RostersConfig(AppConfig):
    name = "rosters"
    verbose_name = "Rosters"

    def ready(self):
        # The history knows only the tables that register with it: the roster's, and the campaign's (campaigns
        # sits below rosters and may not import its history).
        from rosters.history import registry
        from rosters.history.campaign_events import CAMPAIGN_SOURCES
        from rosters.history.location_events import FoundLocationSource
        from rosters.history.report_events import BattleReportSource
        from rosters.history.roster_events import ROSTER_SOURCES

        for source in (*ROSTER_SOURCES, *CAMPAIGN_SOURCES, BattleReportSource, FoundLocationSource):
            registry.register(source())
