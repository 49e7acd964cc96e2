"""A target's page on the tracker, `/games/<id>/tracker/fighters/<fighter>/`: the odds of an Attack Test, then
the Attack Test rolled (or its faces typed in) or the Damage typed, each a POST that goes back to the board."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from campaigns.models import Game
from combat.forms.tracker import AttackForm, DamageForm, RollForm
from combat.selectors.tracker_attack import (
    AttackTest,
    attack_dice_pool,
    tracker_attack_odds,
    tracker_attackers,
    tracker_damage_ladder,
)
from combat.selectors.tracker_attack import (
    tracker_target as target_on_board,
)
from combat.selectors.tracker_state import is_unit, rules_for
from combat.services.tracker import damage as damage_services
from combat.services.tracker.errors import TrackerBlocked, TrackerConflict, TrackerError
from combat.views.tracker_common import (
    UNPROCESSABLE,
    done,
    form_error,
    game_for,
    is_partial,
    refusal_status,
    refused,
    refused_on_board,
    render_board,
    sent_with,
    target_for,
)

NOT_ON_BOARD = "That fighter is not on this game's board."


def _not_on_board(request, game: Game, can_act: bool):
    # A fighter of another game (or none): the board as it is, with the reason, and nothing changed.
    return render_board(request, game, can_act, error=NOT_ON_BOARD, status=404)


def _attack(form: AttackForm, attackers) -> AttackTest:
    """The Attack Test the form describes; a field left out or invalid counts as its default."""
    data = {}
    if form.is_bound:
        form.is_valid()
        data = form.cleaned_data

    def value(name):
        given = data.get(name)
        return form.fields[name].initial if given is None else given

    attacker = {row.fighter_id: row for row in attackers}.get(data.get("attacker"))
    return AttackTest(
        dice=value("dice"),
        stat=value("stat"),
        makeshift=bool(data.get("makeshift")),
        brawl=bool(data.get("brawl")),
        charged=bool(data.get("charged")),
        supporting_friends=value("supporting"),
        bonus=value("bonus"),
        attacker=attacker,
    )


def _attack_params(form: AttackForm, attack: AttackTest) -> list[tuple[str, object]]:
    """The Attack Test as hidden fields of the roll form: what is rolled is what the odds were shown for."""
    params = [
        ("attacker", attack.attacker.fighter_id if attack.attacker else ""),
        ("dice", attack.dice),
        ("stat", attack.stat),
        ("supporting", attack.supporting_friends),
        ("bonus", attack.bonus),
    ]
    params += [(name, "on") for name in ("makeshift", "brawl", "charged") if getattr(attack, name)]
    data = form.cleaned_data if form.is_bound else {}
    for bound in form.distance_fields:
        distance = data.get(bound.name)
        if distance is not None:
            params.append((bound.name, distance))
    if data.get("target_limit"):
        params.append(("target_limit", data["target_limit"]))
    if data.get("shooting"):
        params.append(("shooting", "on"))
    return params


def _models(target) -> int:
    return target.models_left if is_unit(target.fighter) else 1


def _odds(target, attack: AttackTest):
    """The Attack Test's pool and the odds of each outcome, or why there are none."""
    if target.status != "active":
        return None, None, None
    try:
        pool = attack_dice_pool(target, attack)
        return pool, tracker_attack_odds(target, pool), None
    except ValueError as problem:
        return None, None, f"No odds for this Attack Test: {problem}."


def _offered(form, attackers):
    """A Damage form sent back with its reason, its "By" offering the fighters of the other side again."""
    if form is not None:
        form.offer_attackers(attackers)
    return form


