"""A whole campaign as one JSON file, and back into a fresh install.

The file holds the campaign, its members by username, warbands with fighters, Injuries and Battlekit, games with
their results and Out of Action marks, post-games with their rolls and answers, tracker boards, the dice log and
every version of the campaign's data (skill charts, Location tables, scenario tables, fighter types, Patron
skills) with each game's scenario roll:
every row, with its id, in Django's serialization (users named by username). It lives in `combat` because only
combat reads post-games, the tracker and the dice log. History events are not part of it (the history of an
imported campaign starts at its import; `manage.py backup` keeps the history).

Import is all or nothing and refuses, with a message, a file that is not one of these, that names a table it
should not, or whose rows are already in this install (ids are kept, because post-game snapshots and tracker
boards name fighters and warbands by id: it is for a fresh install, or one that never held this campaign).
Members who have no account here get one with no usable password (an admin sets it, or `manage.py
changepassword`).
"""

import datetime
import json
from typing import Any

import pghistory
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone

from campaigns.models import Campaign, Game, GamePlayer, Membership, OutOfAction
from combat.models import (
    CampaignDataSet,
    DiceRoll,
    GameScenario,
    PostGame,
    PostGameFighter,
    PostGameRoll,
    TrackerAction,
    TrackerFighter,
    TrackerGame,
)
from rosters.json_input import JSONRefused, load_json
from rosters.models import Fighter, Injury, Item, Warband

FORMAT = "warband-ledger/campaign"
VERSION = 1
MAX_BYTES = 20_000_000
# Rows nest 4 deep (document, objects, row, fields) and the post-game's and tracker's JSON fields a few more.
MAX_DEPTH = 32
TOP_KEYS = {"format", "version", "exported_at", "members", "objects"}

# Parents before children, so each row's references are in place when it is saved; (model, its campaign path).
TABLES = [
    (Campaign, "pk"),
    (Membership, "campaign"),
    (Warband, "campaign"),
    (Fighter, "warband__campaign"),
    (Item, "warband__campaign"),
    (Game, "campaign"),
    (Injury, "fighter__warband__campaign"),
    (GamePlayer, "game__campaign"),
    (OutOfAction, "player__game__campaign"),
    (DiceRoll, "campaign"),  # before the post-game rolls that point at their dice
    (PostGame, "player__game__campaign"),
    (PostGameRoll, "post_game__player__game__campaign"),
    (PostGameFighter, "post_game__player__game__campaign"),
    (TrackerGame, "game__campaign"),
    (TrackerFighter, "tracker__game__campaign"),
    (TrackerAction, "tracker__game__campaign"),
    (CampaignDataSet, "campaign"),  # every version: a past post-game reads the one it used
    (GameScenario, "campaign"),  # after the table version each roll read
]
LABELS = {model._meta.label_lower: model for model, _ in TABLES}


class ExactJSONEncoder(serializers.json.DjangoJSONEncoder):
    """Django's encoder, but times keep their microseconds (Django's cuts them to milliseconds), so a campaign
    comes back exactly as it was."""

    def default(self, o):
        if isinstance(o, datetime.datetime):
            return o.isoformat()
        return super().default(o)


class CampaignImportRefused(ValueError):
    """The file cannot be imported; the message says why. Nothing was changed."""


def export_campaign(campaign: Campaign) -> dict[str, Any]:
    objects = []
    for model, path in TABLES:
        rows = model._default_manager.filter(**{path: campaign.pk}).order_by("pk")
        objects += serializers.serialize("python", rows, use_natural_foreign_keys=True)
    members = [
        {"username": m.user.get_username(), "role": m.role}
        for m in Membership.objects.filter(campaign=campaign).select_related("user").order_by("pk")
    ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "members": members,
        "objects": json.loads(json.dumps(objects, cls=ExactJSONEncoder)),
    }


def export_campaign_json(campaign: Campaign) -> str:
    return json.dumps(export_campaign(campaign), indent=1, ensure_ascii=False)


