"""The server's line charts: coordinates inside the plot, a gap for a missing value, first place drawn at the top,
and lines told apart without colour."""

from combat.charts import DASHES, LABEL_GAP, SHAPES, X_LABELS, line_chart


def test_each_series_is_a_line_with_a_mark_per_value_and_its_name_at_its_end():
    chart = line_chart(
        title="Value", x_values=[1, 2, 3], series=[("Iron", [110, 120, 90]), ("Heretic", [100, 100, 130])]
    )
    iron, heretic = chart.lines
    assert [mark.title for mark in iron.marks] == [
        "Iron, Game 1: 110",
        "Iron, Game 2: 120",
        "Iron, Game 3: 90",
    ]
    assert iron.path.startswith("M")
    assert iron.path.count("L") == 2
    for line in chart.lines:
        for mark in line.marks:
            assert chart.left <= mark.x <= chart.right
            assert chart.top <= mark.y <= chart.bottom
    assert iron.label_x == iron.marks[-1].x + 8
    # Told apart in black and white: its own dash pattern and marker shape.
    assert (iron.dash, iron.marks[0].shape) == (DASHES[0], SHAPES[0])
    assert (heretic.dash, heretic.marks[0].shape) == (DASHES[1], SHAPES[1])
    assert heretic.marks[0].points.count(",") == 4  # a square's four corners


def test_a_value_axis_starts_at_0_and_the_higher_value_is_drawn_higher():
    chart = line_chart(title="Value", x_values=[1, 2], series=[("Iron", [50, 100])])
    low, high = chart.lines[0].marks
    assert high.y < low.y
    assert chart.y_ticks[0].text == "0"


def test_a_place_is_drawn_first_at_the_top():
    chart = line_chart(
        title="Place", x_values=[1, 2], series=[("Iron", [1, 2]), ("Heretic", [2, 1])], invert=True
    )
    first, second = chart.lines[0].marks
    assert first.y < second.y
    assert [tick.text for tick in chart.y_ticks] == ["1", "2"]


def test_a_missing_value_leaves_a_gap_and_no_mark():
    chart = line_chart(title="Value", x_values=[1, 2, 3], series=[("Iron", [10, None, 30])])
    line = chart.lines[0]
    assert len(line.marks) == 2
    assert line.path.count("M") == 2
    assert "L" not in line.path


def test_no_value_at_all_draws_an_empty_line():
    chart = line_chart(title="Value", x_values=[], series=[("Iron", [])])
    assert chart.lines[0].path == ""
    assert chart.lines[0].marks == ()


def test_names_of_lines_ending_at_the_same_value_do_not_overlap():
    chart = line_chart(title="Value", x_values=[1, 2], series=[("Iron", [10, 50]), ("Heretic", [20, 50])])
    iron, heretic = chart.lines
    assert iron.marks[-1].y == heretic.marks[-1].y
    assert abs(iron.label_y - heretic.label_y) >= LABEL_GAP


def test_a_long_campaign_names_at_most_ten_games_and_draws_its_lines_without_markers():
    games = list(range(1, 501))
    chart = line_chart(title="Value", x_values=games, series=[("Iron", games)])
    assert [tick.text for tick in chart.x_ticks][:3] == ["1", "51", "101"]
    assert len(chart.x_ticks) == X_LABELS
    line = chart.lines[0]
    assert line.marks == ()
    assert line.path.count("L") == 499
    assert line.label_y == chart.top + 6 + 4  # its name beside its last point, the highest value


def test_a_short_campaign_names_every_game():
    assert [tick.text for tick in line_chart(title="V", x_values=[1, 2, 3], series=[]).x_ticks] == [
        "1",
        "2",
        "3",
    ]
