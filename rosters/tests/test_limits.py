"""Every limit once: for each limited roster field, the model, its form and the JSON import agree.

The numbers live on the models (rosters/models/); the forms and the import schema read them from the fields. This
walks every limited field and proves the three agree at the edge: the limit itself passes all three, one past it
is refused by all three (the import with a message naming the field), and the database's check constraint holds
the same line.
"""

import copy
import json
from dataclasses import dataclass

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from campaigns.terms import terms_for
from rosters import portability
from rosters.forms.battlekit import ItemForm
from rosters.forms.fighters import FighterForm
from rosters.forms.injuries import InjuryForm
from rosters.forms.warbands import WarbandForm
from rosters.limits import bounds, keyword_limits, max_length
from rosters.models import SPECIAL, Fighter, Injury, Item, Warband
from rosters.services import battlekit as battlekit_services
from rosters.services import fighters as fighter_services
from rosters.services import injuries as injury_services
from rosters.tests.conftest import fighter_data, preset_for

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Limited:
    model: type
    field: str
    path: str  # where the field sits in an export file's `warband` object

    @property
    def id(self) -> str:
        return f"{self.model.__name__}.{self.field}"


FIGHTER = "fighters.0"
NUMBERS = [
    # The Strongbox moves only through its ledger: no form edits it; the starting value is typed in.
    *[Limited(Warband, name, "") for name in ("starting_value", "glory", "crew_xp")],
    *[
        Limited(Fighter, name, FIGHTER)
        for name in (
            *SPECIAL,
            "health",
            "harm_limit",
            "movement",
            "ranged",
            "melee",
            "armour",
            "base_size",
            "unit_size",
            "xp",
            "battle_scars",
            "cost",
        )
    ],
    Limited(Injury, "d66", f"{FIGHTER}.injuries.0"),
    Limited(Item, "cost", "arsenal.0"),
]
TEXTS = [
    Limited(Warband, "name", ""),
    Limited(Warband, "faction", ""),
    Limited(Warband, "notes", ""),
    Limited(Fighter, "name", FIGHTER),
    Limited(Fighter, "fighter_type", FIGHTER),
    Limited(Injury, "name", f"{FIGHTER}.injuries.0"),
    Limited(Injury, "effect", f"{FIGHTER}.injuries.0"),
    Limited(Item, "name", "arsenal.0"),
    Limited(Item, "notes", "arsenal.0"),
]
KEYWORDS = [Limited(Fighter, "keywords", FIGHTER), Limited(Item, "keywords", "arsenal.0")]


@pytest.fixture
def roster(warband, player):
    """A warband whose export holds one of every row: a fighter with an Injury, and an Arsenal item."""
    fighter = fighter_services.fighter_create(warband=warband, by=player, name="Brother Marcus")
    injury_services.injury_add(fighter=fighter, by=player, code="14", name="Hand Wound", d66=14)
    battlekit_services.item_create(warband=warband, by=player, name="Holy Relic")
    return warband


# -- the three checks -------------------------------------------------------------------------------------------


def model_refusal(roster, limited: Limited, value) -> list[str] | None:
    """None when the model takes the value, else the fields its validation names."""
    fighter = roster.fighters.get()
    rows = {
        Warband: lambda: Warband(campaign=roster.campaign, owner=roster.owner, name="Band"),
        Fighter: lambda: Fighter(warband=roster, name="Odo"),
        Injury: lambda: Injury(fighter=fighter, code="14", name="Hand Wound"),
        Item: lambda: Item(warband=roster, name="Lance"),
    }
    row = rows[limited.model]()
    setattr(row, limited.field, value)
    try:
        row.full_clean()
    except ValidationError as error:
        return list(error.message_dict)
    return None


def form_refusal(roster, limited: Limited, value) -> list[str] | None:
    """None when the form takes the value, else the fields it has errors on."""
    terms = roster.campaign.terms
    if isinstance(value, list):
        value = ", ".join(value)
    if limited.model is Warband:
        data = {"name": "Band", "strongbox": 0, "glory": 0, "crew_xp": 0, limited.field: value}
        form = WarbandForm(data, terms=terms)
    elif limited.model is Fighter:
        # Each preset's form holds its own profile's stats (campaigns/profiles.py).
        terms = terms_for(preset_for(limited.field))
        form = FighterForm(fighter_data(**{limited.field: value}), terms=terms)
    elif limited.model is Injury:
        data = {"result": InjuryForm.OTHER, "name": "Hand Wound", limited.field: value}
        form = InjuryForm(data, table_rows=[])
    else:
        data = {"name": "Lance", limited.field: value}
        form = ItemForm(data, holders=[], terms=terms, with_holder=False)
    return None if form.is_valid() else list(form.errors)


