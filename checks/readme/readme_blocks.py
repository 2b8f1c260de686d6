#!/usr/bin/env python3
"""Every code block of README.md, run or compiled as written (make check-readme,
part of make test), and the ```sh blocks of the docs/ pages named with --doc
(docs/http-api.md), whose answers are compared as the README's. A block this
check does not know fails it.

```sh blocks: each command (a line; a trailing backslash or an open quote
continues it) runs with /bin/sh from the repository root and must exit 0 with
some output that is not a problem document. `localhost:8080` is a service this
check starts from the debug build on a free port: the port is the one change
made to a command (`127.0.0.1:8080` too); on a page of docs, `swift build`
and a line that starts `serve` in the background are that build and that
service. A comment on its own line right after a command is the
output the README shows for it: the output must be exactly that, `…` standing
for any text; an answer wider than the page may be shown wrapped over several
comment lines, which joined are the one line. A refusal (a problem document)
is an answer only where the page shows one. A comment at the end of a line
says what the command is for and is not compared. Two commands are the
README's own entry points: `make run` runs as written (SERVE_FLAGS='--port 0'
in the environment, as the Makefile allows) until /readyz answers 200, and
must exit 0 after SIGINT, as Ctrl-C does; `make test` is what runs this check, so `make -n test` must succeed.

```swift blocks: lines from `// Package.swift` on are a manifest's
`.package(…)` and `.product(…)` lines; they go into a manifest of an
executable package beside a checkout of this repository under another folder
name, which `swift package describe` must resolve. Lines from one starting
`// main.swift` on (in the same block or a block of their own) are an
executable's main.swift: swiftc compiles it as written
against the debug build's NotificationText (its module and objects, the
package's own build), and runs it; a `print(…)` line's comment (after
`  // `) is the line it prints, compared as above.

    checks/readme/readme_blocks.py --build-path .build/debug

With --write, an answer a page shows (without `…`) that differs from the
output is written anew from the output, wrapped after commas: the answers
are generated, so a new member of an answer needs no hand edit of a page.
"""
import argparse
import glob
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

WRITE = False
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []
# With --write: (page, first line, line count, new lines) of each answer to write anew.
rewrites = []
WRAP_WIDTH = 112


def wrapped(output):
    """`output` as a page's comment lines: `# ` then `#  ` on each further line, broken after commas."""
    lines, line = [], ""
    for piece in re.split(r"(?<=,)", output):
        if line and len(line) + len(piece) + 3 > WRAP_WIDTH:
            lines.append(line)
            line = ""
        line += piece
    lines.append(line)
    return ["# " + lines[0]] + ["#  " + rest for rest in lines[1:]]


def check(condition, what):
    print(f"  [{'ok  ' if condition else 'FAIL'}] {what}", flush=True)
    if not condition:
        failures.append(what)


def blocks(text, name="README.md"):
    """(language, first line number, lines) of each fenced block of `text`, the file `name`."""
    found, language, start, lines = [], None, 0, []
    for number, line in enumerate(text.split("\n"), 1):
        if language is None and line.startswith("```"):
            language, start, lines = line[3:].strip(), number + 1, []
        elif language is not None and line.startswith("```"):
            found.append((language, start, lines))
            language = None
        elif language is not None:
            lines.append(line)
    if language is not None:
        raise SystemExit(f"{name}: the block at line {start} is not closed")
    return found


def matches(shown, output):
    """`output` is `shown` exactly, `…` standing for any text."""
    pattern = ".*".join(re.escape(part) for part in shown.split("…"))
    return re.fullmatch(pattern, output, re.DOTALL) is not None


def is_problem(output):
    try:
        value = json.loads(output)
    except ValueError:
        return False
    return isinstance(value, dict) and "code" in value and value.get("status", 0) >= 400


def shell_commands(lines, name="README.md"):
    """(command, shown output or None, first line) of a sh block: commands
    joined across continued lines; own-line comments right after a command
    are its output."""
    commands, pending, pending_line = [], "", 0
    previous_was_command = False
    for index, line in enumerate(lines):
        if not pending and line.startswith("#"):
            comment = line[1:].strip()
            if previous_was_command:
                command, shown, first = commands[-1]
                commands[-1] = (command, comment if shown is None else shown + "\n" + comment, first)
            continue
        if not pending and not line.strip():
            previous_was_command = False
            continue
        pending_line = pending_line if pending else index
        pending += line + "\n"
        try:
            shlex.split(pending, comments=True)
        except ValueError:
            continue  # an open quote: the command goes on
        if pending.rstrip("\n").endswith("\\"):
            continue
        commands.append((pending.rstrip("\n"), None, pending_line))
        pending = ""
        previous_was_command = True
    if pending:
        raise SystemExit(f"{name}: a command does not end: {pending!r}")
    return commands


