"""A late joiner's starting XP (CAMPAIGN_PHASE.md, late joiners; issue 12 item 5): "may tick 1 XP per battle
played by the warband that has played most, shared among its ELITE models as its player likes, with the Skill
Advancements those XP reach."

Five writes, each refused with a reason and nothing changed when it does not fit where the page stands
(`combat/selectors/starting_xp.py` works that out): the shares (`rules.check_starting_xp`), and per Skill
Advancement Roll its two charts, each chart's 2D6 (stored in the dice log before it is shown, never rolled twice),
the skill taken, as the post-game's Advancement step does; then the Apply, once only, writes the fighters' XP and
skills in one transaction. Every write locks the warband's row first, so two tabs are served one after the other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaigns.history_context import history_context
from combat import rules
from combat.models import (
    DiceRoll,
    PostGameRoll,
    StartingXp,
    StartingXpAdvancement,
    StartingXpFighter,
    StartingXpRoll,
)
from combat.models.campaign_data import SKILL_CHARTS
from combat.selectors.post_game.rolls import RollNeeded
from combat.selectors.starting_xp import StartingXpPage, starting_xp_page
from combat.services.post_game.advancement import advancement_label
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.fixes import MAX_REASON
from combat.services.post_game.rolls import RollMade, checked_faces
from rosters.models import Warband
from rosters.services.fighters import fighter_adjust_xp
from rosters.services.skills import skill_add

ADVANCEMENT = PostGameRoll.Purpose.ADVANCEMENT
APPLY = "starting_xp.apply"


class StartingXpError(ValueError):
    """A starting XP write refused, with a message a player can read; nothing was written."""


def _page(warband: Warband) -> StartingXpPage:
    """The warband's row locked, and the page read again under the lock; refused once applied."""
    warband = Warband.objects.select_for_update().select_related("campaign").get(pk=warband.pk)
    page = starting_xp_page(warband=warband)
    if page.applied:
        raise StartingXpError(
            f"{warband.name}'s starting XP is ticked already: it is ticked once (CAMPAIGN_PHASE.md, late joiners)."
        )
    if not page.allowance:
        raise StartingXpError(
            f"{warband.name} joined before any battle was played: it has no starting XP to tick "
            "(1 per battle of the warband that had played most)."
        )
    return page


def _context(page: StartingXpPage, by, reason: str, **extra):
    warband = page.warband
    return history_context(
        by=by, action="starting_xp", reason=reason, warband=warband.pk, campaign=warband.campaign_id, **extra
    )


def _record(page: StartingXpPage, by) -> StartingXp:
    if page.record is None:
        page.record = StartingXp.objects.create(warband=page.warband, allowance=page.allowance, started_by=by)
    return page.record


@transaction.atomic
def starting_xp_share(*, warband: Warband, shares: Mapping[int, int], by) -> StartingXp:
    """The starting XP shared among the warband's ELITE fighters (`shares`: fighter id -> XP; need not be all of
    it). It can change until a Skill Advancement die is rolled; then it stands."""
    page = _page(warband)
    if page.rolled:
        raise StartingXpError("A Skill Advancement die is rolled: the shares stand.")
    lines = {line.fighter.pk: line for line in page.lines}
    for fighter_id, share in shares.items():
        line = lines.get(fighter_id)
        if line is None:
            raise StartingXpError(
                f"Fighter {fighter_id} is not an active ELITE fighter of {page.warband.name}."
            )
        if share and not line.fighter.can_gain_xp:
            raise StartingXpError(f"{line.fighter.name} can no longer gain XP (Head Wound).")
    named = {lines[pk].fighter.name + f" ({pk})": share for pk, share in shares.items()}
    elite = {lines[pk].fighter.name + f" ({pk})" for pk in shares if lines[pk].fighter.counts_as_elite}
    try:
        rules.check_starting_xp(named, allowance=page.allowance, elite=elite)
    except ValueError as error:
        raise StartingXpError(_without_ids(str(error), lines)) from error
    with _context(page, by, f"{by} shared {page.warband.name}'s starting XP as a late joiner"):
        record = _record(page, by)
        StartingXpFighter.objects.filter(start=record).exclude(
            fighter_id__in=[pk for pk, share in shares.items() if share]
        ).delete()
        for fighter_id, share in shares.items():
            if share:
                StartingXpFighter.objects.update_or_create(
                    start=record,
                    fighter_id=fighter_id,
                    defaults={"xp": share, "xp_before": lines[fighter_id].fighter.xp},
                )
    return record


def _without_ids(message: str, lines) -> str:
    for pk, line in lines.items():
        message = message.replace(f"{line.fighter.name} ({pk})", line.fighter.name)
    return message


