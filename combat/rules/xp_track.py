"""The XP track of a printed fighter card: tick boxes up to the next Skill Advancement thresholds.

CAMPAIGN_PHASE.md, "Experience and Advancement": "Reaching 2, 4, 7, 10, 14 and 18 XP each gives one Skill
Advancement Roll." A card printed for the table shows a box per XP, the ones the fighter has ticked, and marks the
boxes that reach a threshold, so a player ticks XP with a pencil and sees when a Skill Advancement Roll is due.
"""

from __future__ import annotations

from dataclasses import dataclass

from .campaign_advancement import ADVANCEMENT_XP

__all__ = ["XP_TRACK_AHEAD", "XP_TRACK_MOST", "XpBox", "xp_track"]

# The track runs to the second threshold above the fighter's XP (two Skill Advancement Rolls to aim for) ...
XP_TRACK_AHEAD = 2
# ... and never past this many boxes: past 18 XP no threshold is left, and a card has room for a row or two.
XP_TRACK_MOST = 24


@dataclass(frozen=True, slots=True)
class XpBox:
    """One box of the track: the XP it stands for, whether it is ticked, whether reaching it gives a roll."""

    xp: int
    ticked: bool
    threshold: bool


def xp_track(xp: int, *, ahead: int = XP_TRACK_AHEAD) -> tuple[XpBox, ...]:
    """The boxes of a card's XP track for a fighter with `xp` XP.

    Boxes 1..n, where n is the `ahead`-th threshold above `xp` (fewer when fewer are left: the last threshold,
    18, then a few boxes past the XP), capped at XP_TRACK_MOST; boxes up to `xp` are ticked. A fighter whose XP
    passes the cap gets a full track of ticked boxes: the card prints the number beside it.
    """
    if xp < 0:
        raise ValueError(f"XP cannot be negative: {xp}")
    above = [t for t in ADVANCEMENT_XP if t > xp]
    last = above[min(ahead, len(above)) - 1] if above else xp + ahead
    count = min(max(last, ADVANCEMENT_XP[0]), XP_TRACK_MOST)
    thresholds = frozenset(ADVANCEMENT_XP)
    return tuple(XpBox(xp=n, ticked=n <= xp, threshold=n in thresholds) for n in range(1, count + 1))
