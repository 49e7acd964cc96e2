"""How the engine writes a name into its sentences (pure Python, so every app and template calls this one)."""


def possessive(name) -> str:
    """A name with its possessive: "Brother Marcus'", "Pilgrims'", "Fidus'", "Pat's" (a name that ends in s takes
    only the apostrophe, never "Marcus's")."""
    text = str(name)
    if not text:
        return text
    return f"{text}'" if text[-1] in "sS" else f"{text}'s"
