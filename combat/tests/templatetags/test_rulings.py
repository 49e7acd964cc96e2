"""Rulings as links: "RULING T-4" becomes the ruling's name linked to the rules page."""

import pytest
from django.template import Context, Template

from combat.templatetags.rulings import ruling_link, with_rulings


def test_one_citation_becomes_the_rulings_linked_name():
    html = with_rulings("A D6 for each Troop (RULING T-2).")
    assert (
        html
        == 'A D6 for each Troop (<a class="ruling" href="/rules/#ruling-T-2">a Troop&#x27;s Survival Roll</a>).'
    )
    assert "RULING" not in html


def test_several_ids_after_one_word_each_become_a_link():
    html = with_rulings("Confusion (RULINGS D-6, D-7 and D-9).")
    assert html.count('class="ruling"') == 3
    assert "#ruling-D-6" in html
    assert "#ruling-D-9" in html
    assert ", " in html
    assert " and " in html
    assert "D-7<" not in html


def test_the_text_around_is_escaped():
    html = with_rulings("<script>alert(1)</script> RULING T-1")
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert "Troops roll first</a>" in html


def test_an_id_no_ruling_has_stays_text():
    assert with_rulings("RULING Q-1") == "RULING Q-1"
    assert ruling_link("Q-1") == "Q-1"


def test_text_without_a_citation_is_only_escaped():
    assert with_rulings("Ducats & Glory") == "Ducats &amp; Glory"


@pytest.mark.parametrize("ruling_id", ["T-4", "A-5", "P-4", "W-2"])
def test_the_tag_links_a_ruling_by_id(ruling_id):
    html = Template("{% ruling_link rid %}").render(Context({"rid": ruling_id}))
    assert f'href="/rules/#ruling-{ruling_id}"' in html


def test_the_filter_is_a_builtin_so_every_template_has_it():
    html = Template("{{ text|with_rulings }}").render(Context({"text": "Shooting (RULING A-5)"}))
    assert "the timing of shooting damage</a>" in html


@pytest.mark.django_db
def test_the_sites_messages_show_rulings_by_name(client, player):
    from django.contrib.messages import constants
    from django.contrib.messages.storage.cookie import CookieStorage
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    storage = CookieStorage(request)
    storage.add(constants.INFO, "Roll the Troops first (RULING T-1).")
    client.force_login(player)
    client.cookies[storage.cookie_name] = storage._encode([*storage._queued_messages])
    html = client.get("/").content.decode()
    assert "Troops roll first</a>" in html
    assert "RULING T-1" not in html
