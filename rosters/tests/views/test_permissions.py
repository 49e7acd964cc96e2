"""The permission matrix: every campaign and roster URL, for GET and POST, as each person sees it.

The six people (conftest.py): anonymous (sent to log in), an outsider (404: they cannot learn the campaign
exists), a spectator (reads; 403 on every change), the player (changes their own warband, 403 on the rival's),
the organiser (changes everything in the campaign), and the player demoted to spectator, who still owns their
warband and is answered as a spectator everywhere: 403 on every change, their own warband's included
(docs/architecture.md, "Who may do what"). A refused request writes nothing: the number of history events stays
the same.
"""

import pytest
from pghistory.models import Events

from rosters.tests.conftest import fighter_data

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "spectator", "player", "organiser", "demoted")


def expect(anonymous=302, outsider=404, spectator=403, player=403, organiser=200):
    """The answer for each person; the demoted owner gets the spectator's, on their own warband too."""
    answers = (anonymous, outsider, spectator, player, organiser, spectator)
    return dict(zip(ROLES, answers, strict=True))


READ = expect(spectator=200, player=200, organiser=200)
CHANGE_OWN_PAGE = expect(player=200, organiser=200)  # a form page for a change the player may make
CHANGE_RIVAL_PAGE = expect(player=403, organiser=200)
CHANGE_OWN = expect(player=302, organiser=302)  # a change the player may make: done, then redirected
CHANGE_RIVAL = expect(player=403, organiser=302)
ORGANISER_PAGE = expect(player=403, organiser=200)
ORGANISER_POST = expect(player=403, organiser=302)
HTMX = {"HTTP_HX_REQUEST": "true"}

