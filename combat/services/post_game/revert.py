"""Revert an applied post-game: every row it changed put back from the before-images the Apply kept, until the
warband's next game is recorded. The parts mirror the Apply's: fighters, Injuries, Battlekit, Strongboxes.

A roll is final: the Revert takes the roster changes back and puts the SAME attempt back to open, with
every roll and answer in place, so the wizard reopens at Review; no roll is made again."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from campaigns.models import GamePlayer
from campaigns.people import display_name
from combat.models import PostGame, PostGameFighter, PostGameRoll
from combat.rules.words import possessive
from combat.selectors.post_game.state import post_game_revert_refusal
from combat.services.post_game.apply import step_hooks
from combat.services.post_game.attempt import PostGameError, live_attempt, lock, mark, step_context
from combat.services.post_game.images import from_image, restore
from rosters.models import Fighter, Injury, Item, LedgerCause, Warband
from rosters.services.errors import RosterRefused
from rosters.services.strongbox import ledger_entries


def revert_fighters(snapshot: Mapping[str, Any]) -> None:
    """Fighters back as they were; XP another write added since is kept (`restore`)."""
    images = {entry["before"]["id"]: entry for entry in snapshot["fighters"]}
    fighters = list(Fighter.objects.select_for_update().filter(pk__in=images).order_by("pk"))
    fields: set[str] = set()
    for fighter in fighters:
        entry = images[fighter.pk]
        fields.update(restore(Fighter, "fighter", fighter, entry["before"], entry["after"]))
        if fighter.xp < 0:
            raise PostGameError(f"{fighter.name} has spent XP since: reverting would leave it below 0.")
    if fields:
        Fighter.objects.bulk_update(fighters, sorted(fields))


def revert_injuries(snapshot: Mapping[str, Any]) -> None:
    """The Injuries the Apply created are struck off."""
    Injury.objects.filter(pk__in=snapshot["injuries_created"]).delete()


def revert_battlekit(snapshot: Mapping[str, Any]) -> None:
    """Battlekit back in the hands it was in; lost Battlekit recreated exactly (same id, same fields)."""
    moved = {entry["before"]["id"]: entry["before"] for entry in snapshot["items_moved"]}
    items = list(Item.objects.select_for_update().filter(pk__in=moved).order_by("pk"))
    for item in items:
        item.fighter_id = moved[item.pk]["fighter_id"]
    Item.objects.bulk_update(items, ["fighter"])
    ids = [values["id"] for values in snapshot["items_lost"]]
    existing = set(Item.objects.filter(pk__in=ids).values_list("pk", flat=True))
    lost = [values for values in snapshot["items_lost"] if values["id"] not in existing]
    recreated = [Item(**from_image(Item, values)) for values in lost]
    Item.objects.bulk_create(recreated)
    # `created_at` is auto_now_add, which an insert always sets to now: write the original back.
    for item, values in zip(recreated, lost, strict=True):
        item.created_at = from_image(Item, values)["created_at"]
    Item.objects.bulk_update(recreated, ["created_at"])


def revert_strongboxes(snapshot: Mapping[str, Any]) -> None:
    """Strongboxes: the ransom (and loot) goes back; what else moved them since is kept (`restore`). The ledger
    keeps the Apply's entries and gains one taking each back (a ledger entry is never deleted), so it
    still sums to the Strongbox."""
    images = {entry["before"]["id"]: entry for entry in snapshot["warbands"]}
    warbands = list(Warband.objects.select_for_update().filter(pk__in=images).order_by("pk"))
    for warband in warbands:
        entry = images[warband.pk]
        moves = _taken_back(entry)
        restore(Warband, "warband", warband, entry["before"], entry["after"])
        if warband.strongbox < 0:
            raise PostGameError(
                f"{warband.name} has spent the ransom since: reverting would leave its Strongbox below 0."
            )
        taken = sum(ducats for _cause, ducats, _reason in moves)
        warband.strongbox -= taken  # the balance the entries start from: the Strongbox before this revert
        try:
            ledger_entries(warband=warband, moves=moves)
        except RosterRefused:
            raise PostGameError(
                f"{warband.name} has spent the ransom since: reverting would leave its Strongbox below 0."
            ) from None
        warband.strongbox += taken
    if warbands:
        Warband.objects.bulk_update(warbands, ["strongbox"])


def _taken_back(image_entry: Mapping[str, Any]) -> list[tuple[str, int, str]]:
    """The ledger moves that take an Apply's back: one per entry it wrote, or, for a snapshot from before the
    ledger (no "entries" key), one for the whole change."""
    recorded = image_entry.get("entries")
    if recorded is None:
        delta = image_entry["after"]["strongbox"] - image_entry["before"]["strongbox"]
        return [(LedgerCause.RANSOM, -delta, "Post-game reverted")]
    return [(e["cause"], -e["ducats"], f"Reverted: {e['reason']}") for e in reversed(recorded)]


def earlier_applies(live: PostGame, *, undone_by=None) -> list[dict]:
    """The attempt's Applies before this one, each with when and what it changed (its summary): the same attempt is
    applied again after a revert or a correction, and the history still tells each Apply as it was. An Apply
    taken back by a Revert (`undone_by`, the user) keeps who undid it and when, so the history strikes its
    sentences instead of telling them beside the next Apply's as if both stood; a correction's revert and apply
    again is told as the correction instead."""
    summary = live.summary if isinstance(live.summary, dict) else {}
    earlier = list(summary.get("earlier") or [])
    if live.applied_at is not None and (summary.get("fighters") or summary.get("strongboxes")):
        done = {key: value for key, value in summary.items() if key != "earlier"}
        undone = (
            {"undone_at": timezone.now().isoformat(), "undone_by": display_name(undone_by)}
            if undone_by is not None
            else {}
        )
        earlier.append({"applied_at": live.applied_at.isoformat(), **done, **undone})
    return earlier


# The Trauma Step's parts, taken back after the later steps' (which the registry lists).
TRAUMA_PARTS = (revert_fighters, revert_injuries, revert_battlekit, revert_strongboxes)


def revert_parts(campaign, post_game: PostGame | None = None) -> list:
    """The later steps' parts first, in the reverse order of the Apply (the order of the steps the attempt took),
    then the Trauma Step's."""
    return [*reversed(step_hooks(campaign, "revert", post_game)), *TRAUMA_PARTS]


