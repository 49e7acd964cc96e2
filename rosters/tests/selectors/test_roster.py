"""The roster's reads: active and removed fighters, ELITE first."""

import pytest

from rosters.selectors import roster as roster_selectors
from rosters.selectors import row_text

pytestmark = pytest.mark.django_db


def test_the_roster_splits_active_and_removed_fighters_elite_first(warband, make_fighter, played):
    roster = roster_selectors.warband_roster(warband=warband)
    assert [f.name for f in roster.fighters] == ["Brother Anselm", "Pilgrim Odo"]
    assert [f.name for f in roster.removed] == ["Fallen Pilgrim"]
    assert roster.total_xp == 7
    assert [p.game.number for p in roster.waiting] == [1, 2]


def test_the_rosters_statements_return_what_the_orm_would(warband, played, player, organiser, campaign):
    from django.db.models import F, Q

    from campaigns.models import Game, GamePlayer
    from rosters.models import Fighter, Item, PriceList
    from rosters.selectors.common import WAITING_POST_GAME
    from rosters.selectors.price_lists import listed
    from rosters.services import battlekit as battlekit_services
    from rosters.services import price_lists as price_list_services

    odo = Fighter.objects.get(warband=warband, name="Pilgrim Odo")
    gone = Fighter.objects.get(warband=warband, name="Fallen Pilgrim")
    battlekit_services.item_create(warband=warband, by=player, name="Relic", keywords=["HOLY"], notes="old")
    battlekit_services.item_create(warband=warband, by=player, name="Axe")
    battlekit_services.item_create(warband=warband, by=player, name="Lance", fighter=odo)
    battlekit_services.item_create(warband=warband, by=player, name="Crown", fighter=odo, removable=False)
    battlekit_services.item_create(warband=warband, by=player, name="Shovel", fighter=played)
    Item.objects.create(warband=warband, fighter=gone, name="Lost Blade")
    roster = roster_selectors.warband_roster(warband=warband)

    rows = Fighter.objects.filter(warband=warband).values_list(*roster_selectors.LineUp._fields)
    assert [tuple(f) for f in roster.line_up] == [
        tuple(f)
        for f in sorted((roster_selectors.LineUp(*row) for row in rows), key=roster_selectors.roster_order)
    ]
    waiting = (
        GamePlayer.objects.filter(warband=warband, post_game__in=WAITING_POST_GAME)
        .exclude(game__status=Game.Status.IN_PROGRESS)
        .order_by("game__number")
    )
    assert [(e.pk, e.post_game, e.game.pk, e.game.number) for e in roster.waiting] == [
        (e.pk, e.post_game, e.game.pk, e.game.number) for e in waiting
    ]
    assert [e.get_post_game_display() for e in roster.waiting] == [e.get_post_game_display() for e in waiting]
    arsenal = Item.objects.filter(warband=warband, fighter__isnull=True).order_by("name", "id")
    fields = [field.attname for field in Item._meta.concrete_fields]
    assert [[getattr(i, name) for name in fields] for i in roster.arsenal] == [
        [getattr(i, name) for name in fields] for i in arsenal
    ]
    assert [i.name for i in roster.arsenal] == ["Axe", "Relic"]
    movable = (
        Item.objects.filter(warband=warband)
        .filter(Q(fighter__isnull=True) | Q(fighter__status=Fighter.Status.ACTIVE, removable=True))
        .order_by(F("fighter__name").asc(nulls_first=True), "name", "id")
        .values_list("pk", "name", "fighter__name")
    )
    assert roster.move_choices == [
        (pk, f"{name} ({holder or roster.terms.arsenal})") for pk, name, holder in movable
    ]
    assert [label for _, label in roster.move_choices] == [
        f"Axe ({roster.terms.arsenal})",
        f"Relic ({roster.terms.arsenal})",
        "Shovel (Brother Anselm)",
        "Lance (Pilgrim Odo)",
    ]

    assert listed(campaign=campaign, kind="battlekit") == []
    for version in ("Lance", "Pike"):
        price_list_services.price_list_save(
            campaign=campaign,
            kind="battlekit",
            rows=[{"name": version, "cost": 10, "keywords": ["HEAVY"], "removable": True}],
            by=organiser,
        )
    newest = PriceList.objects.filter(campaign=campaign, kind="battlekit").order_by("-version")
    assert listed(campaign=campaign, kind="battlekit") == newest.first().rows
    assert listed(campaign=campaign, kind="battlekit")[0]["name"] == "Pike"


