"""The history selectors: one sentence per kind of change, with who and why, filters and keyset pages.

Events are made the way the app makes them: the roster services (which set the history context), and for the
post-game, writes under `pghistory.context(action="post_game.apply", game=..., warband=..., roll=...)` exactly as
`combat.services.post_game_apply` sets it.
"""

import datetime as dt

import pghistory
import pytest

from campaigns.models import Campaign, Game, GamePlayer, Membership
from combat.models import DiceRoll
from rosters import services
from rosters.history.entries import HistoryFilter, group_by_game
from rosters.history.feed import history_page, iter_history
from rosters.history.sources import BadCursor, Cursor
from rosters.models import Fighter, Injury, Item, Warband

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def first_names(organiser, player, player2):
    for user, name in ((organiser, "Olga"), (player, "Pat"), (player2, "Bob")):
        user.first_name = name
        user.save()


@pytest.fixture
def marcus(warband, player):
    return services.fighter_create(
        warband=warband, by=player, name="Brother Marcus", elite=True, fighter_type="Trench Pilgrim", xp=5
    )


@pytest.fixture
def game3(campaign, warband, rival_warband, organiser):
    """Game 3 of the campaign, recorded directly (games 1 and 2 are not needed for its number)."""
    with pghistory.context(action="game.record", user=organiser.pk):
        game = Game.objects.create(
            campaign=campaign, number=3, played_on=dt.date(2026, 5, 12), created_by=organiser
        )
        GamePlayer.objects.create(game=game, warband=warband, result="loss")
        GamePlayer.objects.create(game=game, warband=rival_warband, result="win")
    return game


def sentences(campaign, **filters) -> list[str]:
    page = history_page(campaign=campaign, filters=HistoryFilter(campaign_id=campaign.pk, **filters))
    return [change.sentence for entry in page.entries for change in entry.changes]


def test_adding_a_fighter_says_who_added_whom_to_which_warband(campaign, warband, player):
    services.fighter_create(warband=warband, by=player, name="Sister Ama", fighter_type="Trench Pilgrim")
    assert "Pat added Sister Ama (Trench Pilgrim) to Iron Sepulchre" in sentences(campaign)


def test_xp_says_how_much_and_the_new_total_and_who(campaign, marcus, player):
    services.fighter_adjust_xp(fighter=marcus, delta=2, by=player)
    # The service's own reason only repeats the change, so it is not repeated in the sentence.
    assert "Brother Marcus gained 2 XP (now 7) — by Pat" in sentences(campaign, kind="xp")


def test_a_reason_the_player_gave_is_part_of_the_sentence(campaign, marcus, player):
    services.fighter_adjust_xp(fighter=marcus, delta=-1, by=player, reason="mistyped after Game 1")
    assert "Brother Marcus lost 1 XP (now 4; mistyped after Game 1) — by Pat" in sentences(
        campaign, kind="xp"
    )


def test_an_injury_from_the_post_game_names_the_game_the_roll_and_who_rolled(
    campaign, warband, marcus, game3, player
):
    roll = DiceRoll.objects.create(
        campaign=campaign,
        game=game3,
        warband=warband,
        fighter=marcus,
        rolled_by=player,
        source="server",
        sides=6,
        faces=[1, 4],
        purpose="trauma",
        label="D66 14",
    )
    with pghistory.context(
        action="post_game.apply",
        reason=f"Post-game of Game 3 applied to {warband.name}",
        game=game3.pk,
        warband=warband.pk,
        roll=[roll.pk],
        user=player.pk,
        step="apply",
    ):
        Injury.objects.create(fighter=marcus, code="14", name="Hand Wound", game=game3, d66=14)
    assert (
        "Brother Marcus suffered Hand Wound (D66 14) — post-game of Game 3, rolled by Pat on the server"
        in sentences(campaign, kind="injuries")
    )


def test_dice_typed_in_from_the_table_and_an_applier_who_did_not_roll(
    campaign, warband, marcus, game3, player, organiser
):
    roll = DiceRoll.objects.create(
        campaign=campaign,
        game=game3,
        warband=warband,
        fighter=marcus,
        rolled_by=player,
        source="entered",
        sides=6,
        faces=[4, 1],
        purpose="trauma",
        label="D66 41",
    )
    with pghistory.context(
        action="post_game.apply", game=game3.pk, warband=warband.pk, roll=[roll.pk], user=organiser.pk
    ):
        Fighter.objects.filter(pk=marcus.pk).update(battle_scars=1)
    assert (
        "Brother Marcus gained a Battle Scar (now 1) — post-game of Game 3 by Olga, entered by Pat from the table"
        in sentences(campaign, kind="scars")
    )


