"""The cases of test-fixtures/compose.json, written by hand from docs/spec/compose.md
and docs/spec/body.md, in sections; scripts/gen-compose-fixture.py lays them out.

build: the request and response builders, the case list and the JSON layout.
filtering: fallbacks, drops, time boundaries, keys and ordering.
kinds: the single, bundle and summary notifications.
state: the next displayed state.
l10n_tours: every catalog's messages, written out (data only).
l10n: the texts of each language, choosing the catalog, isolation and caps with isolates.
"""
