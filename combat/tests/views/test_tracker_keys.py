"""A tap queued offline, sent through the board's own endpoints with its key: a repeat is answered like
the first and applied once; a key too long is refused by the form, and nothing changes."""

import threading

import pytest
from django.db import connections
from django.test import Client

from combat.models import TrackerAction, TrackerActionKey
from combat.models.tracker import ACTION_KEY_LENGTH
from combat.tests.tracker_helpers import events_of, target_url, text

pytestmark = pytest.mark.django_db

CARD = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": ""}


def _card(table, name):
    return {**CARD, "HTTP_HX_TARGET": f"fighter-{table[name].pk}"}


@pytest.mark.parametrize(
    ("rest", "fields"),
    [
        ("harm/", {}),
        ("injury/", {}),
        ("fatigue/", {"change": 1}),
        ("damage/", {"damage": 1, "from": "board"}),
    ],
)
def test_the_same_queued_tap_sent_twice_is_applied_once(client, table, player, rest, fields):
    client.force_login(player)
    data = {"version": 0, "key": "5b0e-1", "batch": "queue-1", **fields}
    first = client.post(target_url(table, "Vera", rest), data, **_card(table, "Vera"))
    again = client.post(target_url(table, "Vera", rest), data, **_card(table, "Vera"))
    assert first.status_code == again.status_code == 200
    assert f'id="fighter-{table["Vera"].pk}"' in text(again)
    assert TrackerAction.objects.filter(tracker__game=table.game).count() == 1
    assert table.version == 1
    assert TrackerActionKey.objects.get(key="5b0e-1").batch == "queue-1"
    assert len(events_of(table.tracked("Vera"))) == 2  # set up, then the one tap


def test_without_javascript_a_repeat_redirects_to_the_board_and_changes_nothing(client, table, player):
    client.force_login(player)
    data = {"version": 0, "key": "k-1"}
    assert client.post(target_url(table, "Brick", "harm/"), data).status_code == 302
    assert client.post(target_url(table, "Brick", "harm/"), data).status_code == 302
    assert table.tracked("Brick").harm == 1


def test_a_key_longer_than_the_model_keeps_is_refused(client, table, player):
    client.force_login(player)
    data = {"version": 0, "key": "k" * (ACTION_KEY_LENGTH + 1)}
    response = client.post(target_url(table, "Brick", "harm/"), data, **_card(table, "Brick"))
    assert response.status_code == 422
    assert table.tracked("Brick").harm == 0
    assert not TrackerActionKey.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_same_key_sent_twice_at_the_same_moment_is_applied_once(table, player):
    """A phone that resends while its first request is still on the way: the second waits for the board's lock,
    then finds the key (keys.replayed locks before it looks)."""
    answers = []
    barrier = threading.Barrier(2)

    def send():
        client = Client()
        client.force_login(player)
        try:
            barrier.wait(timeout=10)
            data = {"version": 0, "key": "twice-at-once", "batch": "q"}
            answers.append(client.post(target_url(table, "Brick", "harm/"), data, **_card(table, "Brick")))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert [answer.status_code for answer in answers] == [200, 200]
    assert TrackerAction.objects.filter(tracker__game=table.game).count() == 1
    assert table.tracked("Brick").harm == 1
