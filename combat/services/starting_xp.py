"""A late joiner's starting XP (CAMPAIGN_PHASE.md, late joiners): "may tick 1 XP per battle
played by the warband that has played most, shared among its ELITE models as its player likes, with the Skill
Advancements those XP reach."

Five writes, each refused with a reason and nothing changed when it does not fit where the page stands
(`combat/selectors/starting_xp.py` works that out): the shares (`rules.check_starting_xp`), and per Skill
Advancement Roll its two charts, each chart's 2D6 (stored in the dice log before it is shown, never rolled twice),
the skill taken, by the same code as the post-game's Advancement step (combat/services/advancement.py: its checks,
its 2D6 through the roll store, its pick); then the Apply, once only, writes the fighters' XP and
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
from combat.selectors.post_game.rolls import RollNeeded
from combat.selectors.starting_xp import StartingXpPage, starting_xp_page
from combat.services import advancement as shared
from combat.services import roll_store
from combat.services.post_game.fixes import MAX_REASON
from combat.services.post_game.rolls import RollMade, refused
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
    shared.refuse_unsettled_earlier(card, number, error=StartingXpError)
    return card


@transaction.atomic
def starting_xp_charts(
    *, warband: Warband, fighter_id: int, number: int, first_chart: str, second_chart: str, by
) -> StartingXpAdvancement:
    """The two skill charts picked for a Skill Advancement Roll; they stand once a die is rolled on them."""
    page = _page(warband)
    card = _card(page, fighter_id, number)
    shared.check_charts(card, page.advancement.charts, first_chart, second_chart, error=StartingXpError)
    with _context(page, by, f"{card.name} picks two skill charts (starting XP)", fighter=fighter_id):
        record, _ = StartingXpAdvancement.objects.update_or_create(
            start=page.record,
            fighter_id=fighter_id,
            number=number,
            defaults=shared.chart_defaults(first_chart, second_chart),
        )
    return record


@transaction.atomic
def starting_xp_roll(
    *, warband: Warband, fighter_id: int, number: int, die: int, by, faces: Sequence[int] | None = None
) -> RollMade:
    """The 2D6 of one picked chart (`die` 1 or 2), rolled by the server (`faces` None) or typed (two faces),
    stored in the dice log before it is shown. Asked again, the stored roll is given back, never rolled again."""
    sequence = shared.roll_sequence(number, die, error=StartingXpError)
    page = _page(warband)
    made = StartingXpRoll.objects.filter(start=page.record, fighter_id=fighter_id, sequence=sequence).first()
    if made is not None:
        return RollMade(made, created=False)
    card = _card(page, fighter_id, number)
    chart = shared.chart_to_roll(card, die, error=StartingXpError)
    with _context(
        page, by, f"{card.name}'s Skill Advancement 2D6 on {chart.words} (starting XP)", fighter=fighter_id
    ):
        dice_roll = shared.store_chart_roll(
            card=card,
            chart=chart,
            faces=faces,
            refused=_refused(sequence),
            by=by,
            campaign_id=page.warband.campaign_id,
            warband_id=page.warband.pk,
            note=" (starting XP)",
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
    option = shared.option_to_take(card, skill_code, error=StartingXpError)
    with _context(page, by, f"{card.name} takes {option.name} (starting XP)", fighter=fighter_id):
        return shared.take(card.record, option, exclude=["start", "fighter"])


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


def _refused(sequence: int) -> roll_store.Refused:
    """Faces typed for a 2D6 refused in the post-game's words, as the starting XP's error."""
    words = refused(RollNeeded(ADVANCEMENT, sequence, 6, 2))
    return lambda refusal: StartingXpError(str(words(refusal)))


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
    before = "-".join(str(face) for face in dice.faces)
    with _context(page, by, f"{by} corrected a typed die: {reason}", fighter=link.fighter_id, roll=[dice.pk]):
        new = roll_store.replace_roll(
            old=dice,
            faces=faces,
            refused=_refused(link.sequence),
            status=DiceRoll.Status.CORRECTED,
            reason=reason,
            by=by,
            label=lambda rolled: (
                f"{link.fighter.name}: Skill Advancement 2D6 {sum(rolled)} (starting XP, corrected from {before})"
            ),
        )
        link.dice_roll = new
        link.save(update_fields=["dice_roll"])
        shared.clear_lost_picks(starting_xp_page(warband=page.warband).advancement.cards)
    return new