def take_back(live: PostGame, *, by, campaign, undone: bool = False) -> None:
    """The Apply's roster changes taken back (the four parts) and the attempt open again, its rolls and answers
    kept; the caller holds the locks and the history context. `undone`: a Revert, which the history tells as the
    Apply undone (a correction or a reopened fighter applies again at once, and tells itself)."""
    for part in revert_parts(campaign, live):
        part(live.snapshot)
    live.status = PostGame.Status.OPEN
    live.reverted_by = by
    live.reverted_at = timezone.now()
    live.snapshot = None
    live.summary = {"earlier": earlier_applies(live, undone_by=by if undone else None)}
    live.save(update_fields=["status", "reverted_by", "reverted_at", "snapshot", "summary"])


@transaction.atomic
def post_game_revert(*, player: GamePlayer, by) -> PostGame:
    """Undo an applied post-game: every row it changed back as it was (fighters, Injuries, Battle Scars, XP,
    Battlekit, Strongboxes), until the warband's next game is recorded. The same attempt goes back to open with
    every roll and answer in place (a roll is final): the wizard reopens at Review, and nothing can be
    rolled again."""
    player = lock(player)
    live = live_attempt(player)
    if live is None or not live.is_applied:
        raise PostGameError(
            f"{possessive(player.warband.name)} post-game of Game {player.game.number} is not applied."
        )
    refusal = post_game_revert_refusal(player, live)
    if refusal:
        raise PostGameError(refusal)
    reason = f"Post-game of Game {player.game.number} reverted for {player.warband.name}"
    roll_ids = list(
        PostGameRoll.objects.filter(post_game=live).order_by("id").values_list("dice_roll_id", flat=True)
    )
    with step_context(
        action="post_game.revert", player=player, by=by, step="revert", reason=reason, roll=roll_ids
    ):
        take_back(live, by=by, campaign=player.game.campaign, undone=True)
        # The whole post-game is open again: a fighter reopened alone is back with the others.
        PostGameFighter.objects.filter(post_game=live, reopened=True).update(reopened=False)
        mark(
            player,
            GamePlayer.PostGame.IN_PROGRESS,
            by=by,
            action="post_game.revert",
            step="revert",
            reason=reason,
        )
    return live
