"""The post-game's Advancement step: the Skill Advancement Rolls the XP reached (CAMPAIGN_PHASE.md, RULINGS X-1 to X-3).

One card per roll due (RULING X-1: several at once when the XP jumps): the player picks two of the campaign's skill
charts (`PostGameAdvancement`), the 2D6 per chart is rolled or typed (`PostGameRoll` of purpose `advancement`,
sequence `2 * number - 1` for the first chart, `2 * number` for the second), the engine finds the skill each total
gives (`rules.skill_for`, the stepping rule of RULING X-3 with the fighter's skills and those it picks earlier in
this post-game counted as known), and the player takes one of the skills found, or a Patron's skill on a Patron
Skill result. Nothing here writes: the Apply creates the `rosters.Skill` rows (services/post_game/advancement.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from combat import rules
from combat.models import PostGameAdvancement, PostGameRoll
from combat.models.campaign_data import SKILL_CHARTS
from combat.selectors.post_game import rows
from combat.selectors.post_game.base import StepRead
from combat.selectors.post_game.changes import FighterChange, fighter_change, is_reopened, with_change
from combat.selectors.post_game.rolls import LoggedRoll, counted_rolls
from rosters.models import Fighter

if TYPE_CHECKING:
    from combat.selectors.campaign_data import CampaignData
    from combat.selectors.post_game.base import PostGameState
    from combat.selectors.post_game.experience import XpLine

# What the Skill row keeps as the chart of a skill taken from the Patron's list.
PATRON_CHART = "Patron"


@dataclass(frozen=True)
class Option:
    """A skill the player may take: its code and name, and where it came from in words ("Ranged 9")."""

    code: str
    name: str
    chart: str


@dataclass
class ChartRoll:
    """One of the two picked charts of a card: its 2D6 (once rolled), what the engine finds, its odds before."""

    chart: str  # a key of SKILL_CHARTS
    words: str
    sequence: int  # of the PostGameRoll
    roll: PostGameRoll | None = None
    found: rules.SkillEntry | None = None
    patron: bool = False  # a Patron Skill result: the Patron's list is offered
    explanation: str = ""
    no_patron_list: bool = False  # its 2D6 fell on a Patron Skill result, and the Patron has no skill list
    odds: list[tuple[str, str]] = field(default_factory=list)  # (skill, chance in words), before the roll

    @property
    def logged(self) -> LoggedRoll | None:
        """The roll as the fix forms read it (correct a typed die, void a server roll)."""
        return LoggedRoll(self.roll) if self.roll is not None else None

    @property
    def faces(self) -> list[int]:
        return list(self.roll.dice_roll.faces) if self.roll is not None else []

    @property
    def total(self) -> int | None:
        return sum(self.faces) if self.roll is not None else None

    @property
    def die(self) -> int:
        """1 for the first picked chart, 2 for the second."""
        return 2 - self.sequence % 2


@dataclass
class AdvancementCard:
    """One Skill Advancement Roll due to a fighter, and where it stands."""

    fighter: Fighter
    number: int  # 1 for its first roll due in this post-game
    mark: int  # the XP threshold it reached (RULING X-1)
    known: frozenset[str]  # what it knows before this roll (its skills, and those picked on earlier cards)
    record: PostGameAdvancement | None = None
    charts: list[ChartRoll] = field(default_factory=list)
    options: list[Option] = field(default_factory=list)
    picked: Option | None = None
    waiting_for: str | None = None  # "earlier", "charts", "roll", "pick"; None when settled
    problem: str | None = None
    chart_odds: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # before the charts are picked
    card_error: str | None = None  # a refused write, shown on the card
    entered: dict | None = None
    known_names: list[str] = field(default_factory=list)  # `known` in words, for the card

    @property
    def id(self) -> str:
        return f"{self.fighter.pk}-{self.number}"

    @property
    def name(self) -> str:
        return self.fighter.name

    @property
    def next_roll(self) -> ChartRoll | None:
        return next((chart for chart in self.charts if chart.roll is None), None)

    @property
    def sentence(self) -> str:
        """The card in the Review's and the summary's words."""
        head = f"{self.name} reached {self.mark} XP: Skill Advancement"
        if self.picked is not None:
            return f"{head} — {self.picked.chart}, {self.picked.name}."
        return f"{head} — neither chart gives a skill it lacks (RULING X-3)."


@dataclass
class Advancement:
    """The step: every card due, the campaign's charts, the warband's Patron's skills."""

    cards: list[AdvancementCard] = field(default_factory=list)
    charts: dict[str, rules.SkillChart] = field(default_factory=dict)
    patron: dict[str, str] = field(default_factory=dict)  # code -> name
    problem: str | None = None
    # With `problem`: the fighters whose rolls are due but cannot be made here, and the thresholds they reached.
    unrolled: list[tuple[Fighter, tuple[int, ...]]] = field(default_factory=list)

    @property
    def chart_choices(self) -> list[tuple[str, str]]:
        return [(code, chart.name) for code, chart in self.charts.items()]

    def card(self, fighter_id: int, number: int) -> AdvancementCard | None:
        return next((c for c in self.cards if c.fighter.pk == fighter_id and c.number == number), None)