def test_battlekit_moving_to_the_arsenal(campaign, warband, marcus, player):
    lance = services.item_create(warband=warband, fighter=marcus, name="Lance", by=player)
    services.item_move(item=lance, to_fighter=None, by=player)
    found = sentences(campaign, kind="battlekit")
    assert "Lance moved from Brother Marcus to the Arsenal — by Pat" in found
    assert "Pat gave Lance to Brother Marcus" in found


def test_battlekit_added_to_and_lost_from_the_arsenal(campaign, warband, player):
    relic = services.item_create(warband=warband, fighter=None, name="Holy Relic", by=player)
    services.item_delete(item=relic, by=player)
    found = sentences(campaign, kind="battlekit")
    assert "Pat added Holy Relic to Iron Sepulchre's Arsenal" in found
    assert "Pat removed Holy Relic from Iron Sepulchre's Arsenal" in found


def test_strongbox_with_the_reason_for_the_ducats(campaign, warband, marcus, player):
    services.warband_adjust(warband=warband, by=player, strongbox=-15, reason="ransom for Brother Marcus")
    assert "Iron Sepulchre: Strongbox 50 → 35 ducats (ransom for Brother Marcus) — by Pat" in sentences(
        campaign, kind="strongbox"
    )


def test_a_ransom_paid_in_the_post_game_says_whose_ransom_on_each_strongbox(
    campaign, warband, rival_warband, marcus, game3, player
):
    # The post-game's Apply names each warband's ransom in its context (`ransoms`, warband id -> words); the
    # Strongbox sentence reads it (TRAUMA_TABLE.md 12, Captured: the ducats move to the captor).
    with pghistory.context(
        action="post_game.apply",
        reason=f"Post-game of Game 3 applied to {warband.name}",
        game=game3.pk,
        warband=warband.pk,
        user=player.pk,
        ransoms={
            str(warband.pk): "ransom for Brother Marcus",
            str(rival_warband.pk): "ransom for Brother Marcus (from Iron Sepulchre)",
        },
    ):
        Warband.objects.filter(pk=warband.pk).update(strongbox=35)
        Warband.objects.filter(pk=rival_warband.pk).update(strongbox=45)
    found = sentences(campaign, kind="strongbox")
    assert (
        "Iron Sepulchre: Strongbox 50 → 35 ducats (ransom for Brother Marcus) — post-game of Game 3 by Pat"
        in found
    )
    assert (
        "Heretic Legion: Strongbox 30 → 45 ducats (ransom for Brother Marcus, from Iron Sepulchre) — "
        "post-game of Game 3 by Pat"
    ) in found


@pytest.mark.parametrize("ransoms", [None, {}, {"0": "ransom for someone else"}, "not a mapping", {"1": 5}])
def test_a_strongbox_change_without_its_ransom_in_the_context_still_reads(
    campaign, warband, game3, player, ransoms
):
    extra = {} if ransoms is None else {"ransoms": ransoms}
    with pghistory.context(
        action="post_game.apply", game=game3.pk, warband=warband.pk, user=player.pk, **extra
    ):
        Warband.objects.filter(pk=warband.pk).update(strongbox=35)
    assert "Iron Sepulchre: Strongbox 50 → 35 ducats — post-game of Game 3 by Pat" in sentences(
        campaign, kind="strongbox"
    )


def test_fallout_campaigns_use_their_own_words(campaign, warband, marcus, player):
    Campaign.objects.filter(pk=campaign.pk).update(preset="fallout_factions")
    campaign.refresh_from_db()
    services.warband_adjust(warband=warband, by=player, strongbox=5, reason="scavenged")
    pistol = services.item_create(warband=warband, fighter=marcus, name="Pipe Pistol", by=player)
    services.item_move(item=pistol, to_fighter=None, by=player)
    found = sentences(campaign)
    assert "Iron Sepulchre: Stash 50 → 55 caps (scavenged) — by Pat" in found
    assert "Pipe Pistol moved from Brother Marcus to the Stash — by Pat" in found


def test_a_fighter_lost_and_restored(campaign, marcus, player):
    services.fighter_remove(fighter=marcus, status="dead", by=player)
    services.fighter_restore(fighter=marcus, by=player, reason="the Trauma roll was entered wrongly")
    found = sentences(campaign, kind="roster")
    assert "Brother Marcus died — by Pat" in found
    assert (
        "Brother Marcus is back on the active roster (the Trauma roll was entered wrongly) — by Pat" in found
    )


def test_profile_changes_list_each_stat(campaign, marcus, player):
    services.fighter_update(fighter=marcus, by=player, changes={"movement": 5, "harm_limit": None})
    assert "Brother Marcus: Harm Limit 3 → none, Movement 6 → 5 — by Pat" in sentences(
        campaign, kind="profile"
    )


