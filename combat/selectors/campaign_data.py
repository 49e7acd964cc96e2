"""Reads of a campaign's data (combat/models/campaign_data.py): as it is now, as it was at a moment, and its pages.

A post-game reads "the campaign's data as it was" when it was played: `campaign_data_as_of(campaign=...,
at=...)` gives, per kind, the newest version saved at or before `at`, in one query, with the engine's objects
(`SkillChart`, `LocationTable`) built from its rows.
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass, field
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection

from campaigns.models import Campaign
from combat import rules
from combat.campaign_data_io import family_of, rows_to_csv, title
from combat.demo_campaign_data import demo_rows
from combat.models.campaign_data import (
    FIGHTER_TYPES,
    LOCATION_TABLES,
    PATRON_SKILLS,
    SKILL_CHARTS,
    CampaignDataSet,
    campaign_kinds,
)
from rosters.models import Fighter, Warband

# The engine's charts and tables made from saved versions, by version id and kind; emptied when this many.
BUILT_KEPT = 256
_BUILT: dict[tuple[int, str], Any] = {}


@dataclass(frozen=True)
class CampaignData:
    """One version of each kind (the newest, or the newest at a moment); kinds never saved are absent."""

    sets: dict[str, CampaignDataSet] = field(default_factory=dict)

    def rows(self, kind: str) -> list[dict[str, Any]]:
        data_set = self.sets.get(kind)
        return list(data_set.rows) if data_set is not None else []

    def version(self, kind: str) -> int | None:
        data_set = self.sets.get(kind)
        return data_set.version if data_set is not None else None

    def _built(self, kind: str, build):
        """The engine's object for a kind's rows, made once per process for a saved version: a version is never
        edited (its trigger), and the engine's charts and tables are immutable."""
        data_set = self.sets.get(kind)
        if data_set is None or not data_set.rows:
            return None
        if data_set.pk is None:
            return build(self.rows(kind))
        key = (data_set.pk, kind)
        if key not in _BUILT:
            if len(_BUILT) >= BUILT_KEPT:
                _BUILT.clear()
            _BUILT[key] = build(self.rows(kind))
        return _BUILT[key]

    def skill_charts(self) -> dict[str, rules.SkillChart]:
        """The charts the campaign keeps, by chart code (`ranged`), as the engine's charts, named in words."""
        charts = {
            chart: self._built(
                f"skill_chart:{chart}", functools.partial(rules.SkillChart.from_rows, name=words)
            )
            for chart, words in SKILL_CHARTS.items()
        }
        return {chart: built for chart, built in charts.items() if built is not None}

    def location_tables(self) -> dict[str, rules.LocationTable]:
        """The tables the campaign keeps, by the names `exploration_tables` gives (`common`, `rare`, `legendary`)."""
        tables = {
            table: self._built(
                f"location_table:{table}", functools.partial(rules.LocationTable.from_rows, name=table)
            )
            for table in LOCATION_TABLES
        }
        return {table: built for table, built in tables.items() if built is not None}

    def scenario_table(self, stage: str) -> rules.ScenarioTable | None:
        """The stage's D6 scenario table (CAMPAIGN_PHASE.md), or None when the campaign keeps none for it."""
        rows = self.rows(f"scenario_table:{stage}")
        return rules.ScenarioTable.from_rows(rows, stage=stage) if rows else None

    def fighter_type(self, name: str) -> dict[str, Any] | None:
        """The flags of a fighter type (compared as the check compares them: no case, no outer spaces)."""
        key = (name or "").strip().casefold()
        return next((row for row in self.rows(FIGHTER_TYPES) if row["name"].casefold() == key), None)

    def never_promoted(self, fighter_type: str) -> bool:
        row = self.fighter_type(fighter_type)
        return bool(row and row["never_promoted"])

    def limited_potential(self, fighter_type: str) -> bool:
        row = self.fighter_type(fighter_type)
        return bool(row and row["limited_potential"])

    def patron_skills(self, warband_id: int) -> list[dict[str, Any]]:
        return self.rows(f"{PATRON_SKILLS}:{warband_id}")


@functools.cache
def _newest_sql(as_of: bool) -> str:
    """The ORM's `filter(campaign=...[, created_at__lte=...]).order_by("kind", "-version").distinct("kind")`,
    written once per process: every post-game step reads it, and building it took longer than running it."""
    fields = CampaignDataSet._meta.concrete_fields
    table = connection.ops.quote_name(CampaignDataSet._meta.db_table)
    columns = ", ".join(f'd."{field.column}"' for field in fields)
    when = ' AND d."created_at" <= %s' if as_of else ""
    return (
        f'SELECT DISTINCT ON (d."kind") {columns} FROM {table} d WHERE d."campaign_id" = %s{when}'  # noqa: S608 - names from the model
        ' ORDER BY d."kind" ASC, d."version" DESC'
    )