# (id, method, url, data, headers, expected); url and data are functions of the world fixture.
CASES = [
    # --- campaigns ---
    ("dashboard", "get", lambda w: "/", None, {}, dict.fromkeys(ROLES, 200)),
    ("campaign", "get", lambda w: f"/campaigns/{w.campaign.pk}/", None, {}, READ),
    (
        "campaign-new",
        "get",
        lambda w: "/campaigns/new/",
        None,
        {},
        expect(outsider=200, spectator=200, player=200),
    ),
    (
        "campaign-new",
        "post",
        lambda w: "/campaigns/new/",
        lambda w: {"name": "Another", "preset": "trench_crusade", "scar_limit": 3},
        {},
        expect(outsider=302, spectator=302, player=302, organiser=302),
    ),
    ("settings", "get", lambda w: f"/campaigns/{w.campaign.pk}/settings/", None, {}, ORGANISER_PAGE),
    (
        "settings",
        "post",
        lambda w: f"/campaigns/{w.campaign.pk}/settings/",
        lambda w: {"name": "Renamed", "preset": "trench_crusade", "scar_limit": 4, "status": "active"},
        {},
        ORGANISER_POST,
    ),
    (
        "invitation",
        "post",
        lambda w: f"/campaigns/{w.campaign.pk}/settings/invitation/",
        lambda w: {},
        {},
        ORGANISER_POST,
    ),
    (
        "trauma-table",
        "post",
        lambda w: f"/campaigns/{w.campaign.pk}/settings/trauma-table/",
        lambda w: {"action": "copy"},
        {},
        ORGANISER_POST,
    ),
    (
        "member",
        "post",
        lambda w: f"/campaigns/{w.campaign.pk}/members/{w.campaign.memberships.get(user=w.rival.owner).pk}/",
        lambda w: {"role": "spectator"},
        {},
        ORGANISER_POST,
    ),
    (
        "join",
        "get",
        lambda w: f"/join/{w.campaign.invitation_code}/",
        None,
        {},
        # Members are already in: they are sent to the campaign page. A logged-out visitor reads the landing page
        #: the campaign's name and who invites, then sign up or log in; joining still needs an account.
        expect(anonymous=200, outsider=200, spectator=302, player=302, organiser=302),
    ),
    (
        "join",
        "post",
        lambda w: f"/join/{w.campaign.invitation_code}/",
        lambda w: {},
        {},
        expect(outsider=302, spectator=302, player=302, organiser=302),
    ),
    # --- warbands ---
    ("warband-new", "get", lambda w: f"/campaigns/{w.campaign.pk}/warbands/new/", None, {}, CHANGE_OWN_PAGE),
    (
        "warband-new",
        "post",
        lambda w: f"/campaigns/{w.campaign.pk}/warbands/new/",
        lambda w: {"name": "New Band", "strongbox": 0, "glory": 0, "crew_xp": 0},
        {},
        CHANGE_OWN,
    ),
    ("roster-own", "get", lambda w: f"/warbands/{w.warband.pk}/", None, {}, READ),
    ("roster-rival", "get", lambda w: f"/warbands/{w.rival.pk}/", None, {}, READ),
    ("print-own", "get", lambda w: f"/warbands/{w.warband.pk}/print/", None, {}, READ),
    ("print-rival", "get", lambda w: f"/warbands/{w.rival.pk}/print/", None, {}, READ),
    ("cards-own", "get", lambda w: f"/warbands/{w.warband.pk}/cards/", None, {}, READ),
    ("cards-rival", "get", lambda w: f"/warbands/{w.rival.pk}/cards/", None, {}, READ),
    ("fighter-card-rival", "get", lambda w: f"/fighters/{w.heretic.pk}/card/", None, {}, READ),
    ("warband-edit-own", "get", lambda w: f"/warbands/{w.warband.pk}/edit/", None, {}, CHANGE_OWN_PAGE),
    ("warband-edit-rival", "get", lambda w: f"/warbands/{w.rival.pk}/edit/", None, {}, CHANGE_RIVAL_PAGE),
    (
        "warband-edit-own",
        "post",
        lambda w: f"/warbands/{w.warband.pk}/edit/",
        lambda w: {"name": "Renamed", "strongbox": 10, "glory": 1, "crew_xp": 0},
        {},
        CHANGE_OWN,
    ),
    (
        "warband-edit-rival",
        "post",
        lambda w: f"/warbands/{w.rival.pk}/edit/",
        lambda w: {"name": "Renamed", "strongbox": 10, "glory": 1, "crew_xp": 0},
        {},
        CHANGE_RIVAL,
    ),
    # --- fighters ---
    (
        "fighter-new-own",
        "get",
        lambda w: f"/warbands/{w.warband.pk}/fighters/new/",
        None,
        {},
        CHANGE_OWN_PAGE,
    ),
    (
        "fighter-new-rival",
        "get",
        lambda w: f"/warbands/{w.rival.pk}/fighters/new/",
        None,
        {},
        CHANGE_RIVAL_PAGE,
    ),
    (
        "fighter-new-own",
        "post",
        lambda w: f"/warbands/{w.warband.pk}/fighters/new/",
        lambda w: fighter_data(),
        {},
        CHANGE_OWN,
    ),
    (
        "fighter-new-rival",
        "post",
        lambda w: f"/warbands/{w.rival.pk}/fighters/new/",
        lambda w: fighter_data(),
        {},
        CHANGE_RIVAL,
    ),
    ("fighter-own", "get", lambda w: f"/fighters/{w.anselm.pk}/", None, {}, READ),
    ("fighter-rival", "get", lambda w: f"/fighters/{w.heretic.pk}/", None, {}, READ),
    ("fighter-row-own", "get", lambda w: f"/fighters/{w.anselm.pk}/row/", None, HTMX, READ),
    ("fighter-edit-own", "get", lambda w: f"/fighters/{w.anselm.pk}/edit/", None, {}, CHANGE_OWN_PAGE),
    ("fighter-edit-rival", "get", lambda w: f"/fighters/{w.heretic.pk}/edit/", None, {}, CHANGE_RIVAL_PAGE),
    (
        "fighter-edit-own",
        "post",
        lambda w: f"/fighters/{w.anselm.pk}/edit/",
        lambda w: fighter_data(name="Brother Anselm", elite="on", xp=4),
        {},
        CHANGE_OWN,
    ),
    (
        "fighter-edit-rival",
        "post",
        lambda w: f"/fighters/{w.heretic.pk}/edit/",
        lambda w: fighter_data(name="Heretic Priest", elite="on", xp=4),
        {},
        CHANGE_RIVAL,
    ),
    ("xp-own", "post", lambda w: f"/fighters/{w.anselm.pk}/xp/", lambda w: {"delta": 1}, {}, CHANGE_OWN),
    ("xp-rival", "post", lambda w: f"/fighters/{w.heretic.pk}/xp/", lambda w: {"delta": 1}, {}, CHANGE_RIVAL),
    (
        "xp-own-htmx",
        "post",
        lambda w: f"/fighters/{w.anselm.pk}/xp/",
        lambda w: {"delta": 1},
        HTMX,
        expect(player=200, organiser=200),
    ),
    (
        "remove-own",
        "post",
        lambda w: f"/fighters/{w.anselm.pk}/remove/",
        lambda w: {"status": "retired", "battlekit": "arsenal"},
        {},
        CHANGE_OWN,
    ),
    (
        "remove-rival",
        "post",
        lambda w: f"/fighters/{w.heretic.pk}/remove/",
        lambda w: {"status": "retired", "battlekit": "arsenal"},
        {},
        CHANGE_RIVAL,
    ),
    ("restore-own", "post", lambda w: f"/fighters/{w.fallen.pk}/restore/", lambda w: {}, {}, CHANGE_OWN),
    (
        "restore-rival",
        "post",
        lambda w: f"/fighters/{w.rival_fallen.pk}/restore/",
        lambda w: {},
        {},
        CHANGE_RIVAL,
    ),
    (
        "injury-new-own",
        "post",
        lambda w: f"/fighters/{w.anselm.pk}/injuries/new/",
        lambda w: {"result": "leg_wound", "d66": 31},
        {},
        CHANGE_OWN,
    ),
    (
        "injury-new-rival",
        "post",
        lambda w: f"/fighters/{w.heretic.pk}/injuries/new/",
        lambda w: {"result": "leg_wound", "d66": 31},
        {},
        CHANGE_RIVAL,
    ),
    ("injury-delete-own", "post", lambda w: f"/injuries/{w.injury.pk}/delete/", lambda w: {}, {}, CHANGE_OWN),
    (
        "injury-delete-rival",
        "post",
        lambda w: f"/injuries/{w.rival_injury.pk}/delete/",
        lambda w: {},
        {},
        CHANGE_RIVAL,
    ),
    # --- Battlekit ---
    (
        "item-new-own",
        "post",
        lambda w: f"/warbands/{w.warband.pk}/items/new/",
        lambda w: {"name": "Shovel", "holder": "arsenal", "removable": "on"},
        {},
        CHANGE_OWN,
    ),
    (
        "item-new-rival",
        "post",
        lambda w: f"/warbands/{w.rival.pk}/items/new/",
        lambda w: {"name": "Shovel", "holder": "arsenal", "removable": "on"},
        {},
        CHANGE_RIVAL,
    ),
    (
        "item-move-own",
        "post",
        lambda w: f"/warbands/{w.warband.pk}/items/move/",
        lambda w: {"item": w.sword.pk, "to": "arsenal"},
        {},
        CHANGE_OWN,
    ),
    (
        "item-move-rival",
        "post",
        lambda w: f"/warbands/{w.rival.pk}/items/move/",
        lambda w: {"item": w.rival_item.pk, "to": "arsenal"},
        {},
        CHANGE_RIVAL,
    ),
    ("item-edit-own", "get", lambda w: f"/items/{w.relic.pk}/edit/", None, {}, CHANGE_OWN_PAGE),
    ("item-edit-rival", "get", lambda w: f"/items/{w.rival_item.pk}/edit/", None, {}, CHANGE_RIVAL_PAGE),
    (
        "item-edit-own",
        "post",
        lambda w: f"/items/{w.relic.pk}/edit/",
        lambda w: {"name": "Holier Relic", "removable": "on"},
        {},
        CHANGE_OWN,
    ),
    (
        "item-edit-rival",
        "post",
        lambda w: f"/items/{w.rival_item.pk}/edit/",
        lambda w: {"name": "Hellblade+", "removable": "on"},
        {},
        CHANGE_RIVAL,
    ),
    ("item-delete-own", "post", lambda w: f"/items/{w.relic.pk}/delete/", lambda w: {}, {}, CHANGE_OWN),
    (
        "item-delete-rival",
        "post",
        lambda w: f"/items/{w.rival_item.pk}/delete/",
        lambda w: {},
        {},
        CHANGE_RIVAL,
    ),
    # --- games ---
    ("game-new", "get", lambda w: f"/campaigns/{w.campaign.pk}/games/new/", None, {}, CHANGE_OWN_PAGE),
    (
        "game-new",
        "post",
        lambda w: f"/campaigns/{w.campaign.pk}/games/new/",
        lambda w: {
            "mode": "record",
            "played_on": "2025-04-01",
            f"wb{w.warband.pk}_played": "on",
            f"wb{w.warband.pk}_result": "loss",
            f"wb{w.rival.pk}_played": "on",
            f"wb{w.rival.pk}_result": "win",
        },
        {},
        CHANGE_OWN,
    ),
    ("game-played", "get", lambda w: f"/games/{w.game.pk}/", None, {}, READ),
    ("game-not-played", "get", lambda w: f"/games/{w.other_game.pk}/", None, {}, READ),
    # A battle report: written by a player whose warband took part, or the organiser.
    ("report-played", "get", lambda w: f"/games/{w.game.pk}/report/", None, {}, CHANGE_OWN_PAGE),
    (
        "report-played",
        "post",
        lambda w: f"/games/{w.game.pk}/report/",
        lambda w: {"title": "The Last Stand", "text": "We held."},
        {},
        CHANGE_OWN,
    ),
    ("report-not-played", "get", lambda w: f"/games/{w.other_game.pk}/report/", None, {}, CHANGE_RIVAL_PAGE),
    (
        "report-not-played",
        "post",
        lambda w: f"/games/{w.other_game.pk}/report/",
        lambda w: {"title": "Not my game", "text": "Still."},
        {},
        CHANGE_RIVAL,
    ),
    # The player took part in `game` and may correct it; not in `other_game`.
    ("game-edit-played", "get", lambda w: f"/games/{w.game.pk}/edit/", None, {}, CHANGE_OWN_PAGE),
    ("game-edit-not-played", "get", lambda w: f"/games/{w.other_game.pk}/edit/", None, {}, CHANGE_RIVAL_PAGE),
    (
        "game-edit-played",
        "post",
        lambda w: f"/games/{w.game.pk}/edit/",
        # The rival's side stays as recorded (win v loss): a player sets only their own (test_game_policy.py).
        lambda w: {
            "played_on": "2025-03-01",
            f"wb{w.warband.pk}_played": "on",
            f"wb{w.warband.pk}_result": "win",
            f"wb{w.rival.pk}_played": "on",
            f"wb{w.rival.pk}_result": "loss",
        },
        {},
        CHANGE_OWN,
    ),
    (
        "game-edit-not-played",
        "post",
        lambda w: f"/games/{w.other_game.pk}/edit/",
        lambda w: {
            "played_on": "2025-03-08",
            f"wb{w.rival.pk}_played": "on",
            f"wb{w.rival.pk}_result": "win",
            f"wb{w.organisers_band.pk}_played": "on",
            f"wb{w.organisers_band.pk}_result": "loss",
        },
        {},
        CHANGE_RIVAL,
    ),
    ("game-delete-played", "post", lambda w: f"/games/{w.game.pk}/delete/", lambda w: {}, {}, CHANGE_OWN),
    (
        "game-delete-not-played",
        "post",
        lambda w: f"/games/{w.other_game.pk}/delete/",
        lambda w: {},
        {},
        CHANGE_RIVAL,
    ),
]


