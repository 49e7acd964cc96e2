"""The board's rows as the engine's objects, and the engine's state kept on the board between requests.

A tracked single model is a `rules.Combatant`, a unit a `rules.HealthPool`; the Confusion Tests in progress
(`rules.ConfusionSequence`) and the open shooting engagement (`rules.ShootingEngagement`, RULING A-5) are immutable
objects of plain values, kept on `TrackerGame` as JSON and rebuilt here.
"""

from __future__ import annotations

from combat import rules
from combat.models import TrackerFighter
from combat.rules import board_rules, injury_board


def rules_for(game) -> board_rules.BoardRules:
    """What the game's board offers, by its campaign's fighter profile (campaigns/profiles.py): Fallout: Factions'
    single-model Damage where it has Endurance, Out of Action marks where it has none (no query: the game's
    campaign is read with it)."""
    return board_rules.board_rules(has_endurance=game.campaign.terms.profile.has_endurance)


def tracker_combatant(tracked: TrackerFighter) -> rules.Combatant:
    """The engine's view of a tracked single model: the roster's profile with the game's Harm, Injuries, Fatigue."""
    fighter = tracked.fighter
    return rules.Combatant(
        endurance=fighter.endurance,
        health=fighter.health,
        harm=tracked.harm,
        harm_limit=fighter.harm_limit,
        injuries=tracked.injuries,
        fatigue=tracked.fatigue,
        champion=fighter.counts_as_elite,  # RULING T-1: a Champion or ELITE
        incapacitated=tracked.status == TrackerFighter.Status.INCAPACITATED,
        name=fighter.name,
    )


def is_tough(fighter) -> bool:
    """TOUGH from the roster's keywords (TC_IN_GAME.md, "Tough")."""
    return injury_board.kit_from(keywords=fighter.keywords, profile_armour=0, battlekit=()).tough


def tracker_tc_model(tracked: TrackerFighter) -> rules.TcModel:
    """The engine's view of a tracked Trench Crusade model: its markers, Down, Tough and Out of Action
    (RULINGS I-4, I-7). A model whose Tough was used keeps it counted as TOUGH, even if its keywords changed since."""
    return rules.TcModel(
        blood=tracked.blood,
        blessings=tracked.blessings,
        down=tracked.down,
        tough=is_tough(tracked.fighter) or tracked.tough_used,
        tough_used=tracked.tough_used,
        out_of_action=tracked.status == TrackerFighter.Status.OUT_OF_ACTION,
    )


def tracker_health_pool(tracked: TrackerFighter) -> rules.HealthPool:
    """A unit's Health Pool: its models left, `health` Health Points each, the lost points carried (RULING H-1)."""
    return rules.HealthPool(
        models=tracked.models_left, hp_per_model=tracked.fighter.health, lost=tracked.lost_hp
    )


def is_unit(fighter) -> bool:
    # A fighter of several models shares one Health Pool (seed 004; rosters.Fighter.unit_size).
    return fighter.unit_size > 1


# Confusion Tests in progress are kept between requests as JSON (the engine's ConfusionSequence is immutable and
# holds only plain values).


def _friend_json(friend: rules.FriendlyModel) -> dict:
    return {
        "id": friend.id,
        "intelligence": friend.intelligence,
        "fatigue": friend.fatigue,
        "name": friend.name,
    }


def _result_json(result: rules.ConfusionResult) -> dict:
    return {
        "friend": _friend_json(result.friend),
        "faces": list(result.test.faces),
        "hits": result.test.hits,
        "choice": result.choice,
        "fatigue_after": result.fatigue_after,
        "forced": result.forced,
    }


def confusion_to_json(sequence: rules.ConfusionSequence) -> dict:
    return {
        "incapacitated": sequence.incapacitated,
        "due": [_friend_json(friend) for friend in sequence.due],
        "results": [_result_json(result) for result in sequence.results],
        "awaiting": _result_json(sequence.awaiting) if sequence.awaiting is not None else None,
    }


def _friend_from(data: dict) -> rules.FriendlyModel:
    return rules.FriendlyModel(data["id"], data["intelligence"], data["fatigue"], data["name"])


def _result_from(data: dict) -> rules.ConfusionResult:
    return rules.ConfusionResult(
        _friend_from(data["friend"]),
        rules.StatTestResult(tuple(data["faces"]), data["hits"]),
        data["choice"],
        data["fatigue_after"],
        data["forced"],
    )


def confusion_from_json(data: dict) -> rules.ConfusionSequence:
    return rules.ConfusionSequence(
        data["incapacitated"],
        tuple(_friend_from(friend) for friend in data["due"]),
        tuple(_result_from(result) for result in data["results"]),
        _result_from(data["awaiting"]) if data["awaiting"] is not None else None,
    )


# The shooting engagement open on a unit (RULING A-5): its Sustained Damage pool and each shot's Allocation.


def _allocation_json(allocation: rules.Allocation) -> dict:
    return {
        "assigned": dict(allocation.assigned),
        "removed": list(allocation.removed),
        "sustained": allocation.sustained,
        "lost": allocation.lost,
        "ties": [list(group) for group in allocation.ties],
        "order": list(allocation.order),
        "distances": dict(allocation.distances),
        "target_limit": allocation.target_limit,
    }


def _allocation_from(data: dict) -> rules.Allocation:
    return rules.Allocation(
        dict(data["assigned"]),
        tuple(data["removed"]),
        data["sustained"],
        data["lost"],
        tuple(tuple(group) for group in data["ties"]),
        tuple(data["order"]),
        dict(data["distances"]),
        data["target_limit"],
    )


def engagement_to_json(engagement: rules.ShootingEngagement) -> dict:
    return {
        "sustained": engagement.sustained,
        "allocations": [_allocation_json(allocation) for allocation in engagement.allocations],
    }


def engagement_from_json(data: dict) -> rules.ShootingEngagement:
    return rules.ShootingEngagement(
        data["sustained"], tuple(_allocation_from(allocation) for allocation in data["allocations"])
    )
