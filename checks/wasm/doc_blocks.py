#!/usr/bin/env python3
"""Every code block of docs/wasm.md, run as written, in order, in a fresh
folder that holds the clone as `notification-text/` (a link to this
repository), as the doc's readers have it (make check-wasm, after make wasm).
A block in a language this check does not know fails it.

```sh blocks: each line runs with /bin/sh in that folder and must exit 0.
```python blocks: run by `venv/bin/python`, the venv an sh block made there
(so the package comes from its pip install, never from this repository).
```js blocks: saved there as an .mjs and run by `node` (so "notification-text"
is the package an sh block's npm install put in node_modules/).
A `print(…)` or `console.log(…)` line's comment (after `  # ` or `  // `) is
the line it prints, and the block's output must be exactly those lines.

Then the package's types (wasm/js/notification-text.d.ts) as the npm
install gives them: checks/wasm/types.mts, which uses every export and has
`@ts-expect-error` lines for misuse, must compile with `tsc --strict`.

usage: checks/wasm/doc_blocks.py
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "checks/readme"))
from readme_blocks import blocks  # noqa: E402: the README check's block reader, one for both docs

DOC = ROOT / "docs/wasm.md"
failures = []


def check(condition, what):
    print(f"  [{'ok  ' if condition else 'FAIL'}] {what}", flush=True)
    if not condition:
        failures.append(what)


def expected_output(lines, call, comment):
    """The lines a block says it prints: each `call(…)` line's trailing comment."""
    pattern = re.compile(rf"^\s*{re.escape(call)}\(.*\)\s*;?\s+{re.escape(comment)} (.*)$")
    return [match.group(1) for line in lines if (match := pattern.match(line))]


def run(command, folder, environment, what, stdin=None):
    started = time.monotonic()
    result = subprocess.run(command, cwd=folder, env=environment, capture_output=True, text=True, input=stdin,
                            timeout=300)
    seconds = time.monotonic() - started
    check(result.returncode == 0, f"{what} exits 0 ({seconds:.1f} s)"
          + ("" if result.returncode == 0 else f": {result.returncode}\n{result.stderr.strip()[-1500:]}"))
    return result


def main():
    text = DOC.read_text(encoding="utf-8")
    found = blocks(text, "docs/wasm.md")
    check(len(found) >= 4, f"docs/wasm.md has {len(found)} code blocks (an sh and a code block for each host)")
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "NODE_PATH")}
    ran = set()
    with tempfile.TemporaryDirectory(prefix="wasm-doc-") as folder:
        (Path(folder) / "notification-text").symlink_to(ROOT)
        for language, start, lines in found:
            where = f"docs/wasm.md:{start}"
            print(f"{where}: ```{language}", flush=True)
            if language == "sh":
                for line in lines:
                    if line.strip() and not line.lstrip().startswith("#"):
                        run(["/bin/sh", "-c", line], folder, environment, f"`{line.strip()}`")
            elif language in ("python", "js"):
                code = "\n".join(lines) + "\n"
                if language == "python":
                    python = Path(folder) / "venv/bin/python"
                    check(python.exists(), "an sh block made venv/ before the Python block")
                    if not python.exists():
                        continue
                    result = run([str(python), "-"], folder, environment, "the Python block", stdin=code)
                    want = expected_output(lines, "print", "#")
                else:
                    script = Path(folder) / f"block-{start}.mjs"
                    script.write_text(code, encoding="utf-8")
                    result = run(["node", script.name], folder, environment, "the JavaScript block")
                    want = expected_output(lines, "console.log", "//")
                got = result.stdout.rstrip("\n").split("\n") if result.stdout else []
                check(bool(want) and got == want, f"it prints {want}" + ("" if got == want else f", not {got}"))
                ran.add(language)
            else:
                check(False, f"a block in {language!r}, which this check cannot run")
        check(ran == {"python", "js"}, f"blocks of both hosts ran ({', '.join(sorted(ran)) or 'none'})")

        print("the package's types: checks/wasm/types.mts with tsc --strict", flush=True)
        installed = Path(folder) / "node_modules/notification-text/notification-text.d.ts"
        check(installed.exists(), "an sh block installed the npm package, its types with it")
        if installed.exists() and shutil.which("tsc"):
            shutil.copy(ROOT / "checks/wasm/types.mts", folder)
            run(["tsc", "--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext",
                 "--target", "es2022", "--lib", "es2022,dom", "types.mts"], folder, environment,
                "tsc on types.mts")
        elif installed.exists():
            check(False, "tsc is on the PATH (make check-wasm installs Debian's node-typescript)")
    print(f"doc_blocks: {'FAIL, ' + str(len(failures)) + ' failed' if failures else 'OK'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
