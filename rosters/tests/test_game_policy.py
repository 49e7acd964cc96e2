"""Game policy: a player sets only their own warband's side of a game (whether it took part,
its result, its fighters Out of Action); the organiser sets both. Rows for the permission matrix, run against
the matrix's world (rosters/tests/conftest.py): `game` is the player's warband (win, Brother Anselm Out of Action)
against player2's rival warband (loss)."""

import pytest

from campaigns.access import can_delete_game, can_set_game_side, membership_of
from campaigns.models import GamePlayer, OutOfAction

pytestmark = pytest.mark.django_db


def edit(client, world, **sides):
    """POST the game's edit form with each warband's side as given (result, Out of Action fighters)."""
    data = {"played_on": "2025-03-01", "scenario": "Corrected"}
    for warband, (result, out) in sides.items():
        band = getattr(world, warband)
        data[f"wb{band.pk}_played"] = "on"
        data[f"wb{band.pk}_result"] = result
        data[f"wb{band.pk}_out"] = [str(f.pk) for f in out]
    return client.post(f"/games/{world.game.pk}/edit/", data)


def side(world, warband):
    player = GamePlayer.objects.get(game=world.game, warband=getattr(world, warband))
    out = set(OutOfAction.objects.filter(player=player).values_list("fighter__name", flat=True))
    return player.result, out


# (who, the sides they send, the sides stored afterwards)
ROWS = [
    # The player marks the opponent's fighter Out of Action and flips both results: only their own side moves.
    (
        "player",
        {"warband": ("loss", []), "rival": ("win", ["heretic"])},
        {"warband": ("loss", set()), "rival": ("loss", set())},
    ),
    # The player corrects their own side.
    (
        "player",
        {"warband": ("win", []), "rival": ("loss", [])},
        {"warband": ("win", set()), "rival": ("loss", set())},
    ),
    # The opponent (player2) sets theirs, and cannot touch the player's Out of Action.
    (
        "player2",
        {"warband": ("win", []), "rival": ("loss", ["heretic"])},
        {"warband": ("win", {"Brother Anselm"}), "rival": ("loss", {"Heretic Priest"})},
    ),
    # The organiser sets both.
    (
        "organiser",
        {"warband": ("loss", []), "rival": ("win", ["heretic"])},
        {"warband": ("loss", set()), "rival": ("win", {"Heretic Priest"})},
    ),
]


@pytest.mark.parametrize(("who", "sent", "stored"), ROWS, ids=[f"{r[0]}-{i}" for i, r in enumerate(ROWS)])
def test_each_person_sets_only_the_sides_the_policy_gives_them(client, world, request, who, sent, stored):
    client.force_login(request.getfixturevalue(who))
    sides = {band: (result, [getattr(world, name) for name in out]) for band, (result, out) in sent.items()}
    response = edit(client, world, **sides)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert {band: side(world, band) for band in stored} == stored


def test_the_edit_page_shows_the_opponents_side_as_it_is_but_not_to_change(client, world, player):
    client.force_login(player)
    response = client.get(f"/games/{world.game.pk}/edit/")
    assert response.status_code == 200
    form = response.context["form"]
    assert not form.fields[f"wb{world.warband.pk}_out"].disabled
    assert form.fields[f"wb{world.rival.pk}_out"].disabled
    assert form.fields[f"wb{world.rival.pk}_result"].disabled
    assert form.fields[f"wb{world.organisers_band.pk}_played"].disabled


def test_the_policy_functions(world, organiser, player, player2, spectator, outsider):
    game = world.game
    assert can_set_game_side(membership_of(player, game.campaign), game, world.warband)
    assert not can_set_game_side(membership_of(player, game.campaign), game, world.rival)
    assert can_set_game_side(membership_of(player2, game.campaign), game, world.rival)
    assert can_set_game_side(membership_of(organiser, game.campaign), game, world.rival)
    assert not can_set_game_side(membership_of(spectator, game.campaign), game, world.warband)
    assert not can_set_game_side(membership_of(outsider, game.campaign), game, world.warband)
    # Nothing but the game's own rows yet: a player who took part may delete it, a spectator not.
    assert can_delete_game(membership_of(player, game.campaign), game)
    assert not can_delete_game(membership_of(spectator, game.campaign), game)
    assert not can_delete_game(None, game)