def import_refusal(roster, limited: Limited, value) -> list[str] | None:
    """None when the import takes the file, else its problems, in words."""
    data = copy.deepcopy(portability.export_warband(roster))
    target = data["warband"]
    for key in filter(None, limited.path.split(".")):
        target = target[int(key)] if isinstance(target, list) else target[key]
    target[limited.field] = value
    try:
        portability.parse_warband_file(json.dumps(data).encode())
    except portability.ImportRefused as refused:
        return refused.problems
    return None


def all_three(roster, limited: Limited, value) -> tuple[bool, bool, bool]:
    """Whether the model, the form and the import each accept `value`; a refusal must name the field alone."""
    model = model_refusal(roster, limited, value)
    form = form_refusal(roster, limited, value)
    file = import_refusal(roster, limited, value)
    assert model is None or model == [limited.field], model
    assert form is None or form == [limited.field], form
    assert file is None or all(f"{limited.field} " in problem for problem in file), file
    return model is None, form is None, file is None


# -- the walk ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("limited", NUMBERS, ids=lambda limited: limited.id)
def test_a_number_at_its_limit_passes_everywhere_and_one_past_it_nowhere(roster, limited):
    low, high = bounds(limited.model, limited.field)
    assert all_three(roster, limited, high) == (True, True, True)
    assert all_three(roster, limited, high + 1) == (False, False, False)
    assert all_three(roster, limited, low) == (True, True, True)
    assert all_three(roster, limited, low - 1) == (False, False, False)


@pytest.mark.parametrize("limited", TEXTS, ids=lambda limited: limited.id)
def test_text_as_long_as_its_field_passes_everywhere_and_one_more_letter_nowhere(roster, limited):
    longest = max_length(limited.model, limited.field)
    assert all_three(roster, limited, "x" * longest) == (True, True, True)
    assert all_three(roster, limited, "x" * (longest + 1)) == (False, False, False)


@pytest.mark.parametrize("limited", KEYWORDS, ids=lambda limited: limited.id)
def test_keywords_up_to_the_fields_count_and_length_pass_everywhere(roster, limited):
    longest, most = keyword_limits(limited.model, limited.field)
    enough = [f"K{n}" for n in range(most)]
    assert all_three(roster, limited, enough) == (True, True, True)
    assert all_three(roster, limited, [*enough, "ONE-MORE"]) == (False, False, False)
    assert all_three(roster, limited, ["K" * longest]) == (True, True, True)
    assert all_three(roster, limited, ["K" * (longest + 1)]) == (False, False, False)


def test_a_d66_with_a_seven_is_refused_everywhere(roster):
    # RULING: a D66 is two D6 read as tens and units (combat.rules.is_d66): 17 is within 11-66 but no roll.
    assert all_three(roster, Limited(Injury, "d66", f"{FIGHTER}.injuries.0"), 17) == (False, False, False)


def test_the_numbers_players_meet_are_the_ones_on_the_models():
    # The form's numbers were the ones players met; the import allowed ten times more.
    assert bounds(Fighter, "xp") == (0, 10_000)
    assert bounds(Warband, "strongbox") == (0, 1_000_000)
    assert bounds(Warband, "glory") == (0, 100_000)
    assert bounds(Warband, "crew_xp") == (0, 100_000)


@pytest.mark.parametrize("limited", NUMBERS, ids=lambda limited: limited.id)
def test_the_database_holds_the_same_line(roster, limited):
    _low, high = bounds(limited.model, limited.field)
    rows = {
        Warband: Warband.objects.filter(pk=roster.pk),
        Fighter: Fighter.objects.filter(warband=roster),
        Injury: Injury.objects.filter(fighter__warband=roster),
        Item: Item.objects.filter(warband=roster),
    }[limited.model]
    assert rows.update(**{limited.field: high}) == 1
    with pytest.raises(IntegrityError), transaction.atomic():
        rows.update(**{limited.field: high + 1})
