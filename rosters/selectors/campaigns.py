"""The campaign page: members, warbands with headline numbers, games, standings."""

from dataclasses import dataclass

from campaigns.models import Campaign, Game, Membership
from campaigns.terms import Terms
from rosters.models import Warband
from rosters.selectors.common import games_with_players, warbands_with_headlines


@dataclass
class CampaignPage:
    campaign: Campaign
    terms: Terms
    members: list[Membership]
    warbands: list[Warband]
    games: list[Game]

    @property
    def invitation_folded(self) -> bool:
        """The organiser's invitation box folds away once the group is in: someone besides the organisers has
        joined and every player has a warband (issue 16)."""
        others = [m for m in self.members if m.role != Membership.Role.ORGANISER]
        owners = {warband.owner_id for warband in self.warbands}
        players = [m for m in self.members if m.role == Membership.Role.PLAYER]
        return bool(others) and all(m.user_id in owners for m in players)

    @property
    def joined(self) -> int:
        """Members who joined through the invitation (everyone but the organisers)."""
        return sum(1 for m in self.members if m.role != Membership.Role.ORGANISER)

    @property
    def standings(self) -> list[Warband]:
        """Most wins first, then draws, fewest losses, Glory; warbands that have not played yet come last."""
        return sorted(
            self.warbands,
            key=lambda w: (-(w.games_played > 0), -w.wins, -w.draws, w.losses, -w.glory, w.name.lower()),
        )


def campaign_page(*, campaign: Campaign) -> CampaignPage:
    """The campaign page: members, warbands with headline numbers, games with their warbands, standings."""
    members = list(Membership.objects.filter(campaign=campaign).select_related("user").order_by("joined_at"))
    warbands = list(
        warbands_with_headlines(Warband.objects.filter(campaign=campaign).select_related("owner")).order_by(
            "name", "id"
        )
    )
    games = list(games_with_players(Game.objects.filter(campaign=campaign)).order_by("-number"))
    return CampaignPage(
        campaign=campaign, terms=campaign.terms, members=members, warbands=warbands, games=games
    )