def _target_context(
    request, game, can_act, target, *, attack_form=None, damage_form=None, error=None
) -> dict:
    models = _models(target)
    board_rules = rules_for(game)
    # A shot at a unit already under fire is one more shot of its engagement, unless the player says otherwise.
    under_fire = (target.tracker.shooting or {}).get("target") == target.fighter_id
    if attack_form is None:
        params = request.GET if "dice" in request.GET else None
        attackers = tracker_attackers(target=target)
        attack_form = AttackForm(params, attackers=attackers, models=models, initial={"shooting": under_fire})
    attack = _attack(attack_form, attack_form.attackers)
    pool, odds, pool_error = _odds(target, attack) if board_rules.attack_test else (None, None, None)
    faces: list = [None] * (pool.pool if pool else 0)
    for index, face in enumerate(getattr(attack_form, "raw_faces", [])[: len(faces)]):
        faces[index] = face
    version = target.tracker.version
    initial = {"version": version, "shooting": under_fire}
    return {
        "game": game,
        "campaign": game.campaign,
        "terms": game.campaign.terms,
        "target": target,
        "unit": is_unit(target.fighter),
        "under_fire": under_fire,
        "can_act": can_act and game.status == Game.Status.IN_PROGRESS and not target.tracker.ended,
        "version": version,
        "attack_form": attack_form,
        "attack_params": _attack_params(attack_form, attack),
        "damage_form": _offered(damage_form, attack_form.attackers)
        or DamageForm(initial=initial, models=models, attackers=attack_form.attackers),
        "pool": pool,
        "pool_error": pool_error,
        "odds": odds,
        "faces": faces,
        "ladder": tracker_damage_ladder(target) if board_rules.single_model_damage else None,
        "board_rules": board_rules,
        "error": error,
        "pending": target.tracker.pending,
    }


@login_required
@require_GET
def tracker_target(request, game_id: int, fighter_id: int):
    game, can_act = game_for(request, game_id)
    target = target_on_board(game=game, fighter_id=fighter_id)
    if target is None:
        return _not_on_board(request, game, can_act)
    context = _target_context(request, game, can_act, target)
    if is_partial(request):
        return render(request, "combat/tracker_target.html#attack-odds", context)
    return render(request, "combat/tracker_target.html", context)


def _target_refused(request, game, can_act, target, *, status: int, error: str, **forms):
    context = _target_context(request, game, can_act, target, error=error, **forms)
    return render(request, "combat/tracker_target.html", context, status=status)


def _on_target(request, game_id: int, fighter_id: int, form_name: str, parse, call):
    """A POST on a target: `parse(target)` gives the form, `call(game, form, target)` the service's action. A refusal shows the
    board (the board changed, a step comes first, or the form came from a card of the board) with what was typed
    beside the reason, or else the target's page with the reason; a success answers as the board's actions do."""
    game, can_act, target = target_for(request, game_id, fighter_id, act=True)
    if target is None:
        return _not_on_board(request, game, can_act)
    form = parse(target)
    from_board = request.POST.get("from") == "board"
    attempt = {"fighter": fighter_id, "damage": request.POST.get("damage", "")} if from_board else None
    if not form.is_valid():
        error, status = form_error(form), UNPROCESSABLE
    else:
        try:
            action = call(game, form, target)
        except (TrackerConflict, TrackerBlocked) as refusal:
            if from_board:
                status = refusal_status(refusal)
                return refused_on_board(
                    request, game, can_act, error=refusal.message, status=status, attempt=attempt
                )
            return refused(request, game, can_act, refusal)
        except TrackerError as refusal:
            error, status = refusal.message, refusal_status(refusal)
        else:
            return done(request, game, can_act, action=action, row=target)
    if from_board:
        return refused_on_board(request, game, can_act, error=error, status=status, attempt=attempt)
    return _target_refused(request, game, can_act, target, status=status, error=error, **{form_name: form})


@login_required
@require_POST
def tracker_damage(request, game_id: int, fighter_id: int):
    def apply(game, form, target):
        data = form.cleaned_data
        return damage_services.tracker_apply_damage(
            game=game,
            target_id=fighter_id,
            damage=data["damage"],
            by=request.user,
            version=data["version"],
            distances=form.distances(),
            target_limit=form.target_limit(),
            shooting=form.shooting(),
            sent=sent_with(data),
            attacker_id=form.attacker_id(),
            target=target,
        )

    def parse(target):
        return DamageForm(request.POST, models=_models(target))

    return _on_target(request, game_id, fighter_id, "damage_form", parse, apply)


@login_required
@require_POST
def tracker_attack(request, game_id: int, fighter_id: int):
    def parse(target):
        attackers = tracker_attackers(target=target)
        faces = request.POST.getlist("face")
        return RollForm(request.POST, attackers=attackers, models=_models(target), faces=faces)

    def roll(game, form, target):
        return damage_services.tracker_roll_attack(
            game=game,
            target_id=fighter_id,
            attack=_attack(form, form.attackers),
            faces=form.cleaned_data["faces"],
            by=request.user,
            version=form.cleaned_data["version"],
            distances=form.distances(),
            target_limit=form.target_limit(),
            shooting=form.shooting(),
            target=target,
        )

    return _on_target(request, game_id, fighter_id, "attack_form", parse, roll)