def _odds_words(chart: rules.SkillChart, known: frozenset[str]) -> list[tuple[str, str]]:
    """The exact chance of each outcome of a 2D6 on the chart (`rules.skill_odds`), most likely first."""
    odds = rules.skill_odds(chart, known=known)
    names = {entry.code: entry.name for entry in chart.entries}
    lines = sorted(odds.items(), key=lambda item: (-item[1], names.get(item[0] or "", "")))
    return [(names[code] if code else "nothing", _chance(chance)) for code, chance in lines]


def _chance(chance: Fraction) -> str:
    return f"{chance.numerator}/{chance.denominator} ({rules.format_odds(chance, style='percent')})"


def _chart_roll(step: Advancement, card: AdvancementCard, chart: str, sequence: int, rolls) -> ChartRoll:
    engine_chart = step.charts[chart]
    known = rules.skill_roll_known(engine_chart, known=card.known, patron=frozenset(step.patron))
    result = ChartRoll(chart, engine_chart.name, sequence, rolls.get((card.fighter.pk, sequence)))
    if result.roll is None:
        result.odds = _odds_words(engine_chart, known)
        return result
    total = result.total
    result.found = rules.skill_for(engine_chart, total, known=known)
    result.patron = rules.offers_patron_skill(result.found)
    patron = frozenset(step.patron)
    result.explanation = rules.explain_skill_roll(engine_chart, total, known=known, patron=patron)
    # Where the missing list goes: the page names the campaign's data page (the template links it).
    result.no_patron_list = not patron and rules.offers_patron_skill(engine_chart.at(total))
    return result


def _options(step: Advancement, card: AdvancementCard) -> list[Option]:
    """The skills found on the two charts, a Patron Skill result giving the Patron's skills it lacks; each once."""
    options: dict[str, Option] = {}
    for chart in card.charts:
        where = f"{chart.words} {chart.total}"
        if chart.patron:
            for code, name in step.patron.items():
                if code not in card.known:
                    options.setdefault(code, Option(code, name, f"{PATRON_CHART} ({where})"))
        elif chart.found is not None:
            options.setdefault(chart.found.code, Option(chart.found.code, chart.found.name, where))
    return list(options.values())


def _settle(step: Advancement, card: AdvancementCard, rolls, earlier_done: bool) -> None:
    """Where the card stands: the charts, the rolls, the skill found, the pick."""
    record = card.record
    if record is None:
        card.waiting_for = "charts" if earlier_done else "earlier"
        card.chart_odds = {
            code: _odds_words(
                chart, rules.skill_roll_known(chart, known=card.known, patron=frozenset(step.patron))
            )
            for code, chart in step.charts.items()
        }
        return
    missing = [code for code in (record.first_chart, record.second_chart) if code not in step.charts]
    if missing:
        words = ", ".join(SKILL_CHARTS.get(code, code) for code in missing)
        card.problem = f"The campaign no longer keeps the {words} chart: pick two other charts."
        card.waiting_for = "charts"
        return
    card.charts = [
        _chart_roll(step, card, record.first_chart, 2 * card.number - 1, rolls),
        _chart_roll(step, card, record.second_chart, 2 * card.number, rolls),
    ]
    if not earlier_done:
        card.waiting_for = "earlier"
        return
    if card.next_roll is not None:
        card.waiting_for = "roll"
        return
    card.options = _options(step, card)
    card.picked = next((option for option in card.options if option.code == record.skill_code), None)
    if card.picked is None and card.options:
        card.waiting_for = "pick"
        if record.skill_code:
            card.problem = f"{record.skill_name} is no longer among the skills found: pick again."


