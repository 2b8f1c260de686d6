"""The sections of test-fixtures/scenarios.json, in the fixture's order: replacement, delivery,
conversation (each adds its cases to build.CASES when imported)."""
