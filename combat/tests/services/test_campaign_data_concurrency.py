"""Two organisers saving the same list at once, in real threads with their own connections: the campaign row is
locked for each save (combat/services/campaign_data.py), so they make v1 and v2, never two v1 nor an error."""

import threading

import pytest
from django.db import connections

from campaigns.models import Membership
from combat.models import CampaignDataSet
from combat.services.campaign_data import campaign_data_save

pytestmark = pytest.mark.django_db(transaction=True)

RANGED = "skill_chart:ranged"


def test_two_saves_at_once_make_two_versions(campaign, organiser, player2):
    Membership.objects.filter(campaign=campaign, user=player2).update(role=Membership.Role.ORGANISER)
    barrier = threading.Barrier(2)
    errors = []

    def save(by, roll):
        try:
            barrier.wait(timeout=10)
            rows = [{"roll": roll, "code": f"skill_{roll}", "name": f"Skill {roll}"}]
            campaign_data_save(campaign=campaign, kind=RANGED, rows=rows, by=by)
        except Exception as error:  # reported in the test thread below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=save, args=args) for args in ((organiser, 2), (player2, 3))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert not errors, errors
    saved = list(CampaignDataSet.objects.filter(kind=RANGED).order_by("version"))
    assert [data_set.version for data_set in saved] == [1, 2]
    assert {data_set.rows[0]["roll"] for data_set in saved} == {2, 3}