def _parse(text: str | bytes) -> dict[str, Any]:
    if len(text) > MAX_BYTES:
        raise CampaignImportRefused(
            f"The file is larger than {MAX_BYTES // 1_000_000} MB: not a campaign export."
        )
    try:
        data = load_json(text, max_depth=MAX_DEPTH, what="a campaign export")
    except JSONRefused as refused:
        raise CampaignImportRefused(refused.reason) from None
    if not isinstance(data, dict) or set(data) != TOP_KEYS:
        raise CampaignImportRefused(f"A campaign export has exactly the keys {', '.join(sorted(TOP_KEYS))}.")
    if data["format"] != FORMAT or data["version"] != VERSION:
        raise CampaignImportRefused(f"This is not a {FORMAT} file of version {VERSION}.")
    if not isinstance(data["members"], list) or not all(
        isinstance(m, dict) and isinstance(m.get("username"), str) and m["username"].strip()
        for m in data["members"]
    ):
        raise CampaignImportRefused("members must be a list of {username, role}.")
    objects = data["objects"]
    if not isinstance(objects, list) or not all(isinstance(row, dict) for row in objects):
        raise CampaignImportRefused("objects must be a list of rows.")
    for row in objects:
        if (
            set(row) != {"model", "pk", "fields"}
            or row["model"] not in LABELS
            or not isinstance(row["fields"], dict)
        ):
            raise CampaignImportRefused(f"A row of the file is not a campaign row: {str(row)[:120]}")
    if sum(row["model"] == "campaigns.campaign" for row in objects) != 1:
        raise CampaignImportRefused("A campaign export holds exactly one campaign.")
    return data


def _usernames(data: dict[str, Any]) -> set[str]:
    """Every username the rows name: members, and whoever created, rolled or applied something."""
    names = {m["username"].strip() for m in data["members"]}
    for row in data["objects"]:
        model = LABELS[row["model"]]
        for field in model._meta.concrete_fields:
            value = row["fields"].get(field.name)
            if field.is_relation and field.related_model is get_user_model() and value:
                if not (isinstance(value, list) and len(value) == 1 and isinstance(value[0], str)):
                    raise CampaignImportRefused(f"{row['model']} {row['pk']}: {field.name} must name a user.")
                names.add(value[0])
    return names


def _refuse_rows_already_here(data: dict[str, Any]) -> None:
    for label, model in LABELS.items():
        pks = [row["pk"] for row in data["objects"] if row["model"] == label]
        if pks and model._default_manager.filter(pk__in=pks).exists():
            raise CampaignImportRefused(
                f"This install already holds {model._meta.verbose_name_plural} with the file's ids: import a "
                "campaign into a fresh install (or one that never held it)."
            )


@transaction.atomic
def import_campaign(text: str | bytes) -> Campaign:
    """Recreate the campaign of an export file, all or nothing."""
    data = _parse(text)
    _refuse_rows_already_here(data)
    users = get_user_model()
    for username in sorted(_usernames(data)):
        if not users._default_manager.filter(**{users.USERNAME_FIELD: username}).exists():
            users._default_manager.create_user(**{users.USERNAME_FIELD: username, "password": None})
    try:
        with pghistory.context(action="campaign.import", reason="Imported from a campaign export"):
            for deserialized in serializers.deserialize(
                "python", data["objects"], handle_forward_references=False
            ):
                deserialized.object.full_clean(validate_unique=False, validate_constraints=False)
                deserialized.save()
            connection.check_constraints(table_names=[model._meta.db_table for model in LABELS.values()])
    except (DeserializationError, IntegrityError, DatabaseError) as error:
        raise CampaignImportRefused(
            f"The file's rows do not fit together: {str(error).splitlines()[0]}"
        ) from None
    except ValidationError as error:
        raise CampaignImportRefused(f"A row of the file is refused: {'; '.join(error.messages)}") from None
    # The ids came from the file: move each table's sequence past them, so the next row made here is new.
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), list(LABELS.values())):
            cursor.execute(statement)
    campaign_pk = next(row["pk"] for row in data["objects"] if row["model"] == "campaigns.campaign")
    return Campaign.objects.get(pk=campaign_pk)