def test_a_recorded_game_and_its_out_of_action(campaign, warband, rival_warband, marcus, organiser):
    game = services.game_record(
        campaign=campaign,
        by=organiser,
        played_on=dt.date(2026, 5, 1),
        entries=[
            services.GameEntry(warband=warband, result="loss", out_of_action=[marcus]),
            services.GameEntry(warband=rival_warband, result="win"),
        ],
        scenario="Raid",
    )
    found = sentences(campaign, kind="games")
    assert "Olga recorded Game 1 (Raid)" in found
    assert "Iron Sepulchre played Game 1 (loss) — by Olga" in found
    assert "Brother Marcus was taken Out of Action in Game 1 — by Olga" in found
    page = history_page(campaign=campaign, filters=HistoryFilter(campaign_id=campaign.pk, kind="games"))
    assert {entry.game.id for entry in page.entries} == {game.pk}


def test_post_game_done_is_told_with_its_warband(campaign, warband, game3, player):
    player_entry = GamePlayer.objects.get(game=game3, warband=warband)
    with pghistory.context(action="post_game.apply", game=game3.pk, warband=warband.pk, user=player.pk):
        player_entry.post_game = "done"
        player_entry.save()
    assert "Iron Sepulchre finished its post-game of Game 3 — by Pat" in sentences(campaign, kind="games")


def test_members_and_share_links_never_show_secrets(campaign, organiser, outsider):
    outsider.first_name = "Otto"
    outsider.save()
    with pghistory.context(user=outsider.pk):
        Membership.objects.create(campaign=campaign, user=outsider, role="spectator")
    with pghistory.context(user=organiser.pk, action="campaign.share"):
        Campaign.objects.filter(pk=campaign.pk).update(share_token="secret-token-123")
    found = sentences(campaign, kind="campaign")
    assert "Otto joined the campaign as spectator" in found
    assert "A read-only link was shared — by Olga" in found
    assert not any("secret-token-123" in sentence for sentence in found)
    assert not any(campaign.invitation_code in sentence for sentence in sentences(campaign))


@pytest.mark.django_db(transaction=True)
def test_a_change_without_context_still_reads(campaign, marcus):
    # Transactional: pghistory's context lasts until the end of a transaction, and a test's transaction would
    # lend the fixtures' context to this write.
    Fighter.objects.filter(pk=marcus.pk).update(xp=9)
    assert "Brother Marcus gained 4 XP (now 9)" in sentences(campaign, kind="xp")


def test_one_update_of_several_kinds_gives_one_sentence_per_kind(campaign, marcus, player):
    with pghistory.context(user=player.pk, action="post_game.apply"):
        Fighter.objects.filter(pk=marcus.pk).update(xp=6, battle_scars=3, status="unfit_for_duty")
    found = sentences(campaign)
    for sentence in (
        "Brother Marcus gained 1 XP (now 6)",
        "gained 3 Battle Scars (now 3)",
        "is Unfit For Duty",
    ):
        assert any(sentence in s for s in found), sentence
    # Filtered by one kind, only that kind's sentence is told.
    assert [s for s in sentences(campaign, kind="scars") if "Brother Marcus" in s] == [
        "Brother Marcus gained 3 Battle Scars (now 3) — by Pat"
    ]


# -- filters ----------------------------------------------------------------------------------------------------


def test_filter_by_warband_keeps_other_warbands_out(campaign, warband, rival_warband, player, player2):
    services.fighter_create(warband=warband, by=player, name="Sister Ama")
    services.fighter_create(warband=rival_warband, by=player2, name="Heretic Priest")
    found = sentences(campaign, warband_id=warband.pk)
    assert any("Sister Ama" in s for s in found)
    assert not any("Heretic Priest" in s for s in found)


def test_filter_by_fighter_follows_its_battlekit_and_injuries(campaign, warband, marcus, player):
    other = services.fighter_create(warband=warband, by=player, name="Sister Ama")
    lance = services.item_create(warband=warband, fighter=marcus, name="Lance", by=player)
    services.item_move(item=lance, to_fighter=None, by=player)
    services.injury_add(fighter=marcus, by=player, code="14", name="Hand Wound")
    services.fighter_adjust_xp(fighter=other, delta=1, by=player)
    found = sentences(campaign, fighter_id=marcus.pk)
    assert "Lance moved from Brother Marcus to the Arsenal — by Pat" in found
    assert "Brother Marcus suffered Hand Wound — by Pat" in found
    assert not any("Sister Ama" in s for s in found)


