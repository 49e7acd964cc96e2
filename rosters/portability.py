"""A warband as a JSON file, and back: the export format, versioned, and its strict validation for import.

The format (`"format": "warband-ledger/warband"`, `"version": 1`)::

    {
      "format": "warband-ledger/warband",
      "version": 1,
      "exported_at": "2026-05-12T21:04:00+00:00",
      "source": {"campaign": "The Long Trench", "preset": "trench_crusade"},
      "warband": {
        "name": "Iron Sepulchre", "faction": "Trench Pilgrims", "notes": "", "strongbox": 50, "glory": 0,
        "crew_xp": 0,
        "fighters": [
          {"name": "Brother Marcus", "fighter_type": "Trench Pilgrim", "keywords": ["ELITE"], "champion": false,
           "strength": 5, ..., "luck": 5, "health": 1, "harm_limit": 3, "movement": 6, "unit_size": 1, "xp": 7,
           "battle_scars": 1, "can_gain_xp": true, "status": "active", "misses_next_game": false, "cost": 40,
           "injuries": [{"code": "14", "name": "Hand Wound", "effect": "...", "d66": 14}],
           "battlekit": [{"name": "Lance", "notes": "", "keywords": [], "removable": true, "cost": 5}]}
        ],
        "arsenal": [{"name": "Holy Relic", "notes": "", "keywords": [], "removable": true, "cost": 0}]
      }
    }

`cost` may be absent from a fighter or a piece of Battlekit (files written before costs): it reads as 0.
`warband` holds everything a roster is, in the order the roster lists it; ids, owners and games are not part of
it (an imported warband belongs to whoever imports it, in a campaign whose games are its own), so exporting an
imported warband gives back the same `warband` object. `exported_at` and `source` are not imported, but
`source.preset` says which game the warband was built for: a file of another game than the campaign's is refused
(a Trench Crusade warband's ducats are not caps, its ELITE fighters not Champions, its stats not a Fallout:
Factions profile), and a file without it (written before it was recorded) imports as it always did.

Import trusts nothing: the file is read only up to `MAX_BYTES`, must be UTF-8 JSON with no duplicate keys, NaN or
deep nesting, of this format and version; then the pydantic schema (rosters/import_schema.py, built from the
models' fields) wants exactly the keys above (a missing or unknown key is refused), the right type for each value
(no `true` for a number, no `7.0` for a whole number), strings within the fields' lengths and free of control
characters, numbers within the fields' limits (the same the forms and the database keep), and at most
`MAX_FIGHTERS` fighters. A refused file raises `ImportRefused` with every problem found (up to a dozen), in words.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils import timezone

from campaigns.models import Campaign
from campaigns.terms import terms_for
from rosters import import_schema
from rosters.json_input import JSONRefused, load_json
from rosters.models import FIGHTER_FIELDS, INJURY_FIELDS, ITEM_FIELDS, WARBAND_FIELDS

FORMAT = "warband-ledger/warband"
VERSION = 1
MAX_BYTES = 1_000_000
MAX_DEPTH = 8  # the format nests 5 deep; a deeper file is not one of ours
MAX_PROBLEMS = 12


class ImportRefused(ValueError):
    """The file is not a warband this version can import; `problems` says why, in words."""

    def __init__(self, problems: list[str]):
        self.problems = problems[:MAX_PROBLEMS]
        super().__init__("; ".join(self.problems))


# -- export -----------------------------------------------------------------------------------------------------

WARBAND_KEYS = WARBAND_FIELDS
FIGHTER_KEYS = (*FIGHTER_FIELDS, "status")
INJURY_KEYS = INJURY_FIELDS
ITEM_KEYS = ITEM_FIELDS


def _item(item) -> dict[str, Any]:
    return {key: list(getattr(item, key)) if key == "keywords" else getattr(item, key) for key in ITEM_KEYS}


def export_warband(warband) -> dict[str, Any]:
    """The warband, its fighters with their Injuries and Battlekit, and its Arsenal, in the export format."""
    fighters = list(warband.fighters.order_by("id").prefetch_related("injuries", "battlekit"))
    arsenal = warband.items.filter(fighter__isnull=True).order_by("id")
    campaign = warband.campaign
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(timespec="seconds"),
        "source": {"campaign": campaign.name, "preset": campaign.preset},
        "warband": {
            **{key: getattr(warband, key) for key in WARBAND_KEYS},
            "fighters": [
                {
                    **{
                        key: list(f.keywords) if key == "keywords" else getattr(f, key)
                        for key in FIGHTER_KEYS
                    },
                    "injuries": [
                        {key: getattr(i, key) for key in INJURY_KEYS}
                        for i in sorted(f.injuries.all(), key=lambda i: i.pk)
                    ],
                    "battlekit": [_item(i) for i in sorted(f.battlekit.all(), key=lambda i: i.pk)],
                }
                for f in fighters
            ],
            "arsenal": [_item(i) for i in arsenal],
        },
    }


def export_json(warband) -> str:
    return json.dumps(export_warband(warband), ensure_ascii=False, indent=2)


# -- import -------------------------------------------------------------------------------------------------


def _game_name(preset: str) -> str:
    return Campaign.Preset(preset).label


def _other_game(data: dict[str, Any], campaign: Campaign) -> str | None:
    """Why the file cannot go into `campaign` because it was built for another game, or None: its
    `source.preset` (a file without one is older than the field, and imports)."""
    source = data.get("source")
    preset = source.get("preset") if isinstance(source, dict) else None
    if not isinstance(preset, str) or preset == campaign.preset:
        return None
    plays = _game_name(campaign.preset)
    if preset not in Campaign.Preset.values:
        return (
            f"This file is a warband of a game this Warband Ledger does not know ({preset[:40]!r}); "
            f"{campaign.name} plays {plays}: it cannot be imported here."
        )
    game = _game_name(preset)
    return (
        f"This file is a {game} {terms_for(preset).warband}; {campaign.name} plays {plays}: its fighters, stats "
        f"and {terms_for(preset).currency} do not carry over. Import it into a {game} campaign, or build the "
        f"{campaign.terms.warband} anew in this one."
    )


def parse_warband_file(raw: bytes, *, campaign: Campaign | None = None) -> dict[str, Any]:
    """The `warband` object of an export file, checked through; raises ImportRefused with the reasons. With
    `campaign`, a file built for another game than the campaign's is refused too."""
    if len(raw) > MAX_BYTES:
        raise ImportRefused(
            [f"The file is larger than {MAX_BYTES // 1_000_000} MB; a warband file is far smaller."]
        )
    if not raw.strip():
        raise ImportRefused(["The file is empty."])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportRefused(["The file is not text (UTF-8): is it a warband export?"]) from None
    try:
        data = load_json(text, max_depth=MAX_DEPTH, what="a warband export")
    except JSONRefused as refused:
        raise ImportRefused([refused.reason]) from None
    if not isinstance(data, dict):
        raise ImportRefused(["The file does not hold a warband export (it should be a JSON object)."])
    if data.get("format") != FORMAT:
        raise ImportRefused([f'This is not a warband export: its "format" should be "{FORMAT}".'])
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        raise ImportRefused(
            [f"This file is format version {version!r}; this Warband Ledger imports version {VERSION}."]
        )
    if campaign is not None and (other := _other_game(data, campaign)):
        raise ImportRefused([other])
    try:
        checked = import_schema.ExportFile.model_validate(data)
    except import_schema.SchemaError as error:
        raise ImportRefused(import_schema.problems(error, data)) from None
    # The checked rows, with the defaults of keys an older file lacks (import_schema.DEFAULTED).
    return checked.model_dump()["warband"]
