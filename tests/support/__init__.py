"""Test helpers (no tests here): the in-memory fakes of a platform for the controllers
(:mod:`.fakeport`)."""