def test_filter_by_game_reads_the_context(campaign, warband, marcus, game3, player):
    services.fighter_adjust_xp(fighter=marcus, delta=1, by=player)
    with pghistory.context(action="post_game.apply", game=game3.pk, warband=warband.pk, user=player.pk):
        Fighter.objects.filter(pk=marcus.pk).update(xp=10)
    found = sentences(campaign, game_id=game3.pk)
    assert "Brother Marcus gained 4 XP (now 10) — post-game of Game 3 by Pat" in found
    assert not any("(now 6)" in s for s in found)


def test_other_campaigns_stay_out(campaign, warband, organiser, player):
    other = Campaign.objects.create(name="Elsewhere", created_by=organiser)
    foreign = Warband.objects.create(campaign=other, owner=player, name="Foreign Band")
    Fighter.objects.create(warband=foreign, name="Stranger")
    assert not any("Stranger" in s or "Foreign" in s for s in sentences(campaign))
    assert any("Stranger" in s for s in sentences(other))


# -- pages ------------------------------------------------------------------------------------------------------


def test_keyset_pages_cover_everything_once_newest_first(campaign, warband, player):
    for n in range(7):
        Fighter.objects.create(warband=warband, name=f"Recruit {n}")
    full = history_page(campaign=campaign)
    keys = [entry.key for entry in full.entries]
    assert full.older is None
    seen, before = [], None
    while True:
        page = history_page(campaign=campaign, before=before, limit=3)
        assert len(page.entries) <= 3
        seen += [entry.key for entry in page.entries]
        if page.older is None:
            break
        before = page.older
    assert seen == keys
    cursors = [Cursor.decode(key) for key in keys]
    assert cursors == sorted(cursors, reverse=True)


@pytest.mark.django_db(transaction=True)
def test_polling_returns_only_what_is_new(campaign, warband, player):
    # Transactional: every event of one transaction has the same time, as in one service call; polling finds
    # what later transactions wrote.
    Fighter.objects.create(warband=warband, name="Old Hand")
    first = history_page(campaign=campaign)
    assert history_page(campaign=campaign, after=first.newest).entries == []
    Fighter.objects.create(warband=warband, name="New Blood")
    new = history_page(campaign=campaign, after=first.newest)
    assert [c.text for e in new.entries for c in e.changes] == ["New Blood joined Iron Sepulchre"]
    assert new.newest != first.newest
    assert history_page(campaign=campaign, after=new.newest).entries == []


@pytest.mark.django_db(transaction=True)
def test_polling_an_empty_history_finds_the_first_change(campaign):
    empty = Campaign.objects.create(name="Empty", created_by=campaign.created_by)
    Campaign.objects.filter(pk=empty.pk).update(name="Still empty")
    page = history_page(campaign=empty, filters=HistoryFilter(campaign_id=empty.pk, kind="roster"))
    assert page.entries == []
    assert page.newest
    Warband.objects.create(campaign=empty, owner=campaign.created_by, name="First Band")
    later = history_page(
        campaign=empty, filters=HistoryFilter(campaign_id=empty.pk, kind="roster"), after=page.newest
    )
    assert [c.text for e in later.entries for c in e.changes] == ["The warband First Band was founded"]


# Rank 19 is no place in a moment (15, the last, is a campaign's deletion).
@pytest.mark.parametrize(
    "cursor", ["", "abc", "1-19-1", "1-123-1", "1-1", "1-1-1-1", "99999999999999999999-1-1"]
)
def test_a_mangled_cursor_is_refused(campaign, cursor):
    with pytest.raises(BadCursor):
        history_page(campaign=campaign, before=cursor)


def test_entries_group_by_game(campaign, warband, marcus, game3, player):
    with pghistory.context(action="post_game.apply", game=game3.pk, warband=warband.pk, user=player.pk):
        Fighter.objects.filter(pk=marcus.pk).update(xp=8)
        Item.objects.create(warband=warband, name="Trench Club")
    groups = group_by_game(history_page(campaign=campaign).entries)
    assert any(group.game and group.game.title == "Game 3" for group in groups)
    for group in groups:
        ids = {entry.game.id if entry.game else None for entry in group.entries}
        assert len(ids) == 1


