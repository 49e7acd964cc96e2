"""Hypothesis strategies for the rules engine's property tests."""

from hypothesis import strategies as st

from combat.rules import (
    ARMOUR,
    MAX_MARKERS,
    Casualty,
    Combatant,
    InjuryRoll,
    Roll,
    TcModel,
    TraumaTable,
    UnitModel,
)

INJURY_CODES = tuple(entry.code for entry in TraumaTable.default().entries if entry.injury)


@st.composite
def combatants(draw, *, incapacitated: bool = False) -> Combatant:
    """A valid Combatant that can still take Damage (unless `incapacitated`)."""
    health = draw(st.integers(1, 5))
    harm_limit = draw(st.one_of(st.none(), st.integers(0, 5)))
    harm = draw(st.integers(0, harm_limit if harm_limit is not None else 8))
    injuries = health if incapacitated else draw(st.integers(0, health - 1))
    return Combatant(
        endurance=draw(st.integers(1, 8)),
        health=health,
        harm=harm,
        harm_limit=harm_limit,
        injuries=injuries,
        fatigue=draw(st.integers(0, 2)),
        champion=draw(st.booleans()),
        incapacitated=incapacitated,
    )


@st.composite
def casualties(draw, *, elite: bool | None = None, id: str | None = None) -> Casualty:
    is_elite = draw(st.booleans()) if elite is None else elite
    scar_limit = draw(st.integers(1, 4))
    return Casualty(
        id if id is not None else draw(st.text("abcdefgh", min_size=1, max_size=6)),
        elite=is_elite,
        scars=draw(st.integers(0, scar_limit - 1)),
        injuries=frozenset(draw(st.sets(st.sampled_from(INJURY_CODES), max_size=14))),
        scar_limit=scar_limit,
        can_gain_xp=draw(st.booleans()),
        full_recovery_instead=frozenset(
            draw(st.sets(st.sampled_from(("lost_an_eye", "hand_wound")), max_size=1))
        ),
    )


@st.composite
def unit_models(draw, *, max_size: int = 8) -> list[UnitModel]:
    count = draw(st.integers(0, max_size))
    # Small integer grid so that ties happen often.
    return [
        UnitModel(
            id=f"m{index}",
            hp=draw(st.integers(1, 4)),
            x=draw(st.integers(0, 6)),
            y=draw(st.integers(0, 6)),
            eligible=draw(st.booleans()) if draw(st.integers(0, 4)) == 0 else True,
        )
        for index in range(count)
    ]


points = st.tuples(st.integers(-3, 9), st.integers(-3, 9))


class DrawnDice:
    """Dice whose every face Hypothesis draws for the die asked for (so a D3 never shows a 6), logged like
    entered dice; replay `faces` through `ScriptedDice` to check that the same dice give the same result."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data
        self.log: list[Roll] = []

    def roll(self, sides: int) -> int:
        face = self.data.draw(st.integers(1, sides), label=f"D{sides}")
        self.log.append(Roll(sides, face, "entered"))
        return face

    @property
    def faces(self) -> list[int]:
        return [roll.face for roll in self.log]


@st.composite
def tc_models(draw, *, out_of_action: bool = False) -> TcModel:
    """A valid model of a Trench Crusade board (markers 0 to 6; Tough used only by a TOUGH model)."""
    tough = draw(st.booleans())
    return TcModel(
        blood=draw(st.integers(0, MAX_MARKERS)),
        blessings=draw(st.integers(0, MAX_MARKERS)),
        down=draw(st.booleans()),
        tough=tough,
        tough_used=tough and draw(st.booleans()),
        out_of_action=out_of_action,
    )


@st.composite
def injury_rolls(draw, target: TcModel, *, most_dice: int = 3) -> InjuryRoll:
    """A roll the players may make against `target`: never more markers spent than it has, a Bloodbath only with
    its cost on the target (RULING I-6). `most_dice` bounds the weapon's +/- INJURY DICE and the markers spent."""
    cost = 3 if target.down else 6
    bloodbath = target.blood >= cost and draw(st.booleans())
    blood_left = target.blood - (cost if bloodbath else 0)
    return InjuryRoll(
        injury_dice=draw(st.integers(-most_dice, most_dice)),
        modifiers=draw(st.lists(st.integers(-4, 4), max_size=3)),
        blood_spent=draw(st.integers(0, min(blood_left, most_dice))),
        blessings_spent=draw(st.integers(0, min(target.blessings, most_dice))),
        critical=draw(st.booleans()),
        melee=draw(st.booleans()),
        armour=draw(st.sampled_from((None, *ARMOUR))),
        shield=draw(st.booleans()),
        bloodbath=bloodbath,
    )
