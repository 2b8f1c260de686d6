"""GET /playground.json as the service answers it with its default settings
(app name Buzz, default locale en), from the catalogs in l10n/: what the
static playground serves in its place. Usage: settings.py l10n > playground.json"""
import json
import sys
from pathlib import Path

# The service's order: its built-in catalogs are generated from the files sorted by name.
catalogs = [json.loads(path.read_text("utf-8")) for path in sorted(Path(sys.argv[1]).glob("*.json"))]
print(json.dumps({"appName": "Buzz", "defaultLocale": "en",
                  "catalogs": [{"locale": c["locale"], "direction": c["direction"]} for c in catalogs]},
                 separators=(",", ":")))