def test_one_moment_reads_in_the_order_it_happened_a_fighter_before_what_it_was_given(
    campaign, warband, player
):
    # A test is one transaction, like an import or a post-game: every event below has the same time, so only the
    # order inside the moment can tell that Sister Ama was added before she was given a Lance or gained XP.
    ama = services.fighter_create(warband=warband, by=player, name="Sister Ama")
    services.item_create(warband=warband, fighter=ama, name="Lance", by=player)
    services.injury_add(fighter=ama, by=player, code="14", name="Hand Wound")
    services.fighter_adjust_xp(fighter=ama, delta=2, by=player)
    assert sentences(campaign, fighter_id=ama.pk) == [
        "Sister Ama gained 2 XP (now 2) — by Pat",
        "Sister Ama suffered Hand Wound — by Pat",
        "Pat gave Lance to Sister Ama",
        "Pat added Sister Ama to Iron Sepulchre",
    ]
    # Removed outright: her Injury goes with her, her Lance to the Arsenal, and she leaves last.
    with pghistory.context(user=player.pk):
        Fighter.objects.filter(pk=ama.pk).delete()
    removed = sentences(campaign, warband_id=warband.pk)
    assert removed[0] == "Pat removed Sister Ama from Iron Sepulchre"
    # The fixture's warband was founded in the same moment, before anyone joined it.
    assert removed[-2:] == [
        "Pat added Sister Ama to Iron Sepulchre",
        "The warband Iron Sepulchre (Trench Pilgrims) was founded",
    ]


def test_a_warband_is_founded_before_its_fighters_join_in_the_same_moment(campaign, player):
    band = services.warband_create(campaign=campaign, owner=player, by=player, name="Grey Wardens")
    services.fighter_create(warband=band, by=player, name="Warden Ivo")
    assert sentences(campaign, warband_id=band.pk) == [
        "Pat added Warden Ivo to Grey Wardens",
        "Pat founded the warband Grey Wardens",
    ]


def test_keyset_pages_inside_one_moment_cover_every_table_once_in_order(campaign, warband, player):
    for name in ("Ama", "Bo", "Cy"):
        fighter = services.fighter_create(warband=warband, by=player, name=name)
        services.item_create(warband=warband, fighter=fighter, name=f"{name}'s Lance", by=player)
        services.fighter_adjust_xp(fighter=fighter, delta=1, by=player)
    keys = [entry.key for entry in history_page(campaign=campaign).entries]
    for size in (1, 2, 4):
        seen, before = [], None
        while True:
            page = history_page(campaign=campaign, before=before, limit=size)
            seen += [entry.key for entry in page.entries]
            if page.older is None:
                break
            before = page.older
        assert seen == keys
    cursors = [Cursor.decode(key) for key in keys]
    assert cursors == sorted(cursors, reverse=True)


def test_iter_history_reads_every_page(campaign, warband):
    for n in range(12):
        Fighter.objects.create(warband=warband, name=f"Recruit {n}")
    names = [c.text for e in iter_history(campaign=campaign, chunk=5) for c in e.changes]
    assert sum("Recruit" in n for n in names) == 12


def test_a_deleted_fighter_keeps_its_name_in_the_history(campaign, warband, marcus, player):
    services.injury_add(fighter=marcus, by=player, code="14", name="Hand Wound")
    Fighter.objects.filter(pk=marcus.pk).delete()
    found = sentences(campaign)
    assert "Brother Marcus suffered Hand Wound — by Pat" in found
    assert "Pat removed Brother Marcus from Iron Sepulchre" in found


# -- the in-game tracker: a battle report, one sentence per action ---------------------------------------------
#
# The board is played through combat's own tracker functions (its public names), so the events are exactly the
# ones the tracker writes. The crews are the seed's (000 "Damage Examples"): Pat's Brick, a Champion with
# Endurance 6; Bob's Fidus (Endurance 3, Health 1), Double-Joe (Intelligence 5), Mags (a Champion) and Kit.


@pytest.fixture
def board(campaign, warband, rival_warband, make_fighter, organiser):
    from combat.services.tracker import tracker_start

    campaign.preset = "fallout_factions"
    campaign.save(update_fields=["preset"])
    game = services.game_start(
        campaign=campaign,
        by=organiser,
        played_on=dt.date(2026, 6, 1),
        warbands=[warband, rival_warband],
        scenario="Bridge",
    )
    fighters = {
        "Brick": make_fighter(warband, "Brick", champion=True, endurance=6, health=3, strength=7),
        "Fidus": make_fighter(rival_warband, "Fidus", endurance=3, health=1),
        "Double-Joe": make_fighter(rival_warband, "Double-Joe", endurance=4, health=2, intelligence=5),
        "Mags": make_fighter(rival_warband, "Mags", champion=True, endurance=5, health=2, intelligence=6),
        "Kit": make_fighter(rival_warband, "Kit", endurance=4, health=1, intelligence=4),
    }
    tracker_start(game=game, by=organiser)
    return Board(game, fighters)


