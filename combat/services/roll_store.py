"""The roll store: every die the project rolls or is given goes through here, and nothing else creates a `DiceRoll`.

docs/architecture.md, Randomness: every roll is stored before its result is shown. RULING T-7: every roll can be
made by the server's dice or typed in from physical dice, and the dice log says which; the stored roll adds what it
was for (`purpose`), who rolled it (`by`) and when.

- `dice_for` gives the dice for a roll: the server's (`rules.RandomDice`) when no faces are typed, else the faces
  typed in, checked by the engine against the dice asked for (`rules.check_faces`). Faces refused raise the
  caller's own error (`refused` turns the engine's `rules.FacesRefused` into it, in the caller's words) and store
  nothing.
- `store_dice` stores what a `Dice` rolled (its `log`), once the engine has read it; `store_faces` stores faces
  the engine read from dice that span several stored rolls.
- `roll_dice` does both for a roll the engine does not read itself: `count` dice of `sides` sides.
- `replace_roll` stores the roll that counts instead of a stored one (a void, a correction) and marks the old one:
  a stored roll is never deleted nor rolled again.

A flow with a key for its roll (a post-game's attempt, fighter, purpose and sequence; a starting XP's fighter and
sequence; a tracker action's idempotency key) looks its key up before asking for dice, under its own lock: a roll
stored for that key is given back as it is, never rolled again.

Faces are checked before anything is written, so a refusal leaves the caller's transaction usable. A roll stored
is one INSERT; a roll replaced is two writes in one transaction, without a savepoint of its own: inside a flow's
transaction it adds no query, and an error rolls the flow back whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.db import transaction
from django.utils import timezone

from combat import rules
from combat.models import DiceRoll

Refused = Callable[[rules.FacesRefused], Exception]
LABEL_LENGTH = DiceRoll._meta.get_field("label").max_length  # 200


def dice_for(*, faces: Sequence[int] | None, sides: int, count: int, refused: Refused) -> rules.Dice:
    """The server's dice when `faces` is None, else the `count` faces of a D`sides` typed in from the table.

    Faces the dice cannot show (too many, too few, a 0 or a 7 for a D6, not a whole number) raise
    `refused(refusal)`, the caller's error in its words; nothing is stored.
    """
    if faces is None:
        return rules.RandomDice()
    try:
        return rules.ScriptedDice(rules.check_faces(faces, sides=sides, count=count))
    except rules.FacesRefused as refusal:
        raise refused(refusal) from refusal


def store_dice(
    *,
    dice: rules.Dice,
    campaign_id: int,
    purpose: str,
    by,
    label: str,
    game_id: int | None = None,
    warband_id: int | None = None,
    fighter_id: int | None = None,
) -> DiceRoll:
    """The dice log's row for every die `dice` rolled (one roll of one kind of die), stored before anything is
    shown: its faces and source as the engine's log has them, what it was for, who rolled it."""
    log = list(dice.log)
    if not log or len({(roll.sides, roll.source) for roll in log}) != 1:
        raise ValueError(f"one stored roll is one or more dice of one kind from one source, got {log!r}")
    return store_faces(
        faces=[roll.face for roll in log],
        sides=log[0].sides,
        source=DiceRoll.Source.SERVER if log[0].source == "server" else DiceRoll.Source.ENTERED,
        campaign_id=campaign_id,
        game_id=game_id,
        warband_id=warband_id,
        fighter_id=fighter_id,
        purpose=purpose,
        by=by,
        label=label,
    )


def store_faces(
    *,
    faces: Sequence[int],
    sides: int,
    source: str,
    campaign_id: int,
    purpose: str,
    by,
    label: str,
    game_id: int | None = None,
    warband_id: int | None = None,
    fighter_id: int | None = None,
) -> DiceRoll:
    """The dice log's row for faces an engine's `Dice` gave (`source`: the server's or typed in): a flow whose dice
    span several stored rolls (a scenario's reroll, one row per die) stores each here. Faces a D`sides` cannot
    show are a bug of the caller, never stored (`rules.FacesRefused`)."""
    if source not in DiceRoll.Source.values:
        raise ValueError(f"a roll is rolled by the server or entered from the table, not {source!r}")
    return _create(
        campaign_id=campaign_id,
        game_id=game_id,
        warband_id=warband_id,
        fighter_id=fighter_id,
        rolled_by=by,
        source=source,
        sides=sides,
        faces=list(rules.check_faces(faces, sides=sides, count=len(faces))),
        purpose=purpose,
        label=label,
    )


def roll_dice(
    *,
    faces: Sequence[int] | None,
    sides: int,
    count: int,
    refused: Refused,
    campaign_id: int,
    purpose: str,
    by,
    label: Callable[[list[int]], str],
    game_id: int | None = None,
    warband_id: int | None = None,
    fighter_id: int | None = None,
) -> DiceRoll:
    """`count` D`sides` rolled by the server (`faces` None) or typed in, and stored; `label(faces)` words it."""
    dice = dice_for(faces=faces, sides=sides, count=count, refused=refused)
    rolled = [dice.roll(sides) for _ in range(count)]
    return store_dice(
        dice=dice,
        campaign_id=campaign_id,
        game_id=game_id,
        warband_id=warband_id,
        fighter_id=fighter_id,
        purpose=purpose,
        by=by,
        label=label(rolled),
    )


def replace_roll(
    *,
    old: DiceRoll,
    faces: Sequence[int] | None,
    refused: Refused,
    status: str,
    reason: str,
    by,
    label: Callable[[list[int]], str],
) -> DiceRoll:
    """The roll that counts instead of `old` (the same dice, for the same purpose), rolled by the server or typed
    in and stored; `old` stays in the dice log, marked `status` (voided, corrected) with who, when and why, and
    points at it (the dice log's rules, combat/models/dice_log.py). The caller holds `old` locked."""
    if status not in (DiceRoll.Status.VOIDED, DiceRoll.Status.CORRECTED):
        raise ValueError(f"a roll replaced is voided or corrected, not {status!r}")
    dice = dice_for(faces=faces, sides=old.sides, count=len(old.faces), refused=refused)
    rolled = [dice.roll(old.sides) for _ in old.faces]
    with transaction.atomic(savepoint=False):
        new = store_dice(
            dice=dice,
            campaign_id=old.campaign_id,
            game_id=old.game_id,
            warband_id=old.warband_id,
            fighter_id=old.fighter_id,
            purpose=old.purpose,
            by=by,
            label=label(rolled),
        )
        old.status, old.status_by, old.status_at = status, by, timezone.now()
        old.status_reason, old.replaced_by = reason, new
        old.save(update_fields=["status", "status_by", "status_at", "status_reason", "replaced_by"])
    return new


def _create(**fields) -> DiceRoll:
    """The one place a `DiceRoll` is created (tests/test_architecture.py holds every other module to that)."""
    fields["label"] = fields["label"][:LABEL_LENGTH]
    return DiceRoll.objects.create(**fields)
