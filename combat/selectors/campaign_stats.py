"""The campaign's statistics page (`/campaigns/<id>/stats/`): per warband and per fighter, the games, wins, Victory
Points, Out of Action taken and caused, deaths, Battle Scars, XP gained, skills learnt, ducats earned and spent and
Locations found; the campaign's records; the standings and each warband's value game by game.

Everything comes from rows the campaign already keeps (the games and their warbands, the Out of Action rows, the
board's actions and who made them, the skills and Locations with the game that gave them, the Strongbox ledger)
and from the history's events (each fighter's XP when it was hired; each fighter's and each piece of Battlekit's
cost and holder over time, for the value). A fixed number of queries whatever the campaign's length: each kind of
row is read once for the whole campaign and counted here. The ranking is the engine's (`rank_standings`, RULING
W-2), and so is the value (`warband_value`, RULING C-2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from django.db.models import Count, Q, Sum

from campaigns.models import Campaign, Game, GamePlayer, OutOfAction
from combat.charts import Chart, line_chart
from combat.models import TrackerAction, TrackerFighter
from combat.selectors.campaign_stats_series import GameSeries, game_series
from rosters.models import Fighter, FoundLocation, LedgerCause, Skill, StrongboxEntry, Warband

# "Who died": the Trauma Step's results that end a fighter's life (seed 003: Dead; Executed by its captors).
DIED = (Fighter.Status.DEAD, Fighter.Status.EXECUTED)
# The board's actions that may take a fighter Out of Action, and so name who did it.
TAKING_OUT = (
    TrackerAction.Kind.DAMAGE,
    TrackerAction.Kind.ATTACK,
    TrackerAction.Kind.OUT_OF_ACTION,
    TrackerAction.Kind.INJURY_ROLL,
)


@dataclass
class Figures:
    """One warband's or one fighter's figures; a warband's are the sums of its fighters' plus its own."""

    games: int = 0
    wins: int = 0
    victory_points: int = 0
    taken_out: int = 0
    caused: int = 0
    deaths: int = 0
    scars: int = 0
    xp: int = 0
    skills: int = 0
    earned: int = 0
    spent: int = 0
    locations: int = 0


@dataclass
class FighterStats:
    fighter: Fighter
    warband: Warband
    figures: Figures = field(default_factory=Figures)

    @property
    def died(self) -> bool:
        return self.fighter.status in DIED


@dataclass
class WarbandStats:
    warband: Warband
    figures: Figures = field(default_factory=Figures)
    fighters: list[FighterStats] = field(default_factory=list)


@dataclass(frozen=True)
class TakenOut:
    """Who took whom Out of Action, in which game."""

    game: int
    attacker: FighterStats
    victim: FighterStats


@dataclass(frozen=True)
class Record:
    title: str
    holder: FighterStats | None
    figure: int
    unit: str


@dataclass
class CampaignStats:
    campaign: Campaign
    warbands: list[WarbandStats]
    taken_out: list[TakenOut]
    records: list[Record]
    series: GameSeries

    @cached_property
    def standings_chart(self) -> Chart:
        return standings_chart(self.series)

    @cached_property
    def value_chart(self) -> Chart:
        return value_chart(self.series)

    @property
    def fighters(self) -> list[FighterStats]:
        return [row for warband in self.warbands for row in warband.fighters]

    @property
    def deaths(self) -> list[FighterStats]:
        return [row for row in self.fighters if row.died]


def _fighters(campaign: Campaign, warbands: dict[int, WarbandStats]) -> dict[int, FighterStats]:
    rows = Fighter.objects.filter(warband__campaign=campaign).order_by("warband_id", "created_at", "id")
    fighters = {}
    for fighter in rows:
        owner = warbands[fighter.warband_id]
        stats = FighterStats(fighter=fighter, warband=owner.warband)
        stats.figures.scars = fighter.battle_scars
        stats.figures.deaths = int(fighter.status in DIED)
        owner.fighters.append(stats)
        fighters[fighter.pk] = stats
    return fighters


def _games_played(campaign: Campaign, fighters: dict[int, FighterStats], results: dict[tuple, str]) -> None:
    """A fighter's games: those its player fielded it in, or it stood on the board of (a game recorded without
    either counts for its warband only)."""
    played: set[tuple[int, int]] = set(
        GamePlayer.fielded.through.objects.filter(gameplayer__game__campaign=campaign)
        .exclude(gameplayer__game__status=Game.Status.IN_PROGRESS)
        .values_list("fighter_id", "gameplayer__game_id")
    )
    played.update(
        TrackerFighter.objects.filter(tracker__game__campaign=campaign)
        .exclude(tracker__game__status=Game.Status.IN_PROGRESS)
        .values_list("fighter_id", "tracker__game_id")
    )
    for fighter_id, game_id in played:
        stats = fighters.get(fighter_id)
        if stats is None:
            continue
        stats.figures.games += 1
        stats.figures.wins += results.get((stats.warband.pk, game_id)) == GamePlayer.Result.WIN


def _out_of_action(
    campaign: Campaign, fighters: dict[int, FighterStats], numbers: dict[int, int]
) -> list[TakenOut]:
    """Each Out of Action row, and who caused it where the board knows: the last action on that game's board that
    touched the fighter, not undone, made by a fighter of the other side."""
    taken = list(
        OutOfAction.objects.filter(player__game__campaign=campaign).values_list(
            "fighter_id", "player__game_id"
        )
    )
    actions = TrackerAction.objects.filter(
        tracker__game__campaign=campaign, undone_at__isnull=True, attacker__isnull=False, kind__in=TAKING_OUT
    ).values_list("tracker__game_id", "touched", "attacker_id", "version")
    last_by: dict[tuple[int, int], tuple[int, int]] = {}
    for game_id, touched, attacker_id, version in actions:
        for fighter_id in touched:
            key = (game_id, fighter_id)
            if key not in last_by or last_by[key][0] < version:
                last_by[key] = (version, attacker_id)
    told = []
    for fighter_id, game_id in taken:
        victim = fighters.get(fighter_id)
        if victim is None:
            continue
        victim.figures.taken_out += 1
        attacker = fighters.get(last_by.get((game_id, fighter_id), (0, None))[1])
        if attacker is not None and attacker.warband.pk != victim.warband.pk:
            attacker.figures.caused += 1
            told.append(TakenOut(game=numbers[game_id], attacker=attacker, victim=victim))
    return sorted(told, key=lambda row: (row.game, row.attacker.fighter.name, row.victim.fighter.name))


def _xp_gained(campaign: Campaign, fighters: dict[int, FighterStats]) -> None:
    """XP gained: the XP now less the XP it was hired with (its first event), so a post-game reverted and applied
    again counts once."""
    event = Fighter.pgh_event_model
    hired = dict(
        event.objects.filter(pgh_label="insert", warband__campaign=campaign).values_list("pgh_obj_id", "xp")
    )
    for fighter_id, stats in fighters.items():
        stats.figures.xp = max(0, stats.fighter.xp - hired.get(fighter_id, stats.fighter.xp))


def _skills(campaign: Campaign, fighters: dict[int, FighterStats]) -> None:
    """Skills learnt: those a game gave (the skills a fighter was hired with are not learnt)."""
    rows = (
        Skill.objects.filter(fighter__warband__campaign=campaign, game__isnull=False)
        .values("fighter_id")
        .annotate(learnt=Count("id"))
        .values_list("fighter_id", "learnt")
    )
    for fighter_id, learnt in rows:
        fighters[fighter_id].figures.skills = learnt


def _money(campaign: Campaign, warbands: dict[int, WarbandStats]) -> None:
    """Ducats earned (every entry that added to the Strongbox but its starting value) and spent (every entry that
    took from it), from the ledger."""
    rows = (
        StrongboxEntry.objects.filter(warband__campaign=campaign)
        .values("warband_id")
        .annotate(
            earned=Sum("ducats", filter=Q(ducats__gt=0) & ~Q(cause=LedgerCause.START), default=0),
            spent=Sum("ducats", filter=Q(ducats__lt=0), default=0),
        )
        .values_list("warband_id", "earned", "spent")
    )
    for warband_id, earned, spent in rows:
        warbands[warband_id].figures.earned = earned
        warbands[warband_id].figures.spent = -spent


def _locations(campaign: Campaign, warbands: dict[int, WarbandStats]) -> None:
    rows = (
        FoundLocation.objects.filter(warband__campaign=campaign)
        .values("warband_id")
        .annotate(found=Count("id"))
        .values_list("warband_id", "found")
    )
    for warband_id, found in rows:
        warbands[warband_id].figures.locations = found


SUMMED = ("taken_out", "caused", "deaths", "scars", "xp", "skills")


def _sum_up(warband: WarbandStats) -> None:
    for name in SUMMED:
        setattr(warband.figures, name, sum(getattr(row.figures, name) for row in warband.fighters))


def _records(fighters: list[FighterStats]) -> list[Record]:
    """The campaign's records: most Out of Action caused, most XP gained, and the oldest survivor (the fighter
    still on its roster that has played the most games, the first hired on a tie). None held until someone scores."""

    def best(rows, key):
        rows = [row for row in rows if key(row) > 0]
        return max(rows, key=key, default=None)

    caused = best(fighters, lambda row: row.figures.caused)
    learnt = best(fighters, lambda row: row.figures.xp)
    alive = [row for row in fighters if row.fighter.status == Fighter.Status.ACTIVE and row.figures.games]
    oldest = min(
        alive, key=lambda row: (-row.figures.games, row.fighter.created_at, row.fighter.pk), default=None
    )
    games = oldest.figures.games if oldest else 0
    return [
        Record("Most Out of Action caused", caused, caused.figures.caused if caused else 0, "Out of Action"),
        Record("Most XP gained", learnt, learnt.figures.xp if learnt else 0, "XP"),
        Record("Oldest survivor", oldest, games, "game" if games == 1 else "games"),
    ]


def campaign_stats(*, campaign: Campaign) -> CampaignStats:
    """The statistics page's figures, records and series (a fixed number of queries: pinned by its tests)."""
    warbands = {
        warband.pk: WarbandStats(warband=warband)
        for warband in Warband.objects.filter(campaign=campaign).order_by("name", "id")
    }
    entries = list(
        GamePlayer.objects.filter(game__campaign=campaign)
        .exclude(game__status=Game.Status.IN_PROGRESS)
        .values_list("warband_id", "game_id", "game__number", "result", "victory_points")
    )
    results = {}
    for warband_id, game_id, _number, result, victory_points in entries:
        figures = warbands[warband_id].figures
        figures.games += 1
        figures.wins += result == GamePlayer.Result.WIN
        figures.victory_points += victory_points
        results[(warband_id, game_id)] = result
    fighters = _fighters(campaign, warbands)
    _games_played(campaign, fighters, results)
    taken_out = _out_of_action(
        campaign, fighters, {game_id: number for _w, game_id, number, _r, _v in entries}
    )
    _xp_gained(campaign, fighters)
    _skills(campaign, fighters)
    _money(campaign, warbands)
    _locations(campaign, warbands)
    for warband in warbands.values():
        _sum_up(warband)
    rows = list(warbands.values())
    return CampaignStats(
        campaign=campaign,
        warbands=rows,
        taken_out=taken_out,
        records=_records([row for warband in rows for row in warband.fighters]),
        series=game_series(campaign=campaign, warbands=[row.warband for row in rows], entries=entries),
    )


def standings_chart(series: GameSeries) -> Chart:
    """The standings after each game, first place at the top."""
    return line_chart(
        title="Place in the standings after each game",
        x_values=series.games,
        series=[(row.warband.name, [point.place for point in row.points]) for row in series.warbands],
        invert=True,
    )


def value_chart(series: GameSeries) -> Chart:
    """Each warband's value (RULING C-2) after each game's post-game."""
    return line_chart(
        title="Value after each game",
        x_values=series.games,
        series=[(row.warband.name, [point.value for point in row.points]) for row in series.warbands],
    )