class Board:
    def __init__(self, game, fighters):
        self.game, self.fighters = game, fighters

    def __getitem__(self, name):
        return self.fighters[name]

    @property
    def version(self) -> int:
        from combat.models import TrackerGame

        return TrackerGame.objects.get(game=self.game).version

    def tracked(self, name):
        from combat.models import TrackerFighter

        return TrackerFighter.objects.get(tracker__game=self.game, fighter=self.fighters[name])

    def attack(self, attacker, target, faces, by, dice=None, stat=7):
        from combat.selectors import AttackTest
        from combat.services.tracker import tracker_roll_attack

        test = AttackTest(dice=dice or len(faces), stat=stat, attacker=self.tracked(attacker))
        return tracker_roll_attack(
            game=self.game, target_id=self[target].pk, attack=test, faces=faces, by=by, version=self.version
        )

    def damage(self, target, amount, by):
        from combat.services.tracker import tracker_apply_damage

        return tracker_apply_damage(
            game=self.game, target_id=self[target].pk, damage=amount, by=by, version=self.version
        )

    def friends(self, names, by):
        from combat.services.tracker import tracker_mark_friends

        ids = [self[name].pk for name in names]
        return tracker_mark_friends(game=self.game, friend_ids=ids, by=by, version=self.version)

    def confusion(self, name, faces, by):
        from combat.services.tracker import tracker_confusion_test

        return tracker_confusion_test(
            game=self.game, friend_id=self[name].pk, faces=faces, by=by, version=self.version
        )

    def choose(self, choice, by):
        from combat.services.tracker import tracker_confusion_choose

        return tracker_confusion_choose(game=self.game, choice=choice, by=by, version=self.version)

    def fatigue(self, name, change, by):
        from combat.services.tracker import tracker_adjust_fatigue

        return tracker_adjust_fatigue(
            game=self.game, target_id=self[name].pk, change=change, by=by, version=self.version
        )


def in_game(campaign, **filters) -> list[str]:
    return sentences(campaign, kind="ingame", **filters)


def test_the_board_set_up_is_told_with_who_set_it_up(campaign, board):
    assert in_game(campaign) == ["Game 1 began on the tracker (board set up by Olga)"]


def test_an_attack_says_who_hit_whom_for_how_much_what_it_did_and_the_dice(campaign, board, player):
    # 000 "Damage Examples": Brick scores 4 Hits on Fidus; Damage 4 ≥ Endurance 3 is an Injury, which reaches
    # Fidus's Health of 1, so Fidus is Incapacitated and the Harm is moot (RULINGS D-3, D-8).
    board.attack("Brick", "Fidus", [2, 7, 5, 1], by=player)
    assert in_game(campaign)[0] == (
        "Brick hit Fidus for 4 Damage: an Injury — Fidus is Incapacitated "
        "(Pat, on the tracker in Game 1; 2, 7, 5, 1 entered from the table)"
    )


def test_an_attack_with_no_hit_says_it_missed(campaign, board, player):
    board.attack("Brick", "Mags", [9, 10], by=player)
    assert in_game(campaign)[0] == (
        "Brick's attack on Mags missed: no Hit (Pat, on the tracker in Game 1; 9, 10 entered from the table)"
    )


def test_damage_counted_at_the_table_says_what_it_did_and_who_applied_it(campaign, board, player2):
    board.damage("Brick", 2, by=player2)  # 000 Example two: 2 < Endurance 6, 1 Harm
    assert in_game(campaign)[0] == "Brick took 2 Damage: 1 Harm (Bob, on the tracker in Game 1)"


def test_incapacitating_a_champion_tells_the_harsh_lessons(campaign, board, player, player2):
    board.damage("Mags", 10, by=player)  # ≥ double Endurance 5: Incapacitated (RULING D-1)
    assert in_game(campaign)[0] == (
        "Mags took 10 Damage — Mags is Incapacitated; Harsh Lessons: +1 XP for Heretic Legion "
        "(Pat, on the tracker in Game 1)"
    )


def test_confusion_tests_friends_passed_confused_and_fatigue(campaign, board, player, player2):
    board.damage("Fidus", 4, by=player)
    board.friends(["Double-Joe", "Kit"], by=player2)
    board.confusion("Kit", [2, 9], by=player2)  # 2 ≤ Intelligence 4: a Hit, passed (RULING D-6)
    board.confusion("Double-Joe", [9, 10], by=player2)  # no Hit: Confused
    board.choose("fatigue", by=player2)
    assert in_game(campaign)[:4] == [
        "Double-Joe's Confusion Test: Confused — took 1 Fatigue, now 1 (Bob, on the tracker in Game 1)",
        "Double-Joe's Confusion Test: failed — Confused, to Flee or Take Fatigue "
        "(Bob, on the tracker in Game 1; 9, 10 entered from the table)",
        "Kit's Confusion Test: passed (Bob, on the tracker in Game 1; 2, 9 entered from the table)",
        'Double-Joe and Kit within 3" of Fidus: Confusion Tests (2I) (Bob, on the tracker in Game 1)',
    ]


