"""What the club's tests share (no tests here): ten seats' names and the store fixture that runs a
module's tests on both backends (SQLite, PostgreSQL: the ``any_store`` of tests/conftest.py). A
module takes the fixture by assigning it: ``store = club.store``."""

from __future__ import annotations

import pytest

from storage import Store

#: A table's ten names, distinct in every way the roster folds them.
NAMES = {1: "Аня", 2: "Боря", 3: "Вика", 4: "Гоша", 5: "Даша", 6: "Егор", 7: "Жанна", 8: "Зоя",
         9: "Игорь", 10: "Кира"}


@pytest.fixture
def store(any_store: Store) -> Store:
    """The store, on each backend in turn."""
    return any_store
