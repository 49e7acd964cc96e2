"""The storage shape of a Skill Advancement Roll, shared by the post-game's Advancement step (`PostGameAdvancement`)
and a late joiner's starting XP (`StartingXpAdvancement`).

CAMPAIGN_PHASE.md: "the player picks 2 of the 4 skill charts", rolls 2D6 on each, and "the model takes one of the
two skills so found" (RULINGS X-1 to X-3, docs/rules.md). The row holds the two charts picked and the skill taken;
its two 2D6 are stored in the dice log and tied to it by each flow's own roll table (sequence `2 * number - 1` for
the first chart, `2 * number` for the second). Each concrete model adds where it belongs, the fighter, the number
and its constraints.
"""

from django.db import models

from campaigns.checks import ChecksInPython


class SkillAdvancementChoice(ChecksInPython, models.Model):
    """The two skill charts picked for one Skill Advancement Roll, and the skill taken."""

    first_chart = models.CharField(max_length=20, help_text="A key of SKILL_CHARTS.")
    second_chart = models.CharField(max_length=20, help_text="A key of SKILL_CHARTS.")
    # The skill taken: from either chart's result, or from the Patron's list on a Patron Skill result.
    skill_code = models.CharField(max_length=40, blank=True)
    skill_name = models.CharField(max_length=100, blank=True)
    skill_chart = models.CharField(
        max_length=20, blank=True, help_text="The chart it came from, or 'patron'."
    )

    class Meta:
        abstract = True

    def take(self, *, code: str, name: str, chart: str) -> None:
        """The skill taken (or, all empty, none yet), saved."""
        self.skill_code, self.skill_name, self.skill_chart = code, name, chart
        self.save(update_fields=["skill_code", "skill_name", "skill_chart"])
