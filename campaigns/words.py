"""How the names of warbands, fighters and players are written into English sentences.

The one `possessive` is the engine's (`combat.rules.words`, pure Python, which every app may call): the rules'
own sentences ("Brother Marcus' Confusion Test") and the apps' ("Pilgrims' Strongbox") read alike.
"""

from combat.rules.words import possessive

__all__ = ["possessive"]
