"""The rules page at `/rules/`: every ruling the tool applies, by the rules text it reads, each with its name and
its one plain sentence. Pure data from `combat.rules`: no query."""

from __future__ import annotations

from dataclasses import dataclass

from combat import rules


@dataclass(frozen=True)
class RulingLine:
    id: str
    title: str
    sentence: str

    @property
    def anchor(self) -> str:
        return f"ruling-{self.id}"


@dataclass(frozen=True)
class RulesSection:
    source: str
    rulings: tuple[RulingLine, ...]


def ruling_sentence(ruling_id: str) -> str:
    """The plain sentence of any ruling, of the game or of the campaign phase (`ValueError` for an unknown id)."""
    if ruling_id in rules.RULINGS:
        return rules.ruling(ruling_id)
    return rules.campaign_ruling(ruling_id)


def rules_page() -> tuple[RulesSection, ...]:
    """Every ruling, grouped by the rules text it reads, in the order RULINGS.md gives them."""
    ids = [*rules.RULINGS, *rules.CAMPAIGN_RULINGS]
    sections: dict[str, list[RulingLine]] = {}
    for ruling_id in ids:
        line = RulingLine(ruling_id, rules.ruling_title(ruling_id), ruling_sentence(ruling_id))
        sections.setdefault(rules.ruling_source(ruling_id), []).append(line)
    return tuple(RulesSection(source, tuple(lines)) for source, lines in sections.items())
