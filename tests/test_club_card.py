"""The player's card (issue 17 §2): ``/stats``' figures and a chart of points over time as a
small PNG; checked through the drawing's texts (as the score sheet's tests do), not pixels."""

from __future__ import annotations

import io

from PIL import Image

from bot.club.card import MAX_BARS, WIDTH, compose, render_card, series
from bot.i18n import catalog

LINES = ["Аня, все игры:", "игр 3, побед 2 (67%)", "баллов 3.4 (дополнительных 0.4)"]
DAY = 86_400
START = 1_741_780_000  # 2025-03-12 11:46 UTC


def test_the_card_is_a_small_png_with_the_figures_and_a_bar_per_game() -> None:
    games = [(START, 140), (START + DAY, -50), (START + 2 * DAY, 250)]
    png = render_card(LINES, games, catalog("ru"), "Europe/Moscow")
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width == WIDTH
    assert 200 < image.height < 1000
    texts = compose(LINES, games, catalog("ru"), "Europe/Moscow")[0].texts()
    assert texts[:3] == LINES  # the text's figures, as /stats says them
    assert "Баллы за игру" in texts
    assert ["1.4", "-0.5", "2.5"] == [t for t in texts if t in {"1.4", "-0.5", "2.5"}]
    assert ["12.03", "13.03", "14.03"] == [t for t in texts if t.endswith(".03")]


def test_many_games_make_a_bar_per_month_in_the_clubs_zone() -> None:
    games = [(START + i * DAY, 100) for i in range(MAX_BARS + 5)]  # 12 March to 15 April
    kind, bars = series(games, "UTC")
    assert kind == "months" and bars == [("03.2025", 2000), ("04.2025", 1500)]
    texts = compose(LINES, games, catalog("en"))[0].texts()
    assert "Points per month" in texts and "20" in texts and "15" in texts
    late = [(1_741_820_000, 100)]  # 2025-03-12 23:33 UTC is the 13th in Vladivostok
    assert series(late, "Asia/Vladivostok") == ("games", [("13.03", 100)])


def test_no_games_no_chart() -> None:
    texts = compose(LINES[:1], [], catalog("ru"))[0].texts()
    assert texts == LINES[:1]


def test_the_top_table_is_a_png_with_a_row_per_player_best_first() -> None:
    from bot.club.card import compose_top, render_top

    rows = [(1, "Аня", "3.4", 2, 3, "67%"), (2, "Боря", "1.1", 1, 3, "33%"),
            (3, "Вика", "-0.5", 0, 3, "0%")]
    title = "Лучшие по баллам, все игры (не меньше 3 игр):"
    image = Image.open(io.BytesIO(render_top(title, rows, catalog("ru"))))
    assert image.format == "PNG" and image.width == WIDTH and 150 < image.height < 600
    texts = compose_top(title, rows, catalog("ru"))[0].texts()
    head = texts.index("№")
    assert " ".join(texts[:head]) == title  # wrapped to the picture's width
    assert texts[head:head + 6] == ["№", "Игрок", "Баллы", "Победы", "Игры", "% побед"]
    assert texts[head + 6:] == ["1", "Аня", "3.4", "2", "3", "67%", "2", "Боря", "1.1", "1", "3", "33%",
                         "3", "Вика", "-0.5", "0", "3", "0%"]


def test_the_top_table_keeps_the_ends_of_long_names() -> None:
    """Two long names differing only at the end stay told apart (the beginning, «…», the end)."""
    from bot.club.card import compose_top

    long = "Александра Константинопольская-Преображенская-Трубецкая"
    rows = [(1, long + " 1", "3.4", 2, 3, "67%"), (2, long + " 2", "1.1", 1, 3, "33%")]
    texts = compose_top("Лучшие", rows, catalog("ru"))[0].texts()
    shown = [t for t in texts if t.startswith("Алекс")]
    assert len(shown) == 2 and shown[0].endswith(" 1") and shown[1].endswith(" 2") and "…" in shown[0]
