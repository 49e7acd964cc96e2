"""The roster's reads: active and removed fighters, ELITE first."""

import pytest

from rosters.selectors import roster as roster_selectors

pytestmark = pytest.mark.django_db


def test_the_roster_splits_active_and_removed_fighters_elite_first(warband, make_fighter, played):
    roster = roster_selectors.warband_roster(warband=warband)
    assert [f.name for f in roster.fighters] == ["Brother Anselm", "Pilgrim Odo"]
    assert [f.name for f in roster.removed] == ["Fallen Pilgrim"]
    assert roster.total_xp == 7
    assert [p.game.number for p in roster.waiting] == [1, 2]


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
    roster_selectors.stat_lines(fighter, terms.profile)
    context = {"fighter": fighter, "terms": terms}
    assert engine.from_string(STAT_LINES_NOW).render(context) == engine.from_string(
        STAT_LINES_AS_DRAWN
    ).render(context)