def test_a_confused_model_that_cannot_take_fatigue_flees(campaign, board, player, player2):
    board.fatigue("Kit", 1, by=player2)
    board.fatigue("Kit", 1, by=player2)
    board.damage("Fidus", 4, by=player)
    board.friends(["Kit"], by=player2)
    board.confusion("Kit", [9, 9], by=player2)  # RULING D-7: at 2 Fatigue it must Flee
    found = in_game(campaign)
    assert found[0] == (
        "Kit's Confusion Test: Fled — Exhausted, it could not Take Fatigue "
        "(Bob, on the tracker in Game 1; 9, 9 entered from the table)"
    )
    assert "Kit took 1 Fatigue, now 2 (Exhausted) (Bob, on the tracker in Game 1)" in found
    assert "Kit took 1 Fatigue, now 1 (Bob, on the tracker in Game 1)" in found


def test_a_confused_model_that_chooses_to_flee(campaign, board, player, player2):
    board.damage("Fidus", 4, by=player)
    board.friends(["Kit"], by=player2)
    board.confusion("Kit", [9, 9], by=player2)
    board.choose("flee", by=player2)
    assert in_game(campaign)[0] == (
        "Kit's Confusion Test: Confused — Fled, out of play but not Out of Action (Bob, on the tracker in Game 1)"
    )


def test_no_friend_within_3_inches(campaign, board, player, player2):
    board.damage("Fidus", 4, by=player)
    board.friends([], by=player2)
    assert in_game(campaign)[0] == (
        'No friend was within 3" of Fidus: no Confusion Test (Bob, on the tracker in Game 1)'
    )


def test_fatigue_removed_and_harm_recovered(campaign, board, player, player2):
    from combat.services.tracker import tracker_recover_harm

    board.fatigue("Brick", 1, by=player)
    board.fatigue("Brick", -1, by=player)
    board.damage("Brick", 2, by=player2)
    tracker_recover_harm(game=board.game, target_id=board["Brick"].pk, by=player, version=board.version)
    assert in_game(campaign)[:3] == [
        "Brick Recovered 1 Harm, now 0 (Pat, on the tracker in Game 1)",
        "Brick took 2 Damage: 1 Harm (Bob, on the tracker in Game 1)",
        "Brick lost 1 Fatigue, now 0 (Pat, on the tracker in Game 1)",
    ]


def test_an_undone_action_reads_as_undone_and_the_undo_says_who(campaign, board, organiser, player2):
    from combat.services.tracker import tracker_undo

    board.damage("Brick", 7, by=player2)  # ≥ Endurance 6: an Injury and 1 Harm
    tracker_undo(game=board.game, by=organiser, version=board.version)
    page = history_page(campaign=campaign, filters=HistoryFilter(campaign_id=campaign.pk, kind="ingame"))
    undo, undone = (entry.changes[0] for entry in page.entries[:2])
    assert (
        undo.sentence == "Olga undid “Brick took 7 Damage: an Injury and 1 Harm” (on the tracker in Game 1)"
    )
    assert undo.undone == ""
    assert undone.sentence == "Brick took 7 Damage: an Injury and 1 Harm (Bob, on the tracker in Game 1)"
    assert undone.undone == "undone by Olga"
    assert undone.told.endswith("[undone by Olga]")


def test_the_end_of_the_game_names_the_fallen_and_the_harsh_lessons(
    campaign, board, organiser, player, player2
):
    from combat.services.tracker import tracker_end_game

    board.attack("Brick", "Fidus", [2, 7, 5, 1], by=player)
    board.friends([], by=player2)
    board.damage("Mags", 10, by=player)
    board.friends([], by=player2)
    results = {
        entry.pk: "win" if entry.warband.owner == player else "loss" for entry in board.game.players.all()
    }
    tracker_end_game(game=board.game, results=results, by=organiser, version=board.version)
    assert in_game(campaign)[0] == (
        "End of Game 1: Fidus and Mags taken Out of Action; Harsh Lessons: +1 crew XP for Heretic Legion "
        "(Olga, on the tracker)"
    )