def _card(page: StartingXpPage, fighter_id: int, number: int):
    step = page.advancement
    if step.problem:
        raise StartingXpError(step.problem)
    card = page.card(fighter_id, number)
    if card is None:
        raise StartingXpError(f"No Skill Advancement Roll {number} is due for that fighter's starting XP.")
    if card.waiting_for == "earlier":
        raise StartingXpError(
            f"Settle {card.name}'s Skill Advancement Roll {number - 1} first: what it takes counts as known for "
            "the next one (RULING X-3)."
        )
    return card


@transaction.atomic
def starting_xp_charts(
    *, warband: Warband, fighter_id: int, number: int, first_chart: str, second_chart: str, by
) -> StartingXpAdvancement:
    """The two skill charts picked for a Skill Advancement Roll; they stand once a die is rolled on them."""
    page = _page(warband)
    card = _card(page, fighter_id, number)
    for chart in (first_chart, second_chart):
        if chart not in page.advancement.charts:
            raise StartingXpError(
                f"{SKILL_CHARTS.get(chart, repr(chart))} is not one of the campaign's skill charts."
            )
    if first_chart == second_chart:
        raise StartingXpError("Pick two different skill charts.")
    if any(chart.roll is not None for chart in card.charts):
        raise StartingXpError(
            f"{card.name}'s dice are rolled on {card.charts[0].words} and {card.charts[1].words}: the charts stand."
        )
    with _context(page, by, f"{card.name} picks two skill charts (starting XP)", fighter=fighter_id):
        record, _ = StartingXpAdvancement.objects.update_or_create(
            start=page.record,
            fighter_id=fighter_id,
            number=number,
            defaults={
                "first_chart": first_chart,
                "second_chart": second_chart,
                "skill_code": "",
                "skill_name": "",
            },
        )
    return record


@transaction.atomic
def starting_xp_roll(
    *, warband: Warband, fighter_id: int, number: int, die: int, by, faces: Sequence[int] | None = None
) -> RollMade:
    """The 2D6 of one picked chart (`die` 1 or 2), rolled by the server (`faces` None) or typed (two faces),
    stored in the dice log before it is shown. Asked again, the stored roll is given back, never rolled again."""
    if die not in (1, 2):
        raise StartingXpError("A Skill Advancement Roll is one 2D6 on each of its two charts: die 1 or 2.")
    page = _page(warband)
    sequence = 2 * number - 2 + die
    made = StartingXpRoll.objects.filter(start=page.record, fighter_id=fighter_id, sequence=sequence).first()
    if made is not None:
        return RollMade(made, created=False)
    card = _card(page, fighter_id, number)
    if not card.charts:
        raise StartingXpError(f"Pick {card.name}'s two skill charts before rolling.")
    chart = card.charts[die - 1]
    try:
        faces, source = checked_faces(RollNeeded(ADVANCEMENT, sequence, 6, 2), faces)
    except PostGameError as error:
        raise StartingXpError(str(error)) from error
    with _context(
        page, by, f"{card.name}'s Skill Advancement 2D6 on {chart.words} (starting XP)", fighter=fighter_id
    ):
        dice_roll = DiceRoll.objects.create(
            campaign_id=page.warband.campaign_id,
            warband_id=page.warband.pk,
            fighter_id=fighter_id,
            rolled_by=by,
            source=source,
            sides=6,
            faces=faces,
            purpose=ADVANCEMENT,
            label=advancement_label(card.name, chart.words, faces) + " (starting XP)",
        )
        roll = StartingXpRoll.objects.create(
            start=page.record, fighter_id=fighter_id, sequence=sequence, dice_roll=dice_roll
        )
    return RollMade(roll, created=True)


@transaction.atomic
def starting_xp_pick(
    *, warband: Warband, fighter_id: int, number: int, skill_code: str, by
) -> StartingXpAdvancement:
    """The skill taken: one of the two found, or on a Patron Skill result one of the Patron's skills it lacks."""
    page = _page(warband)
    card = _card(page, fighter_id, number)
    if not card.charts or card.next_roll is not None:
        raise StartingXpError(f"Roll {card.name}'s 2D6 on both charts before picking a skill.")
    option = next((option for option in card.options if option.code == skill_code), None)
    if option is None:
        if skill_code in card.known:
            raise StartingXpError(f"{card.name} already has that skill: pick one it lacks (RULING X-3).")
        found = ", ".join(option.name for option in card.options) or "nothing"
        raise StartingXpError(f"That skill is not among the skills found ({found}).")
    with _context(page, by, f"{card.name} takes {option.name} (starting XP)", fighter=fighter_id):
        record = card.record
        record.skill_code, record.skill_name, record.skill_chart = option.code, option.name, option.chart
        record.full_clean(exclude=["start", "fighter"])
        record.save(update_fields=["skill_code", "skill_name", "skill_chart"])
    return record