@pytest.fixture
def people(organiser, player, spectator, outsider):
    return {
        "anonymous": None,
        "outsider": outsider,
        "spectator": spectator,
        "player": player,
        "organiser": organiser,
    }


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    ("method", "url", "data", "headers", "expected"),
    [pytest.param(*case[1:], id=f"{case[1].upper()} {case[0]}") for case in CASES],
)
def test_the_permission_matrix(client, world, people, role, method, url, data, headers, expected, request):
    # The demotion comes after the world is built, as it does in a campaign under way.
    user = request.getfixturevalue("demoted") if role == "demoted" else people[role]
    if user is not None:
        client.force_login(user)
    path = url(world)
    events_before = Events.objects.count()

    response = client.get(path, **headers) if method == "get" else client.post(path, data(world), **headers)
    # An htmx request sent to log in is told so with HX-Redirect, not a 302 htmx would follow into the part
    # (config/htmx_login.py): it is the same refusal.
    login = response.get("HX-Redirect") or response.get("Location", "")
    status = 302 if response.has_header("HX-Redirect") else response.status_code

    assert status == expected[role], f"{role} {method.upper()} {path}: {status}, expected {expected[role]}"
    if status == 302 and role == "anonymous":
        assert login.startswith("/accounts/login/")
    if response.status_code >= 400 or method == "get":
        assert Events.objects.count() == events_before, "a refused request or a read wrote history"


def test_a_demoted_owners_warband_waits_for_a_player(client, world, organiser, demoted):
    """The organiser still changes it; its owner reads only until made a player again, then changes it again."""
    from campaigns.models import Membership
    from campaigns.services.members import membership_set_role

    xp = f"/fighters/{world.anselm.pk}/xp/"
    client.force_login(organiser)
    assert client.post(xp, {"delta": 1}).status_code == 302
    client.force_login(demoted)
    assert client.get(f"/warbands/{world.warband.pk}/").status_code == 200
    assert client.post(xp, {"delta": 1}).status_code == 403
    world.anselm.refresh_from_db()
    assert world.anselm.xp == 4

    membership = Membership.objects.get(campaign=world.campaign, user=demoted)
    membership_set_role(membership=membership, role=Membership.Role.PLAYER, by=organiser)
    assert client.post(xp, {"delta": 1}).status_code == 302
    world.anselm.refresh_from_db()
    assert world.anselm.xp == 5