class Service:
    """The debug build's `serve` on a free port of 127.0.0.1."""

    def __init__(self, binary):
        self.process = subprocess.Popen([binary, "serve", "--port", "0", "--access-log", "off"],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.port = json.loads(self.process.stdout.readline())["port"]

    def stop(self):
        self.process.terminate()
        self.process.wait(20)


def run_make_run():
    """`make run` as written, stopped with SIGINT like Ctrl-C."""
    environment = {**os.environ, "SERVE_FLAGS": "--port 0"}
    make = subprocess.Popen(["/bin/sh", "-c", "make run"], cwd=ROOT, env=environment, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    start = None
    deadline = time.monotonic() + 600
    seen = []
    for line in make.stdout:
        seen.append(line)
        if line.startswith("{") and '"event":"start"' in line:
            start = json.loads(line)
            break
        if time.monotonic() > deadline:
            break
    if start is None:
        os.killpg(make.pid, signal.SIGKILL)
        check(False, "make run: no start line: " + "".join(seen[-5:]))
        return
    with urllib.request.urlopen(f"http://127.0.0.1:{start['port']}/readyz", timeout=10) as answer:
        check(answer.status == 200, f"make run: the service answers /readyz on port {start['port']}")
    os.kill(start["pid"], signal.SIGINT)
    try:
        rest = make.communicate(timeout=30)[0]
    except subprocess.TimeoutExpired:
        os.killpg(make.pid, signal.SIGKILL)
        rest = make.communicate()[0]
    check(make.returncode == 0 and '"event":"stop"' in rest,
          f"make run: Ctrl-C (SIGINT) drains and stops it, exit {make.returncode}")


def run_shell_block(start, lines, binary, service, name="README.md"):
    for command, shown, offset in shell_commands(lines, name):
        where = f"{name}:{start + offset}"
        words = shlex.split(command, comments=True)
        if words == ["make", "run"]:
            run_make_run()
            continue
        if words == ["make", "test"]:
            result = subprocess.run(["make", "-n", "test"], cwd=ROOT, capture_output=True, text=True)
            check(result.returncode == 0, f"{where}: make test is a target (`make -n test`; this check is part of it)")
            continue
        if words == ["swift", "build"] or (words[-1:] == ["&"] and "serve" in words):
            # The build this check was given, and the service it started.
            print(f"  [as   ] {where}: {command.splitlines()[0][:90]}: this check's own", flush=True)
            continue
        actual = command.replace("localhost:8080", f"127.0.0.1:{service.port}").replace(
            "127.0.0.1:8080", f"127.0.0.1:{service.port}")
        result = subprocess.run(["/bin/sh", "-c", actual], cwd=ROOT, capture_output=True, text=True, timeout=60)
        output = result.stdout.rstrip("\n")
        # A problem is an answer only where the page shows one (a refusal, explained).
        refusal_shown = shown is not None and is_problem(shown.replace("\n", ""))
        check(result.returncode == 0 and output and (refusal_shown or not is_problem(output)),
              f"{where}: {command.splitlines()[0][:90]} (exit {result.returncode}, {len(result.stdout)} bytes)")
        if shown is not None:
            # An answer wider than the page is shown wrapped: its lines joined are the one line.
            same = matches(shown, output) or matches(shown.replace("\n", ""), output)
            if not same and WRITE and "…" not in shown and result.returncode == 0 and output:
                rewrites.append((name, start + offset + command.count("\n") + 1, shown.count("\n") + 1,
                                 wrapped(output)))
                print(f"  [new ] {where}: its answer written anew", flush=True)
                continue
            check(same, f"{where}: its output is the one shown: {shown[:70]}"
                  + ("" if same else f"\n         got: {output[:300]}"))


def run_package_block(start, lines):
    dependency = [line.strip().rstrip(",") for line in lines if line.strip().startswith(".package(")]
    product = [line.strip().rstrip(",") for line in lines if line.strip().startswith(".product(")]
    check(len(dependency) == 1 and len(product) == 1, f"README.md:{start}: one .package and one .product line")
    if len(dependency) != 1 or len(product) != 1:
        return
    with tempfile.TemporaryDirectory() as folder:
        os.symlink(ROOT, os.path.join(folder, "a-checkout"))
        consumer = os.path.join(folder, "consumer")
        os.makedirs(os.path.join(consumer, "Sources", "App"))
        with open(os.path.join(consumer, "Package.swift"), "w") as manifest:
            manifest.write("// swift-tools-version:6.0\nimport PackageDescription\nlet package = Package(\n"
                           "    name: \"App\",\n"
                           f"    dependencies: [{dependency[0].replace('../notification-text', '../a-checkout')}],\n"
                           f"    targets: [.executableTarget(name: \"App\", dependencies: [{product[0]}])]\n)\n")
        with open(os.path.join(consumer, "Sources", "App", "main.swift"), "w") as main:
            main.write("import NotificationText\n")
        result = subprocess.run([os.environ.get("SWIFT", "swift"), "package", "--package-path", consumer,
                                 "describe", "--type", "json"], capture_output=True, text=True)
        check(result.returncode == 0 and '"name" : "App"' in result.stdout,
              f"README.md:{start}: the Package.swift lines resolve from a checkout in a folder of another name"
              + ("" if result.returncode == 0 else "\n" + result.stderr[-500:]))


def run_main_block(start, lines, build_path):
    modules = os.path.join(build_path, "Modules")
    # The objects of the sources there are now: an incremental build keeps the
    # object of a source file since deleted, which would link a stale symbol.
    objects = []
    for target in ("NotificationText", "NotificationEngine", "EnginePrimitives"):
        sources = {os.path.basename(path) for path in
                   glob.glob(os.path.join(ROOT, "Sources", target, "**", "*"), recursive=True)}
        objects += [path for path in sorted(glob.glob(os.path.join(build_path, f"{target}.build", "*.o")))
                    if not os.path.basename(path).endswith(".swift.o")
                    or os.path.basename(path)[:-len(".o")] in sources]
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "main.swift")
        with open(source, "w") as main:
            main.write("\n".join(lines) + "\n")
        executable = os.path.join(folder, "app")
        result = subprocess.run([os.environ.get("SWIFTC", "swiftc"), source, "-I", modules, *objects, "-o", executable],
                                capture_output=True, text=True)
        check(result.returncode == 0, f"README.md:{start}: main.swift compiles against NotificationText as written"
              + ("" if result.returncode == 0 else "\n" + result.stderr[-2000:]))
        if result.returncode != 0:
            return
        run = subprocess.run([executable], capture_output=True, text=True, timeout=60)
        check(run.returncode == 0, f"README.md:{start}: main.swift runs (exit {run.returncode})")
    shown = [line.rsplit("  // ", 1)[1] for line in lines if line.lstrip().startswith("print(") and "  // " in line]
    printed = run.stdout.rstrip("\n").split("\n")
    check(len(shown) == len(printed) and len(shown) > 0, f"README.md:{start}: {len(printed)} lines printed,"
          f" {len(shown)} shown")
    for expected, line in zip(shown, printed):
        check(matches(expected, line), f"README.md:{start}: prints {expected}"
              + ("" if matches(expected, line) else f" (got {line})"))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-path", required=True, help="the debug build's bin path (swift build --show-bin-path)")
    parser.add_argument("--doc", action="append", default=[],
                        help="a page of docs/ whose ```sh blocks run too, their answers compared with those shown")
    parser.add_argument("--write", action="store_true",
                        help="write each shown answer (without `…`) that differs anew from the output")
    arguments = parser.parse_args()
    global WRITE
    WRITE = arguments.write
    build_path = os.path.abspath(arguments.build_path)
    binary = os.path.join(build_path, "notification-text")
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as readme:
        found = [("README.md", *block) for block in blocks(readme.read())]
    for doc in arguments.doc:
        with open(os.path.join(ROOT, doc), encoding="utf-8") as page:
            # A page's other blocks are its runners and recipes, which checks of their own run.
            found += [(doc, *block) for block in blocks(page.read(), doc) if block[0] == "sh"]
    service = Service(binary)
    try:
        for name, language, start, lines in found:
            print(f"{name}:{start}: ```{language}", flush=True)
            first = lines[0] if lines else ""
            if language == "sh":
                run_shell_block(start, lines, binary, service, name)
            elif language == "swift" and first.startswith("// Package.swift"):
                # The manifest's lines, then (from a line naming main.swift) an executable's main.swift.
                main = next((i for i, line in enumerate(lines) if line.startswith("// main.swift")), len(lines))
                run_package_block(start, lines[:main])
                if main < len(lines):
                    run_main_block(start + main, lines[main:], build_path)
            elif language == "swift" and first.startswith("// main.swift"):
                run_main_block(start, lines, build_path)
            else:
                check(False, f"{name}:{start}: a ```{language} block this check does not run")
    finally:
        service.stop()
    for name in sorted({rewrite[0] for rewrite in rewrites}):
        path = os.path.join(ROOT, name)
        with open(path, encoding="utf-8") as page:
            lines = page.read().split("\n")
        # From the bottom up, so the line numbers above stay true.
        for _, first, count, new in sorted((r for r in rewrites if r[0] == name), key=lambda r: -r[1]):
            lines[first - 1:first - 1 + count] = new
        with open(path, "w", encoding="utf-8") as page:
            page.write("\n".join(lines))
        print(f"{name}: {sum(1 for r in rewrites if r[0] == name)} answer(s) written anew")
    print(f"readme: {len(found)} blocks, " + (f"{len(failures)} failed check(s)" if failures else "every check passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
