"""The campaign bench_web.py (and bench_profile.py) measure, in the bench's own database `warband_bench`: loaded
once and reused, `ANALYZE`d after loading (docs/development.md).

Twelve warbands (a 50-fighter one with Battlekit, Injuries and Scars, a 12-fighter rival, ten crews of 15) and a
hundred games among them; a game in progress on the tracker between two crews of 15 (web_checks.py), and a
session of the bench player's.
"""

from __future__ import annotations

import time

from web_checks import LARGE_BOARD_SIDES, tracker_game

CAMPAIGN = "Bench campaign (bench/bench_web.py)"
FIGHTERS = 50
# The campaign page's campaign: twelve warbands (the roster's, its rival and CREWS crews) and GAMES games.
CREWS, CREW_FIGHTERS, GAMES = 10, 15, 100


def prepare() -> dict[str, str]:
    """Migrate, collect static files, load the bench campaign once; the paths to load and a session cookie."""
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command
    from django.db import connection
    from django.utils.crypto import get_random_string

    from campaigns.models import Campaign
    from rosters.models import Warband

    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)
    campaign = Campaign.objects.filter(name=CAMPAIGN).first()
    if campaign is not None and (
        campaign.preset != Campaign.Preset.FALLOUT_FACTIONS or campaign.warbands.count() != CREWS + 2
    ):
        # Loaded by an older bench: before it named its preset (Trench Crusade became the default, whose board has
        # no Damage), or with two warbands and ten games rather than the twelve and a hundred.
        campaign.delete()
        campaign = None
    if campaign is None:
        started = time.perf_counter()
        campaign = load_campaign()
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        print(f"loaded the bench campaign in {time.perf_counter() - started:.1f} s", flush=True)
    warband = Warband.objects.get(campaign=campaign, name="Bench Pilgrims")
    user = get_user_model().objects.get(username="bench_player")
    game = tracker_game(campaign, user)  # sets the user's password: before the session takes its hash
    large_board = tracker_game(campaign, user, LARGE_BOARD_SIDES)["board"]
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    connection.close()
    fighter = warband.fighters.order_by("id").first()
    # What a phone's browser sends once it has loaded a page: the session, the hint of whose page generation to
    # read (config/page_cache.py) and the CSRF cookie that page set; the render path sends a new one each time.
    session_cookie = f"sessionid={session.session_key}; wl_member={user.pk}"
    return {
        "session cookie": session_cookie,
        "cookie": f"{session_cookie}; csrftoken={get_random_string(32)}",
        "roster": f"/warbands/{warband.pk}/",
        "campaign": f"/campaigns/{campaign.pk}/",
        "dashboard": "/",
        "fighter card": f"/fighters/{fighter.pk}/",
        "history feed": f"/campaigns/{campaign.pk}/history/",
        "game": game,
        "large board": large_board,
    }


def load_campaign():
    """The issue's campaign: twelve warbands (a 50-fighter one with Battlekit, Injuries and Scars, a 12-fighter
    rival, ten crews of 15) and a hundred games among them."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from campaigns.models import Campaign
    from campaigns.services import campaigns as campaign_services
    from campaigns.services import invitations as invitation_services
    from rosters.services.fighters import fighter_create
    from rosters.services.warbands import warband_create

    users = get_user_model().objects
    with transaction.atomic():
        organiser = users.filter(username="bench_organiser").first() or users.create_user("bench_organiser")
        player = users.filter(username="bench_player").first() or users.create_user("bench_player")
        # Fallout: Factions: the board's Damage is what the tracker's figures (the poll, one Damage's bytes, the
        # two instances) measure; a Trench Crusade board marks Out of Action instead.
        campaign = campaign_services.campaign_create(
            name=CAMPAIGN, by=organiser, preset=Campaign.Preset.FALLOUT_FACTIONS
        )
        invitation_services.campaign_join(code=campaign.invitation_code, user=player)
        pilgrims = warband_create(
            campaign=campaign,
            owner=player,
            name="Bench Pilgrims",
            faction="Trench Pilgrims",
            strongbox=120,
            by=player,
        )
        sides = [(pilgrims, _load_pilgrims(pilgrims, player))]
        rivals = warband_create(
            campaign=campaign, owner=organiser, name="Bench Heretics", faction="Heretic Legion", by=organiser
        )
        heretics = [
            fighter_create(warband=rivals, by=organiser, name=f"Heretic {number}", elite=number < 3)
            for number in range(12)
        ]
        sides.append((rivals, heretics))
        for crew in range(1, CREWS + 1):
            # The first crew is the bench player's too: the board's game is theirs to play (web_checks.py).
            owner = player if crew == 1 else organiser
            warband = warband_create(
                campaign=campaign, owner=owner, name=f"Bench Crew {crew}", faction="Survivors", by=owner
            )
            fighters = [
                fighter_create(
                    warband=warband, by=owner, name=f"Crew {crew} fighter {number}", elite=number < 2
                )
                for number in range(CREW_FIGHTERS)
            ]
            sides.append((warband, fighters))
        _load_games(campaign, organiser, sides)
    return campaign


def _load_pilgrims(pilgrims, player) -> list:
    """FIGHTERS fighters, each with two pieces of Battlekit, every fourth with an Injury; five spare items."""
    from rosters.services.battlekit import item_create
    from rosters.services.fighters import fighter_create
    from rosters.services.injuries import injury_add

    fighters = []
    for number in range(FIGHTERS):
        elite = number % 5 == 0
        fighter = fighter_create(
            warband=pilgrims,
            by=player,
            name=f"Bench Fighter {number}",
            fighter_type="Castigator" if elite else "Trench Pilgrim",
            elite=elite,
            xp=number % 9,
            battle_scars=1 if elite and number % 2 else 0,
        )
        item_create(warband=pilgrims, fighter=fighter, name="Bolt Action Rifle", by=player)
        item_create(warband=pilgrims, fighter=fighter, name="Trench Club", keywords=["TWO-HANDED"], by=player)
        if number % 4 == 0:
            injury_add(fighter=fighter, code="leg_wound", name="Leg Wound", d66=31, by=player)
        fighters.append(fighter)
    for number in range(5):
        item_create(warband=pilgrims, name=f"Spare kit {number}", by=player)
    return fighters


def _load_games(campaign, organiser, sides) -> None:
    """GAMES games, three days apart, each between two of the warbands in turn, a fighter or two of each side Out
    of Action."""
    import datetime

    from rosters.services.games import GameEntry, game_record

    for number in range(GAMES):
        first = number % len(sides)
        second = (first + 1 + number // len(sides)) % len(sides)
        if second == first:
            second = (first + 1) % len(sides)
        (one, one_fighters), (other, other_fighters) = sides[first], sides[second]
        out = number % 10
        game_record(
            campaign=campaign,
            by=organiser,
            played_on=datetime.date(2024, 1, 1) + datetime.timedelta(days=3 * number),
            scenario="Bench scenario",
            entries=[
                GameEntry(one, "win" if number % 2 else "loss", one_fighters[out : out + 2]),
                GameEntry(other, "loss" if number % 2 else "win", other_fighters[out : out + 1]),
            ],
        )
