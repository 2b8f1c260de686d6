"""The Python package's cache of compiled modules: a second process compiles
nothing, a damaged file is compiled again, the 8 most recently used are kept;
the relay's module (`NotificationRelay`) is cached as the browser's is."""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from hosts import ROOT


CACHE_PROBE = """
import sys, wasmtime
compiled = []
compile_module = wasmtime.Module.__init__
wasmtime.Module.__init__ = lambda self, *a, **k: compiled.append(1) or compile_module(self, *a, **k)
sys.path.insert(0, sys.argv[1])
from notification_text import NotificationText
first, second = NotificationText(), NotificationText()
assert first.answer_body('{"text":"**a**"}') == second.answer_body('{"text":"**a**"}') == (200, '{"body":"a","units":1,"truncated":false,"inputCut":false}')
print(len(compiled))
"""

RELAY_PROBE = CACHE_PROBE.split("from notification_text")[0] + """
from notification_text import NotificationRelay
first, second = NotificationRelay(), NotificationRelay()
assert first.relay("{}") == second.relay("{}") and first.relay("{}")[0] == 400
print(len(compiled))
"""


def run_python_cache(tally):
    with tempfile.TemporaryDirectory() as cache:
        def compiles(probe=CACHE_PROBE):
            run = subprocess.run([sys.executable, "-c", probe, str(ROOT / "wasm/python")], capture_output=True,
                                 text=True, env=dict(os.environ, NOTIFICATION_TEXT_CACHE=cache))
            return int(run.stdout) if run.returncode == 0 else f"failed: {run.stderr.strip()[-300:]}"
        for index in range(10):  # an older engine's modules, which the new one's write prunes to 8 in all
            old = Path(cache) / f"old-{index}.cwasm"
            old.write_bytes(b"")
            os.utime(old, (1e9 + index, 1e9 + index))
        kept = lambda: sorted(path.name for path in Path(cache).iterdir())
        steps = [("a new cache: one compile for two instances", compiles(), 1),
                 ("8 compiled modules kept, the new one and the 7 newest old", kept(),
                  sorted([f"old-{index}.cwasm" for index in range(3, 10)] + [n for n in kept() if "wasmtime" in n])),
                 ("a new process: no compile", compiles(), 0),
                 ("the relay's module: one compile for two instances", compiles(RELAY_PROBE), 1),
                 ("the relay's module in a new process: no compile", compiles(RELAY_PROBE), 0)]
        for path in Path(cache).glob("*wasmtime*"):
            path.write_bytes(b"not a compiled module")
        steps += [("a damaged cache: compiled again", compiles(), 1), ("and replaced", compiles(), 0)]
    failed = [f"{name}: {got}, want {want}" for name, got, want in steps if got != want]
    for problem in failed:
        print(f"FAIL python cache: {problem}")
    tally.add(len(steps) - len(failed), len(failed))
    print(f"python cache: {len(steps) - len(failed)} of {len(steps)} steps as expected")