def _newest(campaign: Campaign, at: dt.datetime | None) -> CampaignData:
    fields = CampaignDataSet._meta.concrete_fields
    names = [field.attname for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(_newest_sql(at is not None), [campaign.pk] if at is None else [campaign.pk, at])
        found = cursor.fetchall()
    sets = {}
    for values in found:
        values = [  # noqa: PLW2901 - the row's values as the ORM's iterator turns them (the rows' JSON text)
            field.from_db_value(value, None, connection) if hasattr(field, "from_db_value") else value
            for field, value in zip(fields, values, strict=True)
        ]
        data_set = CampaignDataSet.from_db(DEFAULT_DB_ALIAS, names, values)
        sets[data_set.kind] = data_set
    return CampaignData(sets)


def current_campaign_data(*, campaign: Campaign) -> CampaignData:
    """The newest version of each kind (one query)."""
    return _newest(campaign, None)


def campaign_data_as_of(
    *, campaign: Campaign, at: dt.datetime, current: CampaignData | None = None
) -> CampaignData:
    """Each kind as it was at `at`: its newest version saved at or before then (one query). `current`, the newest
    data read already, is the answer without a query when none of it was saved after `at`: a version is never
    deleted, so the newest then is the newest now."""
    if current is not None and all(data_set.created_at <= at for data_set in current.sets.values()):
        return current
    return _newest(campaign, at)


# -- the pages --------------------------------------------------------------------------------------------------


def fighter_has_limited_potential(fighter: Fighter) -> bool:
    """Whether the fighter's type has Limited Potential in its campaign's data as it is now (RULING X-2), for the
    roster's XP buttons (rosters/limited_potential.py). One query when the fighter has a type, none without."""
    if not (fighter.fighter_type or "").strip():
        return False
    return current_campaign_data(campaign=fighter.warband.campaign).limited_potential(fighter.fighter_type)


def campaign_warbands(*, campaign: Campaign) -> dict[int, str]:
    return dict(Warband.objects.filter(campaign=campaign).order_by("name", "pk").values_list("pk", "name"))


def kind_is_known(*, campaign: Campaign, kind: str) -> bool:
    """A kind this campaign keeps: one of the fixed kinds, or the Patron skills of one of its warbands."""
    if kind in campaign_kinds():
        return True
    head, _, rest = kind.partition(":")
    return head == PATRON_SKILLS and rest.isdigit() and int(rest) in campaign_warbands(campaign=campaign)


def _title(kind: str, warbands: dict[int, str]) -> str:
    head, _, rest = kind.partition(":")
    return title(kind, warband=warbands.get(int(rest), "") if head == PATRON_SKILLS else "")


def kind_title(*, campaign: Campaign, kind: str) -> str:
    return _title(kind, campaign_warbands(campaign=campaign) if kind.startswith(PATRON_SKILLS) else {})


@dataclass(frozen=True)
class KindSummary:
    kind: str
    title: str
    current: CampaignDataSet | None


@dataclass(frozen=True)
class DataOverview:
    kinds: list[KindSummary]

    @property
    def empty(self) -> bool:
        return all(summary.current is None for summary in self.kinds)


def data_overview(*, campaign: Campaign) -> DataOverview:
    """Each kind with its newest version and who saved it (two queries: the warbands, the newest sets)."""
    warbands = campaign_warbands(campaign=campaign)
    newest = (
        CampaignDataSet.objects.filter(campaign=campaign)
        .select_related("created_by")
        .order_by("kind", "-version")
        .distinct("kind")
    )
    sets = {data_set.kind: data_set for data_set in newest}
    kinds = campaign_kinds() + [f"{PATRON_SKILLS}:{pk}" for pk in warbands]
    return DataOverview([KindSummary(kind, _title(kind, warbands), sets.get(kind)) for kind in kinds])


# The columns in the rules' words (CAMPAIGN_PHASE.md: "Limited Potential"; RULING X-3 "roll", E-4 "score").
FIELD_WORDS = {
    "roll": "Roll",
    "score": "Score",
    "code": "Code",
    "name": "Name",
    "never_promoted": "Never promoted",
    "limited_potential": "Limited Potential",
}


@dataclass(frozen=True)
class KindPage:
    """One kind's page: the version shown (the newest, or one asked for), every version, the editor's text."""

    kind: str
    title: str
    shown: CampaignDataSet | None
    versions: list[CampaignDataSet]
    demo: list[dict[str, Any]]

    @property
    def newest(self) -> CampaignDataSet | None:
        return self.versions[0] if self.versions else None

    @property
    def fields(self) -> tuple[str, ...]:
        return family_of(self.kind).fields

    @property
    def cells(self) -> list[list[tuple[str, Any]]]:
        """The shown rows as the page prints them: (column, value) in field order, true/false as yes/no."""

        def shown(value: Any) -> Any:
            return ("yes" if value else "no") if isinstance(value, bool) else value

        rows = self.shown.rows if self.shown else []
        return [[(FIELD_WORDS[name], shown(row.get(name))) for name in self.fields] for row in rows]

    @property
    def headings(self) -> list[str]:
        return [FIELD_WORDS[name] for name in self.fields]

    @property
    def csv(self) -> str:
        """The editor's text: the shown rows as CSV, or the header line alone."""
        return rows_to_csv(self.kind, list(self.shown.rows) if self.shown else [])


def kind_page(*, campaign: Campaign, kind: str, version: int | None = None) -> KindPage | None:
    """The page of one kind (None for a kind the campaign does not keep); `version` shows an older one (`shown`
    None when there is no such version: the caller 404s)."""
    if not kind_is_known(campaign=campaign, kind=kind):
        return None
    versions = list(
        CampaignDataSet.objects.filter(campaign=campaign, kind=kind)
        .select_related("created_by")
        .order_by("-version")
    )
    shown = versions[0] if versions else None
    if version is not None:
        shown = next((data_set for data_set in versions if data_set.version == version), None)
    return KindPage(
        kind, kind_title(campaign=campaign, kind=kind), shown, versions, demo_rows(kind, campaign.preset)
    )
