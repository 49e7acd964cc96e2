"""Line charts drawn on the server as SVG: the coordinates, the tick marks and each line's look, worked out here so
the template only draws them (no chart library, no script: the strict CSP allows none from elsewhere).

Readable in black and white: each line differs by its dash pattern and its marker's shape, not by colour alone,
and carries its name at its last point. Every chart is shown with a table of the same numbers beside it, for
screen readers and for anyone who reads figures faster than a picture.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

WIDTH = 360  # fits a 390 px phone with the page's margins; the SVG scales with its box
HEIGHT = 220
LEFT, RIGHT, TOP, BOTTOM = 36, 96, 12, 28  # room for the axis figures, and for each line's name at its end

# Dash patterns and marker shapes, taken in turn: told apart without colour.
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 5", "12 4")
SHAPES = ("circle", "square", "diamond", "triangle")
# The least height between two lines' names at their ends, so names ending at the same point stay legible.
LABEL_GAP = 12
X_LABELS = 10  # at most this many games named under the axis; the table beside names every one
MOST_MARKS = 40  # past this many points a line's markers would run together: its dash pattern tells it apart


@dataclass(frozen=True)
class Mark:
    x: float
    y: float
    shape: str
    title: str  # told on hover and to assistive tools reading the SVG

    @property
    def points(self) -> str:
        """The polygon of a square, diamond or triangle marker around the point."""
        x, y, r = self.x, self.y, 4
        corners = {
            "square": ((x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)),
            "diamond": ((x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)),
            "triangle": ((x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)),
        }.get(self.shape, ())
        return " ".join(f"{a:.1f},{b:.1f}" for a, b in corners)


@dataclass(frozen=True)
class Line:
    name: str
    path: str  # the SVG path's `d`; a gap where a value is missing starts a new stroke
    dash: str
    marks: tuple[Mark, ...]
    label_x: float
    label_y: float


@dataclass(frozen=True)
class Tick:
    at: float
    text: str


@dataclass(frozen=True)
class Chart:
    title: str
    width: int
    height: int
    lines: tuple[Line, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    left: int
    right: float
    top: int
    bottom: float


def _scale(low: float, high: float, start: float, end: float):
    span = (high - low) or 1
    return lambda value: start + (value - low) * (end - start) / span


def _y_ticks(low: int, high: int, *, whole_steps: bool) -> list[int]:
    if high - low <= 6 or whole_steps and high - low <= 8:
        return list(range(low, high + 1))
    step = max(1, round((high - low) / 4))
    return list(range(low, high + 1, step))


def line_chart(
    *,
    title: str,
    x_values: Sequence[int],
    series: Sequence[tuple[str, Sequence[int | None]]],
    x_label: str = "Game",
    invert: bool = False,
) -> Chart:
    """A line per named series over `x_values` (each series one value or None per x). `invert`: 1 at the top, as a
    place in the standings reads."""
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM
    known = [value for _name, values in series for value in values if value is not None]
    low, high = (min(known), max(known)) if known else (0, 1)
    if not invert:
        low = min(low, 0)
    x_at = _scale(min(x_values, default=0), max(x_values, default=1), LEFT + 8, right - 8)
    y_at = _scale(low, high, TOP + 6, bottom - 6) if invert else _scale(low, high, bottom - 6, TOP + 6)
    lines = []
    for index, (name, values) in enumerate(series):
        shape = SHAPES[index % len(SHAPES)]
        path, marks, pen_down = [], [], False
        for x, value in zip(x_values, values, strict=True):
            if value is None:
                pen_down = False
                continue
            px, py = x_at(x), y_at(value)
            path.append(f"{'L' if pen_down else 'M'}{px:.1f} {py:.1f}")
            marks.append(Mark(x=px, y=py, shape=shape, title=f"{name}, {x_label} {x}: {value}"))
            pen_down = True
        label_at = marks[-1] if marks else None
        if len(x_values) > MOST_MARKS:
            marks = []
        last = label_at or Mark(x=right, y=TOP, shape=shape, title=name)
        lines.append(
            Line(
                name=name,
                path=" ".join(path),
                dash=DASHES[index % len(DASHES)],
                marks=tuple(marks),
                label_x=last.x + 8,
                label_y=last.y + 4,
            )
        )
    return Chart(
        title=title,
        width=WIDTH,
        height=HEIGHT,
        lines=_names_apart(lines),
        x_ticks=tuple(Tick(at=x_at(x), text=f"{x}") for x in _thinned(x_values)),
        y_ticks=tuple(Tick(at=y_at(y), text=f"{y}") for y in _y_ticks(low, high, whole_steps=invert)),
        left=LEFT,
        right=right,
        top=TOP,
        bottom=bottom,
    )


def _thinned(x_values: Sequence[int]) -> Sequence[int]:
    """Every step-th game, so at most X_LABELS are named under the axis."""
    step = max(1, -(-len(x_values) // X_LABELS))
    return x_values[::step]


def _names_apart(lines: list[Line]) -> tuple[Line, ...]:
    """Each line's name moved down, where needed, so no two names overlap (two lines ending at the same value)."""
    moved: dict[int, float] = {}
    last = None
    for index in sorted(range(len(lines)), key=lambda i: (lines[i].label_y, i)):
        y = lines[index].label_y if last is None else max(lines[index].label_y, last + LABEL_GAP)
        moved[index] = last = y
    return tuple(replace(line, label_y=moved[index]) for index, line in enumerate(lines))