def test_tracker_sentences_are_grouped_under_their_game_and_filtered_by_fighter(
    campaign, board, warband, player, player2
):
    board.attack("Brick", "Fidus", [2, 7, 5, 1], by=player)
    board.friends(["Kit"], by=player2)
    board.confusion("Kit", [2, 9], by=player2)
    page = history_page(campaign=campaign, filters=HistoryFilter(campaign_id=campaign.pk, kind="ingame"))
    (group,) = group_by_game(page.entries)
    assert group.game.title == "Game 1"
    assert group.game.scenario == "Bridge"
    # The attacker's, the target's and the tested friend's own stories each hold their part.
    assert [s.split(" (")[0] for s in in_game(campaign, fighter_id=board["Brick"].pk)] == [
        "Brick hit Fidus for 4 Damage: an Injury — Fidus is Incapacitated",
        "Game 1 began on the tracker",
    ]
    assert any(s.startswith("Brick hit Fidus") for s in in_game(campaign, fighter_id=board["Fidus"].pk))
    kit = in_game(campaign, fighter_id=board["Kit"].pk)
    assert kit[0].startswith("Kit's Confusion Test: passed")
    assert not any("Brick hit" in s for s in kit)
    # A warband's story holds the battle report of each game it played.
    assert len(in_game(campaign, warband_id=warband.pk)) == len(in_game(campaign)) == 4
    # Other kinds of change leave the board out.
    assert not any("on the tracker" in s for s in sentences(campaign, kind="games"))


def test_an_attack_logged_before_the_context_named_the_damage_reads_from_its_roll(campaign, board, player):
    from pghistory.models import Context

    action = board.attack("Brick", "Fidus", [2, 7, 5, 1], by=player)
    # Older tracker events have no `damage` or `attacker` in their context: the attacker is the roll's fighter.
    for context in Context.objects.filter(metadata__action="tracker.attack"):
        context.metadata = {k: v for k, v in context.metadata.items() if k not in ("damage", "attacker")}
        context.save()
    assert action.rolls
    assert in_game(campaign)[0].startswith("Brick hit Fidus: an Injury — Fidus is Incapacitated (Pat,")


# -- a post-game's results, as its Apply stored them -----------------------------------------------------------


def _post_game(campaign, warband, rival_warband, fighter, by, *, faces, ransom=None):
    from combat.services.post_game import (
        post_game_answer_ransom,
        post_game_apply,
        post_game_roll,
        post_game_set_out_of_action,
    )

    game = services.game_record(
        campaign=campaign,
        by=by,
        played_on=dt.date(2026, 5, 1),
        entries=[
            services.GameEntry(warband=warband, result="loss", out_of_action=[fighter]),
            services.GameEntry(warband=rival_warband, result="win"),
        ],
    )
    entry = GamePlayer.objects.get(game=game, warband=warband)
    post_game_set_out_of_action(player=entry, fighter_ids=[fighter.pk], by=by)
    post_game_roll(player=entry, fighter_id=fighter.pk, purpose="trauma", sequence=1, faces=faces, by=by)
    if ransom is not None:
        post_game_answer_ransom(player=entry, fighter_id=fighter.pk, paid=True, ransom=ransom, by=by)
    post_game_apply(player=entry, by=by)
    return game


def test_a_post_game_tells_each_trauma_result_with_its_dice(campaign, warband, rival_warband, marcus, player):
    _post_game(campaign, warband, rival_warband, marcus, player, faces=[1, 4])
    found = sentences(campaign, kind="games")
    index = found.index("Iron Sepulchre finished its post-game of Game 1 — by Pat")
    assert found[index + 1].startswith("Brother Marcus: D66 14, Hand Wound — Battle Scar 1 of 3; ")
    assert found[index + 1].endswith(" — post-game of Game 1, entered by Pat from the table")


def test_a_ransom_without_its_context_reads_the_reason_the_apply_stored(
    campaign, warband, rival_warband, marcus, player
):
    from pghistory.models import Context

    _post_game(campaign, warband, rival_warband, marcus, player, faces=[1, 2], ransom=15)
    # Older applies have no `ransoms` in their context: the Apply's own summary still says why.
    for context in Context.objects.filter(metadata__action="post_game.apply"):
        context.metadata = {k: v for k, v in context.metadata.items() if k != "ransoms"}
        context.save()
    found = sentences(campaign, kind="strongbox")
    assert (
        "Iron Sepulchre: Strongbox 50 → 35 ducats (ransom paid, 15 ducats) — post-game of Game 1, "
        "entered by Pat from the table" in found
    )
    assert any(
        s.startswith("Heretic Legion: Strongbox 30 → 45 ducats (ransom received from Iron Sepulchre)")
        for s in found
    )
    assert any(s.startswith("Brother Marcus: D66 12, Captured, ransom paid") for s in sentences(campaign))


def test_a_game_started_for_the_tracker_reads_as_started(campaign, board):
    found = sentences(campaign, kind="games")
    assert "Olga started Game 1 (Bridge)" in found
    assert "Iron Sepulchre takes part in Game 1 — by Olga" in found
