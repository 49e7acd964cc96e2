"""The rules page: every ruling by name and plain sentence, at an anchor the links point at."""

import pytest

from combat import rules

pytestmark = pytest.mark.django_db


def test_anyone_reads_every_ruling_by_name_with_its_sentence(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/rules/")
    assert response.status_code == 200
    html = response.content.decode()
    for ruling_id in [*rules.RULINGS, *rules.CAMPAIGN_RULINGS]:
        assert f'id="ruling-{ruling_id}"' in html
    assert "<dt>Battle Scars and Unfit For Duty</dt>" in html
    assert "Each time Out of Action an ELITE model gains a Battle Scar" in html
    assert '<h2 id="source-4-title">Trench Crusade, the Trauma Step</h2>' in html


def test_the_page_shows_no_internal_id_as_text(client):
    html = client.get("/rules/").content.decode()
    text = html.split("<main", 1)[1].split("</main>", 1)[0]
    visible = "".join(part.split(">", 1)[-1] for part in text.split("<"))
    assert "RULING" not in visible
    assert "T-4" not in visible
    assert "003" not in visible


def test_every_page_links_the_rules_page(client, player):
    client.force_login(player)
    assert 'href="/rules/">How the rules are read</a>' in client.get("/").content.decode()


def test_the_rules_page_only_answers_get(client):
    assert client.post("/rules/").status_code == 405
