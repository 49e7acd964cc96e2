"""How the names of warbands, fighters and players are written into English sentences."""


def possessive(name) -> str:
    """A name with its possessive: "Brother Marcus'", "Pilgrims'", "Pat's" (a name that ends in s takes only the
    apostrophe, as the project writes "Brother Marcus' ransom", never "Marcus's")."""
    text = str(name)
    if not text:
        return text
    return f"{text}'" if text[-1] in "sS" else f"{text}'s"