def waits(card: AdvancementCard) -> str:
    what = {
        "earlier": f"its Skill Advancement Roll {card.number - 1} settled first",
        "charts": "two skill charts picked",
        "roll": "its 2D6 rolled",
        "pick": "a skill picked",
    }[card.waiting_for]
    return f"{card.name} still needs Skill Advancement Roll {card.number} (reached {card.mark} XP): {what}."


def fighter_cards(
    step: Advancement, line: XpLine, known: dict[str, str], records, rolls
) -> list[AdvancementCard]:
    """`known`: the codes and names of the skills the fighter has, grown by each card's pick."""
    cards, earlier_done = [], True
    for number, mark in enumerate(line.marks, start=1):
        card = AdvancementCard(line.fighter, number, mark, frozenset(known))
        card.known_names = list(known.values())
        card.record = records.get((line.fighter.pk, number))
        _settle(step, card, rolls, earlier_done)
        if card.picked is not None:
            known[card.picked.code] = (
                card.picked.name
            )  # it knows it for its next roll of this post-game (RULING X-3)
        earlier_done = earlier_done and card.waiting_for is None
        cards.append(card)
    return cards


def _stored(state: PostGameState, fighter_ids: list[int]):
    """The step's rows: the picks, the 2D6 that count (read with the state's rolls), the skills the fighters have
    (two queries)."""
    live = state.post_game
    records, rolls = {}, {}
    if live is not None:
        for record in rows.advancement_rows(live):
            records[(record.fighter_id, record.number)] = record
        for roll in counted_rolls(state, PostGameRoll.Purpose.ADVANCEMENT):
            rolls[(roll.fighter_id, roll.sequence)] = roll
    known: dict[int, dict[str, str]] = {pk: {} for pk in fighter_ids}
    for fighter_id, code, name in rows.skill_rows(fighter_ids):
        known[fighter_id][code] = name
    return records, rolls, known


def _load(state: PostGameState) -> Advancement:
    return load_step(state.campaign_data, warband_id=state.warband.pk)


def load_step(data: CampaignData | None, *, warband_id: int) -> Advancement:
    """The campaign's skill charts and the warband's Patron's skills, or the reason they cannot be used (also the
    late joiner's starting XP's, combat/selectors/starting_xp.py)."""
    step = Advancement()
    if data is None:
        return step
    try:
        step.charts = data.skill_charts()
    except ValueError as error:
        step.problem = f"The campaign's skill charts cannot be used ({error})."
    step.patron = {row["code"]: row["name"] for row in data.patron_skills(warband_id)}
    if not step.problem and len(step.charts) < 2:
        # CAMPAIGN_PHASE.md: "the player picks 2 of the 4 skill charts".
        step.problem = (
            "The campaign keeps fewer than two skill charts, so its Skill Advancement Rolls cannot be made here: "
            "the organiser enters them (or copies the demo set) on the campaign data pages."
        )
    return step


def _told(changes: tuple[FighterChange, ...], card: AdvancementCard, line: XpLine) -> FighterChange:
    """The fighter's change with the card's sentence (a copy; a new change when it has none)."""
    change = fighter_change(changes, card.fighter)
    if change.fighter.pk not in {old.fighter.pk for old in changes}:
        change.xp = line.xp_after
    change.sentences.append(card.sentence)
    return change


def read(state: PostGameState) -> StepRead:
    """Every Skill Advancement Roll due and where it stands; what is missing stops the Apply."""
    answers = state.answers
    lines = [
        line
        for line in state.xp
        if line.marks and line.fighter.is_active and not is_reopened(answers.get(line.fighter.pk))
    ]
    step = _load(state)
    if not lines:
        return StepRead(step)
    if step.problem:
        # Nothing can be rolled here: the rolls stay due on paper, and the Review says so (no blocker).
        step.unrolled = [(line.fighter, line.marks) for line in lines]
        return StepRead(step)
    records, rolls, known = _stored(state, [line.fighter.pk for line in lines])
    blockers, changes = [], state.changes
    for line in lines:
        cards = fighter_cards(step, line, known[line.fighter.pk], records, rolls)
        step.cards.extend(cards)
        for card in cards:
            if card.waiting_for is not None:
                blockers.append(waits(card))
            else:
                changes = with_change(changes, _told(changes, card, line))
    return StepRead(step, tuple(blockers), changes=changes)


def done(state: PostGameState) -> bool:
    """Whether every card is settled (a pick made, or neither chart gives a skill it lacks)."""
    step = state.advancement
    return step is None or all(card.waiting_for is None for card in step.cards)
