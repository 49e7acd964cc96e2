"""The words a campaign's pages use, by rules preset (docs/architecture.md: "the game's own words per preset").

Templates never spell "ELITE" or "ducats" themselves: they read `terms.elite`, `terms.currency`, ... from the
`terms` a view passes (`terms_for(campaign.preset)`, or `campaign.terms`). One preset per campaign decides.

    {{ terms.elite }}       ELITE          | Champion      (the fighters the Trauma Table and Harsh Lessons name)
    {{ terms.troop }}       Troop          | Grunt
    {{ terms.currency }}    ducats         | caps
    {{ terms.strongbox }}   Strongbox      | Stash         (where the warband's money is kept)
    {{ terms.battlekit }}   Battlekit      | Equipment
    {{ terms.arsenal }}     Arsenal        | Stash         (Battlekit that no fighter holds)
    {{ terms.glory }}       Glory          | Glory
    {{ terms.warband }}     warband        | crew
    {{ terms.warbands }}    warbands       | crews
    {{ terms.warband_title }} Warband      | Crew
    {{ terms.profile }}     the fighter profile the preset names (campaigns/profiles.py)
"""

from dataclasses import dataclass

from campaigns.profiles import Profile, profile_for

TRENCH_CRUSADE = "trench_crusade"
FALLOUT_FACTIONS = "fallout_factions"


@dataclass(frozen=True)
class Terms:
    preset: str
    game: str
    elite: str
    troop: str
    currency: str
    strongbox: str
    battlekit: str
    arsenal: str
    glory: str
    warband: str
    warbands: str

    @property
    def warband_title(self) -> str:
        """ "Warband" / "Crew", for the start of a sentence or a heading."""
        return self.warband[:1].upper() + self.warband[1:]

    @property
    def profile(self) -> Profile:
        """The stats a fighter of this preset has (Movement, Ranged, Melee, ... or S.P.E.C.I.A.L.)."""
        return profile_for(self.preset)


PRESET_TERMS: dict[str, Terms] = {
    TRENCH_CRUSADE: Terms(
        preset=TRENCH_CRUSADE,
        game="Trench Crusade",
        elite="ELITE",
        troop="Troop",
        currency="ducats",
        strongbox="Strongbox",
        battlekit="Battlekit",
        arsenal="Arsenal",
        glory="Glory",
        warband="warband",
        warbands="warbands",
    ),
    FALLOUT_FACTIONS: Terms(
        preset=FALLOUT_FACTIONS,
        game="Fallout: Factions",
        elite="Champion",
        troop="Grunt",
        currency="caps",
        strongbox="Stash",
        battlekit="Equipment",
        arsenal="Stash",
        glory="Glory",
        warband="crew",
        warbands="crews",
    ),
}

DEFAULT_TERMS = PRESET_TERMS[TRENCH_CRUSADE]


def terms_for(preset: str | None) -> Terms:
    """The words of a preset; an unknown or empty preset reads as Trench Crusade, the default preset."""
    return PRESET_TERMS.get(preset or TRENCH_CRUSADE, DEFAULT_TERMS)
