"""A late joiner's starting XP page (CAMPAIGN_PHASE.md, late joiners): the XP it may tick
(`Warband.starting_xp`, 1 per battle of the warband that had played most when it joined), its shares among its
ELITE fighters (`rules.check_starting_xp`), and one card per Skill Advancement Roll those XP reach (RULING X-1),
worked out by the post-game's Advancement step's own pieces (`combat/selectors/post_game/advancement.py`): the
two charts, each 2D6 rolled or typed and stored before it is shown, the stepping rule (RULING X-3), the Patron's
skills. Nothing here writes; a constant number of queries whatever the roster's size.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from combat import rules
from combat.models import DiceRoll, StartingXp, StartingXpAdvancement, StartingXpFighter, StartingXpRoll
from combat.selectors.campaign_data import current_campaign_data
from combat.selectors.post_game.advancement import (
    Advancement,
    AdvancementCard,
    fighter_cards,
    load_step,
    waits,
)
from rosters.models import Fighter, Skill, Warband


@dataclass
class ShareLine:
    """One ELITE fighter: its share (0 before the tick) and the Skill Advancement thresholds it reaches."""

    fighter: Fighter
    xp_before: int
    xp: int = 0
    limited_potential: bool = False
    marks: tuple[int, ...] = ()

    @property
    def xp_after(self) -> int:
        return rules.gain_xp(self.xp_before, self.xp, limited_potential=self.limited_potential).xp


@dataclass
class StartingXpPage:
    warband: Warband
    allowance: int
    record: StartingXp | None = None
    lines: list[ShareLine] = field(default_factory=list)  # every active ELITE fighter
    advancement: Advancement = field(default_factory=Advancement)
    blockers: list[str] = field(default_factory=list)

    @property
    def ticked(self) -> bool:
        return self.record is not None and any(line.xp for line in self.lines)

    @property
    def applied(self) -> bool:
        return self.record is not None and self.record.is_applied

    @property
    def rolled(self) -> bool:
        """A die is rolled: the shares stand (their rolls are stored, never set aside)."""
        return any(chart.roll is not None for card in self.advancement.cards for chart in card.charts)

    @property
    def shared(self) -> int:
        return sum(line.xp for line in self.lines)

    def card(self, fighter_id: int, number: int) -> AdvancementCard | None:
        return self.advancement.card(fighter_id, number)

    def sentences(self) -> dict[int, str]:
        """Each fighter's history sentence: "Sister Agnes started with 3 XP as a late joiner: Skill Advancement —
        Ranged 9, Deadeye"."""
        told = {}
        for line in self.lines:
            if not line.xp:
                continue
            picks = [
                f"Skill Advancement — {card.picked.chart}, {card.picked.name}"
                for card in self.advancement.cards
                if card.fighter.pk == line.fighter.pk and card.picked is not None
            ]
            head = f"{line.fighter.name} started with {line.xp} XP as a late joiner"
            told[line.fighter.pk] = f"{head}: {'; '.join(picks)}" if picks else head
        return told


def _stored(record: StartingXp | None, fighter_ids: list[int]):
    """The picks, the 2D6 that count, the skills the fighters have (three queries)."""
    records, rolls = {}, {}
    if record is not None:
        for advancement in StartingXpAdvancement.objects.filter(start=record):
            records[(advancement.fighter_id, advancement.number)] = advancement
        counted = StartingXpRoll.objects.filter(
            start=record, dice_roll__status=DiceRoll.Status.COUNTED
        ).select_related("dice_roll__rolled_by")
        for roll in counted:
            rolls[(roll.fighter_id, roll.sequence)] = roll
    known: dict[int, dict[str, str]] = {pk: {} for pk in fighter_ids}
    skills = Skill.objects.filter(fighter_id__in=fighter_ids).order_by("id")
    for fighter_id, code, name in skills.values_list("fighter_id", "code", "name"):
        known[fighter_id][code] = name
    return records, rolls, known


def _lines(warband: Warband, record: StartingXp | None, data) -> list[ShareLine]:
    shares = {}
    if record is not None:
        shares = {share.fighter_id: share for share in StartingXpFighter.objects.filter(start=record)}
    elite = Fighter.objects.filter(warband=warband, status=Fighter.Status.ACTIVE).order_by("name", "id")
    lines = []
    for fighter in elite:
        share = shares.get(fighter.pk)
        if not fighter.counts_as_elite and share is None:
            continue
        line = ShareLine(fighter, share.xp_before if share else fighter.xp, share.xp if share else 0)
        line.limited_potential = data is not None and data.limited_potential(fighter.fighter_type)
        if line.xp:
            line.marks = rules.advancement_marks(
                line.xp_before, line.xp, limited_potential=line.limited_potential
            )
        lines.append(line)
    return lines


def starting_xp_page(*, warband: Warband) -> StartingXpPage:
    """The warband's starting XP: its shares, its cards and what still waits."""
    record = StartingXp.objects.filter(warband=warband).first()
    page = StartingXpPage(warband, record.allowance if record is not None else warband.starting_xp, record)
    data = current_campaign_data(campaign=warband.campaign)
    page.lines = _lines(warband, record, data)
    page.advancement = load_step(data, warband_id=warband.pk)
    due = [line for line in page.lines if line.marks]
    if not due:
        return page
    if page.advancement.problem:
        page.advancement.unrolled = [(line.fighter, line.marks) for line in due]
        return page
    records, rolls, known = _stored(record, [line.fighter.pk for line in due])
    for line in due:
        cards = fighter_cards(page.advancement, line, known[line.fighter.pk], records, rolls)
        page.advancement.cards.extend(cards)
        page.blockers.extend(waits(card) for card in cards if card.waiting_for is not None)
    return page
