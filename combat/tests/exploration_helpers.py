"""The Exploration step's tests share these: made-up Location tables saved as the campaign's data, and the rows
"exactly as they were" is checked against (the Strongboxes, the found Locations)."""

from combat.models import PostGameRoll
from combat.services.campaign_data import campaign_data_save
from rosters.models import FoundLocation, Warband

# Made up for the tests (the project ships no official names). Score 14 is on Common and Rare: with 3 to 5
# battles fought both are allowed, so it finds two and the player picks one (RULING E-4).
TABLES = {
    "common": [
        {"score": 9, "code": "field_shrine", "name": "Field Shrine"},
        {"score": 12, "code": "ration_cache", "name": "Ration Cache"},
        {"score": 14, "code": "shell_crater", "name": "Shell Crater"},
    ],
    "rare": [
        {"score": 14, "code": "sunken_vault", "name": "Sunken Vault"},
        {"score": 17, "code": "drowned_chapel", "name": "Drowned Chapel"},
    ],
    "legendary": [{"score": 25, "code": "bell_of_ash", "name": "Bell of Ash"}],
}


def save_tables(campaign, by, tables=None) -> None:
    for table, rows in (tables or TABLES).items():
        campaign_data_save(campaign=campaign, kind=f"location_table:{table}", rows=rows, by=by)


def exploration_rolls(post_game) -> list[PostGameRoll]:
    return list(
        PostGameRoll.objects.filter(post_game=post_game, fighter__isnull=True)
        .select_related("dice_roll")
        .order_by("id")
    )


def _rows(queryset) -> dict:
    return {
        row.pk: {f.attname: getattr(row, f.attname) for f in row._meta.concrete_fields} for row in queryset
    }


def exploration_snapshot(*warbands: Warband) -> dict:
    """Every field of the warbands (the Strongbox) and of their found Locations."""
    ids = [warband.pk for warband in warbands]
    return {
        "warbands": _rows(Warband.objects.filter(pk__in=ids).order_by("pk")),
        "locations": _rows(FoundLocation.objects.filter(warband__in=ids).order_by("pk")),
    }