def test_the_promotion_tally_is_read_with_the_digest_and_a_dismissed_fighter_is_among_the_removed(
    warband, make_fighter, played, client, player
):
    # RULING P-4: the warband's tally of failed Promotion Dice, across games.
    warband.promotion_tally = 3
    warband.save(update_fields=["promotion_tally"])
    make_fighter(warband, "Sister Ada", elite=True, battle_scars=2, status="dismissed")
    roster = roster_selectors.warband_roster(warband=warband)
    assert roster.summary.promotion_tally == 3
    assert {f.name for f in roster.removed} == {"Fallen Pilgrim", "Sister Ada"}

    client.force_login(player)
    page = client.get(f"/warbands/{warband.pk}/").content.decode()
    assert 'Failed Promotion Dice in a row: <strong class="num">3</strong> of 5' in page
    assert "Dismissed" in page[page.index('id="removed-fighters"') :]


def test_a_row_carries_its_id_as_text_its_elite_badge_and_its_addresses(warband, make_fighter):
    from django.urls import reverse

    champion = make_fighter(warband, "Captain Vey", champion=True)
    roster = roster_selectors.warband_roster(warband=warband)
    rows = {fighter.pk: fighter for fighter in roster.fighters}
    assert champion.pk in rows
    for pk, row in rows.items():
        assert row.fid == str(pk)
        assert row.elite == (row.is_elite or row.champion)
        assert row.card_url == reverse("fighter_detail", args=[pk])
        assert row.xp_url == reverse("fighter_xp", args=[pk])
        assert row.edit_url == reverse("fighter_edit", args=[pk])
    assert rows[champion.pk].elite
    one = roster_selectors.fighter_for_row(fighter_id=champion.pk)
    assert (one.fid, one.card_url) == (str(champion.pk), reverse("fighter_detail", args=[champion.pk]))


# The row's stat lines as the row template drew them before the selector wrote them (templates/rosters/warband.html):
# the selector's text must be the same, byte for byte, in both profiles.
STAT_LINES_AS_DRAWN = (
    "{% if terms.profile.has_endurance %}"
    '<span class="statline">M {{ fighter.movement }}″ · Health {{ fighter.health }}{% if fighter.unit_size > 1 %}'
    ' ×{{ fighter.unit_size }}{% endif %} · Harm Limit {{ fighter.harm_limit|default_if_none:"none" }}</span>'
    "S{{ fighter.strength }} P{{ fighter.perception }} E{{ fighter.endurance }} C{{ fighter.charisma }}"
    " I{{ fighter.intelligence }} A{{ fighter.agility }} L{{ fighter.luck }}"
    "{% else %}"
    '{% for stat in fighter|profile:terms %}<abbr title="{{ stat.label }}">{{ stat.short }}</abbr> {{ stat.value }}'
    "{% if not forloop.last %} · {% endif %}{% endfor %}"
    "{% if fighter.unit_size > 1 %}{{ fighter.unit_size }} models · {{ fighter.health }} Health Point"
    "{{ fighter.health|pluralize }} each{% endif %}"
    "{% endif %}"
)
STAT_LINES_NOW = (
    "{% if terms.profile.has_endurance %}"
    '<span class="statline">{{ fighter.stat_line }}</span>{{ fighter.special_line }}'
    "{% else %}"
    "{{ fighter.profile_line }}{% if fighter.unit_size > 1 %}{{ fighter.models_line }}{% endif %}"
    "{% endif %}"
)


