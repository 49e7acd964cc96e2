"""Who may see and change a warband or a fighter.

Members of the warband's campaign read it; its owner, while a player, and the campaign's organiser change it;
outsiders get 404. An owner made spectator reads only: the warband waits for a player, and its owner changes it
again once made a player again (docs/architecture.md, "Who may do what").
"""

from django.core.exceptions import PermissionDenied
from django.http import Http404

from campaigns.access import membership_of
from campaigns.models import Membership
from rosters.models import Fighter, Injury, Item, Skill, Warband
from rosters.selectors import fighters as fighter_selectors
from rosters.selectors import roster_reader


def can_change_warband(membership: Membership | None, warband: Warband) -> bool:
    """The organiser, or the warband's owner while a player: a spectator reads only, whatever they own."""
    if membership is None:
        return False
    if membership.role == Membership.Role.ORGANISER:
        return True
    return membership.role == Membership.Role.PLAYER and warband.owner_id == membership.user_id


def get_warband_for_user(user, warband_id: int, *, write: bool = False) -> tuple[Warband, Membership]:
    warband = Warband.objects.select_related("campaign", "owner").filter(pk=warband_id).first()
    if warband is None:
        raise Http404("No such warband.")
    membership = membership_of(user, warband.campaign)
    if membership is None:
        raise Http404("No such warband.")
    if write and not can_change_warband(membership, warband):
        raise PermissionDenied(
            "Only the warband's owner, while a player, or the campaign's organiser can change it."
        )
    return warband, membership


def get_roster_for_user(user, warband_id: int, *, all_rows: bool = False):
    """The roster page's reads (`rosters.selectors.roster.Roster`: the warband with its campaign and owner, the digest)
    and the user's membership, in one query; 404 as `get_warband_for_user` answers it, for no such warband or an
    outsider."""
    read = roster_reader.roster_for_reader(warband_id=warband_id, reader_id=user.pk, all_rows=all_rows)
    if read is None or read[1] is None:
        raise Http404("No such warband.")
    return read


def get_fighter_for_user(user, fighter_id: int, *, write: bool = False) -> tuple[Fighter, Membership]:
    fighter = (
        Fighter.objects.select_related("warband__campaign", "warband__owner").filter(pk=fighter_id).first()
    )
    if fighter is None:
        raise Http404("No such fighter.")
    membership = membership_of(user, fighter.warband.campaign)
    if membership is None:
        raise Http404("No such fighter.")
    if write and not can_change_warband(membership, fighter.warband):
        raise PermissionDenied(
            "Only the warband's owner, while a player, or the campaign's organiser can change this fighter."
        )
    return fighter, membership


def get_card_for_user(user, fighter_id: int):
    """A fighter's card (`fighter_selectors.FighterCard`: the fighter with its warband, campaign and owner, the
    card's digest) and the user's membership, in one query; 404 as `get_fighter_for_user` answers it, for no such
    fighter or an outsider."""
    read = fighter_selectors.card_for_reader(fighter_id=fighter_id, reader_id=user.pk)
    if read is None or read[1] is None:
        raise Http404("No such fighter.")
    return read


def get_injury_for_user(user, injury_id: int, *, write: bool = False) -> tuple[Injury, Fighter]:
    """An Injury and its fighter, with the fighter's access rules (404 / 403)."""
    injury = Injury.objects.filter(pk=injury_id).first()
    if injury is None:
        raise Http404("No such Injury.")
    fighter, _membership = get_fighter_for_user(user, injury.fighter_id, write=write)
    return injury, fighter


def get_skill_for_user(user, skill_id: int, *, write: bool = False) -> tuple[Skill, Fighter]:
    """A skill and its fighter, with the fighter's access rules (404 / 403)."""
    skill = Skill.objects.filter(pk=skill_id).first()
    if skill is None:
        raise Http404("No such skill.")
    fighter, _membership = get_fighter_for_user(user, skill.fighter_id, write=write)
    return skill, fighter


def get_item_for_user(user, item_id: int, *, write: bool = False) -> tuple[Item, Membership]:
    """A piece of Battlekit and the user's membership, with its warband's access rules (404 / 403)."""
    item = Item.objects.select_related("fighter").filter(pk=item_id).first()
    if item is None:
        raise Http404("No such Battlekit.")
    warband, membership = get_warband_for_user(user, item.warband_id, write=write)
    item.warband = warband
    return item, membership
