#!/usr/bin/env python3
"""Fails when the library uses a standard-library API newer than the
platforms Package.swift declares.

On Linux the compiler ignores Apple availability, so `InlineArray`
(`@available(iOS 26.0, macOS 26.0, ...)` in the toolchain's
Swift.swiftinterface) builds here while an extension targeting iOS 16 cannot
build it. This check does what an Apple build would:

1. The declared minimums come from Package.swift's `platforms:` line
   (`.iOS(.v16)`, `.macOS(.v13)`, ...).
2. The availability of every public declaration of the toolchain's Swift
   module comes from `swift-symbolgraph-extract` over that module: each
   symbol's `@available` introductions per platform, as its swiftinterface
   declares them, a member inheriting its type's or extension's when it has
   none of its own.
3. What the library's sources refer to comes from the type checker itself:
   `swiftc -dump-ast -dump-ast-format json` gives every referenced
   declaration's USR and every type's mangled name.
A reference to a declaration, or a mention of a type, introduced on a
declared platform after its declared minimum is reported with its file and
line, and the check fails.

What it cannot see: language features whose runtime support is newer than
the minimum (the compiler's "runtime support for ... is only available in"
diagnostics on Apple targets); those still need an Apple build.

Usage: scripts/check-availability.py NAME:DIR [NAME:DIR ...]
  modules in dependency order; each is type-checked against the ones before.
       scripts/check-availability.py --self-test
  the check on two small modules of its own: one that uses `InlineArray`
  and `Array.span` must fail with both named, one that uses `&*` on
  `UInt64` and `Array` (available everywhere) must pass.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SWIFTC = os.environ.get("SWIFTC", "swiftc")
# The flags scripts/check-library.sh builds the library with.
SWIFT_FLAGS = [
    "-parse-as-library", "-swift-version", "6", "-package-name", "notification_text",
    "-enable-upcoming-feature", "ExistentialAny",
    "-Xfrontend", "-disable-implicit-concurrency-module-import",
    "-Xfrontend", "-disable-implicit-string-processing-module-import",
]
# Package.swift's spelling of each platform, and the symbol graph's.
PLATFORMS = {"iOS": "iOS", "macOS": "macOS", "watchOS": "watchOS", "tvOS": "tvOS", "visionOS": "visionOS"}


def declared_minimums(package_swift):
    """{"iOS": (16, 0), ...} from `platforms: [.iOS(.v16), .macOS(.v13), ...]`."""
    text = package_swift.read_text()
    line = re.search(r"platforms:\s*\[([^\]]*)\]", text)
    if not line:
        sys.exit("FAIL: Package.swift declares no platforms")
    minimums = {}
    for name, major, minor in re.findall(r"\.(\w+)\(\.v(\d+)(?:_(\d+))?\)", line.group(1)):
        if name in PLATFORMS:
            minimums[PLATFORMS[name]] = (int(major), int(minor or 0))
    return minimums


def version(introduced):
    return (introduced.get("major", 0), introduced.get("minor", 0))


def stdlib_availability(work):
    """{usr: {platform: (major, minor)}} for every public Swift declaration
    introduced on some Apple platform, with a member's inherited from its
    parents when it declares none itself."""
    triple = subprocess.run([SWIFTC, "-print-target-info"], capture_output=True, text=True, check=True)
    target = json.loads(triple.stdout)["target"]["triple"]
    out = work / "symbolgraph"
    out.mkdir()
    extractor = Path(shutil.which(SWIFTC)).resolve().parent / "swift-symbolgraph-extract"
    subprocess.run(
        [str(extractor), "-module-name", "Swift", "-target", target,
         "-minimum-access-level", "public", "-output-dir", str(out)],
        check=True,
    )
    graph = json.loads((out / "Swift.symbols.json").read_text())
    own = {}
    kinds = {}
    paths = {}
    for symbol in graph["symbols"]:
        usr = symbol["identifier"]["precise"]
        kinds[usr] = symbol["kind"]["identifier"]
        paths[usr] = (kinds[usr], tuple(symbol["pathComponents"]))
        introduced = {}
        for entry in symbol.get("availability", []):
            if entry.get("domain") in PLATFORMS.values() and "introduced" in entry:
                introduced[entry["domain"]] = version(entry["introduced"])
        own[usr] = introduced
    parents = {}
    for relation in graph["relationships"]:
        if relation["kind"] in ("memberOf", "extensionTo", "optionalRequirementOf", "requirementOf"):
            parents.setdefault(relation["source"], []).append(relation["target"])

    resolved = {}

    def effective(usr, depth=0):
        if usr in resolved:
            return resolved[usr]
        result = dict(own.get(usr, {}))
        if depth < 8:
            for parent in parents.get(usr, []):
                for platform, introduced in effective(parent, depth + 1).items():
                    result[platform] = max(result.get(platform, (0, 0)), introduced)
        resolved[usr] = result
        return result

    return {usr: effective(usr) for usr in own}, kinds, paths


TYPE_KINDS = {"swift.struct", "swift.enum", "swift.class", "swift.protocol", "swift.typealias"}


def too_new(availability, minimums):
    return {
        platform: introduced
        for platform, introduced in availability.items()
        if platform in minimums and introduced > minimums[platform]
    }


def line_of(source, offset):
    return source.count(b"\n", 0, offset) + 1


def check_module(name, directory, search_dir, work, flagged, type_fragments):
    sources = sorted(str(path) for path in Path(directory).rglob("*.swift"))
    file_map = {source: {"ast-dump": str(work / f"{name}-{index}.ast.json")} for index, source in enumerate(sources)}
    map_path = work / f"{name}-map.json"
    map_path.write_text(json.dumps(file_map))
    subprocess.run(
        [SWIFTC, *SWIFT_FLAGS, "-module-name", name, "-I", str(search_dir),
         "-dump-ast", "-dump-ast-format", "json", "-output-file-map", str(map_path), *sources],
        check=True, stdout=subprocess.DEVNULL,
    )
    # The module itself, so the next one can import it.
    subprocess.run(
        [SWIFTC, *SWIFT_FLAGS, "-module-name", name, "-I", str(search_dir), "-emit-module",
         "-emit-module-path", str(search_dir / f"{name}.swiftmodule"), *sources],
        check=True,
    )
    findings = []
    for source, outputs in file_map.items():
        dump = Path(outputs["ast-dump"]).read_bytes()
        text = Path(source).read_bytes()
        offset = 0
        seen = set()
        # Each node's range comes before what it refers to, so the last
        # range seen places a reference in the source.
        for match in re.finditer(rb'"range":\{"start":(\d+)|"(s:[^"]*|\$s[^"]*)"', dump):
            if match.group(1) is not None:
                offset = int(match.group(1))
                continue
            token = match.group(2).decode()
            hits = [token] if token in flagged else []
            hits += [usr for fragment, usr in type_fragments if fragment in token]
            for usr in hits:
                key = (usr, line_of(text, offset))
                if key not in seen:
                    seen.add(key)
                    findings.append((source, key[1], usr))
    return findings, len(sources)


def self_test():
    script = Path(__file__).resolve()
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        old, new = work / "Old", work / "New"
        old.mkdir()
        new.mkdir()
        (old / "Old.swift").write_text(
            "func product(_ a: UInt64, _ b: UInt64) -> UInt64 { a &* b }\n"
            "func sum(_ values: [Int]) -> Int { values.reduce(0, +) }\n"
        )
        (new / "New.swift").write_text(
            "struct Slots { var values: InlineArray<4, Int> = [1, 2, 3, 4] }\n"
            "func first(_ values: [Int]) -> Int { values.span[0] }\n"
        )
        passed = subprocess.run([sys.executable, str(script), f"Old:{old}"], capture_output=True, text=True)
        failed = subprocess.run([sys.executable, str(script), f"New:{new}"], capture_output=True, text=True)
    problems = []
    if passed.returncode != 0:
        problems.append(f"a module of old API failed:\n{passed.stderr}")
    if failed.returncode == 0:
        problems.append("a module using InlineArray and Array.span passed")
    for name in ("InlineArray", "span"):
        if name not in failed.stderr:
            problems.append(f"the failure does not name {name}:\n{failed.stderr}")
    if problems:
        sys.exit("FAIL: check-availability self-test: " + "\n".join(problems))
    print("ok: check-availability self-test (InlineArray and Array.span refused, &* and Array accepted)")


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    modules = [argument.split(":", 1) for argument in sys.argv[1:]]
    if not modules or any(len(module) != 2 for module in modules):
        sys.exit(__doc__)
    minimums = declared_minimums(ROOT / "Package.swift")
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        availability, kinds, paths = stdlib_availability(work)
        flagged = {}
        for usr, introduced in availability.items():
            newer = too_new(introduced, minimums)
            if newer:
                flagged[usr] = newer
        # A newer declaration beside an older one of the same name and
        # labels (`FixedWidthInteger.&*` became a requirement in iOS 18,
        # beside the extension's operator every release has): an Apple build
        # resolves to the one available there, so only a name with no
        # available declaration at all is the library's problem.
        available_paths = {paths[usr] for usr in availability if usr not in flagged}
        flagged = {usr: newer for usr, newer in flagged.items() if paths[usr] not in available_paths}
        # A type's mangled name, as it appears inside other USRs and mangled types.
        type_fragments = sorted(
            (usr[2:], usr) for usr in flagged if kinds.get(usr) in TYPE_KINDS and usr.startswith("s:s")
        )
        search_dir = work / "modules"
        search_dir.mkdir()
        failures = []
        counted = 0
        for name, directory in modules:
            findings, files = check_module(name, (ROOT / directory).resolve(), search_dir, work, flagged, type_fragments)
            failures += findings
            counted += files
        platforms = ", ".join(f"{p} {'.'.join(map(str, v))}" for p, v in sorted(minimums.items()))
        if failures:
            print(f"FAIL: standard-library API newer than the declared platforms ({platforms}):", file=sys.stderr)
            for source, line, usr in sorted(set(failures)):
                newer = ", ".join(f"{p} {'.'.join(map(str, v))}" for p, v in sorted(flagged[usr].items()))
                print(f"  {os.path.relpath(source, ROOT)}:{line}: {demangle(usr)} (introduced in {newer})", file=sys.stderr)
            sys.exit(1)
        print(
            f"ok: {counted} files use no standard-library API newer than {platforms} "
            f"({len(flagged)} of {len(availability)} Swift declarations are)"
        )


def demangle(usr):
    try:
        result = subprocess.run(["swift", "demangle", "--compact", "$s" + usr[2:]], capture_output=True, text=True)
        name = result.stdout.strip()
        return name or usr
    except OSError:
        return usr


if __name__ == "__main__":
    main()