@pytest.mark.parametrize("preset", ["trench_crusade", "fallout_factions"])
@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"unit_size": 3, "health": 1, "harm_limit": None},
        {"unit_size": 2, "health": 2, "harm_limit": 4, "movement": 8, "ranged": 2, "melee": -1, "armour": 1},
        {"strength": 9, "luck": 1, "base_size": 32, "health": 0, "unit_size": 5},
    ],
)
def test_the_stat_lines_written_by_the_selector_are_the_ones_the_template_drew(preset, fields):
    from django.template import engines

    from campaigns.terms import terms_for
    from rosters.models import Fighter

    engine = engines["django"]
    terms = terms_for(preset)
    fighter = Fighter(name="Odo", **fields)
    row_text.stat_lines(fighter, terms.profile)
    context = {"fighter": fighter, "terms": terms}
    assert engine.from_string(STAT_LINES_NOW).render(context) == engine.from_string(
        STAT_LINES_AS_DRAWN
    ).render(context)


# The row's tags as the row template drew them before the selector wrote them (templates/rosters/warband.html).
TAGS_AS_DRAWN = (
    '{% if fighter.skill_list %}<span class="fighter-skills small">Skills: {% for skill in fighter.skill_list %}'
    '<span class="tag"{% if skill.chart %} title="{{ skill.chart }}"{% endif %}>{{ skill.name }}</span>{% endfor %}'
    "</span>{% endif %}|"
    '{% for injury in fighter.injury_list %}<span class="tag" title="{{ injury.effect }}">{{ injury.name }}</span>'
    '{% empty %}<span class="muted">—</span>{% endfor %}|'
    '{% for item in fighter.kit %}<span class="tag"{% if item.notes %} title="{{ item.notes }}"{% endif %}>'
    "{{ item.name }}{% for keyword in item.keywords %} <small>{{ keyword }}</small>{% endfor %}</span>"
    '{% empty %}<span class="muted">—</span>{% endfor %}'
)
TAGS_NOW = "{{ fighter.skills_html }}|{{ fighter.injuries_html }}|{{ fighter.kit_html }}"


@pytest.mark.parametrize(
    ("injuries", "kit", "skills"),
    [
        ([], [], []),
        (
            [{"name": "Head Wound", "effect": "No XP gain"}, {"name": '<Lost> Eye & "Ear"', "effect": ""}],
            [
                {"name": "Bolt Action Rifle", "notes": "", "keywords": []},
                {
                    "name": "Trench Club",
                    "notes": 'it\'s <heavy> & "old"',
                    "keywords": ["TWO-HANDED", "<A&B>"],
                },
            ],
            [{"name": "Sniper", "chart": "Ranged"}, {"name": "Brute & <Co>", "chart": ""}],
        ),
        ([{"name": "Scar", "effect": None}], [{"name": "Knife", "notes": None, "keywords": []}], []),
    ],
)
def test_the_tags_written_by_the_selector_are_the_ones_the_template_drew(injuries, kit, skills):
    from types import SimpleNamespace

    from django.template import engines

    from rosters.models import Fighter

    engine = engines["django"]
    fighter = Fighter(name="Odo")
    fighter.injury_list = [SimpleNamespace(**entry) for entry in injuries]
    fighter.kit = [SimpleNamespace(**entry) for entry in kit]
    fighter.skill_list = [SimpleNamespace(**entry) for entry in skills]
    row_text.tag_lines(fighter)
    context = {"fighter": fighter}
    drawn = engine.from_string("{% load l10n %}{% localize off %}" + TAGS_AS_DRAWN + "{% endlocalize %}")
    assert engine.from_string(TAGS_NOW).render(context) == drawn.render(context)