@transaction.atomic
def starting_xp_apply(*, warband: Warband, by) -> StartingXp:
    """Once only: each share added to its fighter's XP (at most 7 for Limited Potential, RULING X-2), each skill
    taken recorded on its fighter, each fighter's sentence kept for the history; refused while a card waits."""
    page = _page(warband)
    if not page.ticked:
        raise StartingXpError("Share the starting XP among the ELITE fighters first.")
    if page.blockers:
        raise StartingXpError(" ".join(page.blockers))
    told = page.sentences()
    reason = f"{page.warband.name} ticked its starting XP as a late joiner"
    with _context(page, by, reason):
        try:
            for line in page.lines:
                if line.xp:
                    fighter_adjust_xp(
                        fighter=line.fighter,
                        delta=line.xp_after - line.fighter.xp,
                        by=by,
                        reason="its starting XP as a late joiner",
                        action=APPLY,
                    )
            for card in page.advancement.cards:
                if card.picked is not None:
                    skill_add(
                        fighter=card.fighter,
                        by=by,
                        name=card.picked.name,
                        code=card.picked.code,
                        chart=card.picked.chart,
                        reason=f"Skill Advancement Roll {card.number} of its starting XP as a late joiner",
                    )
        except ValidationError as error:
            raise StartingXpError(" ".join(error.messages)) from error
        for share in StartingXpFighter.objects.filter(start=page.record):
            share.told = told.get(share.fighter_id, "")
            share.save(update_fields=["told"])
        record = page.record
        record.status, record.applied_by, record.applied_at = StartingXp.Status.APPLIED, by, timezone.now()
        record.save(update_fields=["status", "applied_by", "applied_at"])
    return record


def _clear_lost_picks(warband: Warband) -> None:
    """After a correction the skill found is worked out again from the right faces: a pick no longer among the
    skills found is cleared, and its card waits for a new pick (as `clear_lost_picks` does for a post-game)."""
    for card in starting_xp_page(warband=warband).advancement.cards:
        if (
            card.record is not None
            and card.record.skill_code
            and card.picked is None
            and card.waiting_for == "pick"
        ):
            card.record.skill_code, card.record.skill_name, card.record.skill_chart = "", "", ""
            card.record.save(update_fields=["skill_code", "skill_name", "skill_chart"])


@transaction.atomic
def starting_xp_correct_roll(
    *, warband: Warband, roll_id: int, faces: Sequence[int], reason: str, by
) -> DiceRoll:
    """Correct a 2D6 typed from the table (RULING T-7, ENTERED rolls only) with the faces really rolled, before the
    Apply: the typed roll stays in the dice log, struck as corrected, with who, when and why, and the roll with the
    right faces counts instead (the dice log's rules, combat/models/dice_log.py)."""
    reason = (reason or "").strip()
    if not reason:
        raise StartingXpError("Say why (a few words: the reason is kept in the dice log).")
    if len(reason) > MAX_REASON:
        raise StartingXpError(f"The reason is {len(reason)} characters long: at most {MAX_REASON}, please.")
    page = _page(warband)
    link = (
        StartingXpRoll.objects.select_for_update()
        .select_related("dice_roll", "fighter")
        .filter(start=page.record, dice_roll_id=roll_id)
        .first()
    )
    if link is None:
        raise StartingXpError("That roll is not one of this starting XP's rolls.")
    dice = link.dice_roll
    if dice.source != DiceRoll.Source.ENTERED:
        raise StartingXpError("That roll was made by the server's dice: it cannot be corrected.")
    try:
        faces, source = checked_faces(RollNeeded(ADVANCEMENT, link.sequence, 6, 2), faces)
    except PostGameError as error:
        raise StartingXpError(str(error)) from error
    before = "-".join(str(face) for face in dice.faces)
    with _context(page, by, f"{by} corrected a typed die: {reason}", fighter=link.fighter_id, roll=[dice.pk]):
        new = DiceRoll.objects.create(
            campaign_id=dice.campaign_id,
            warband_id=dice.warband_id,
            fighter_id=dice.fighter_id,
            rolled_by=by,
            source=source,
            sides=6,
            faces=faces,
            purpose=dice.purpose,
            label=f"{link.fighter.name}: Skill Advancement 2D6 {sum(faces)} (starting XP, corrected from {before})"[
                :200
            ],
        )
        dice.status, dice.status_by, dice.status_at = DiceRoll.Status.CORRECTED, by, timezone.now()
        dice.status_reason, dice.replaced_by = reason, new
        dice.save(update_fields=["status", "status_by", "status_at", "status_reason", "replaced_by"])
        link.dice_roll = new
        link.save(update_fields=["dice_roll"])
        _clear_lost_picks(page.warband)
    return new
