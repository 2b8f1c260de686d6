#!/usr/bin/env python3
"""The code of a WebAssembly module by function, largest first: each body's
bytes in the code section, named from the module's name section (demangled
with `swift demangle` when it is on the PATH). With a second module, the
functions that differ between the two, by how much each grew: what a change
added to the module (docs/wasm.md, "Size, speed, memory"; ADR 0041).

`make wasm` strips the names; link the objects it leaves again without
`--strip-all` to keep them:

    T=$(dirname $(command -v swiftc)); M=.build/wasm/modules
    $T/wasm-ld --no-entry --gc-sections --compress-relocations --strip-debug -z stack-size=131072 -o /tmp/named.wasm \\
      $M/NotificationWasm.o $M/NotificationEngine.o $M/EnginePrimitives.o $M/runtime.o \\
      $T/../lib/swift/embedded/wasm32-unknown-none-wasm/libswiftUnicodeDataTables.a /usr/lib/wasm32-wasi/libc.a
    checks/wasm/function_sizes.py /tmp/named.wasm [--before /tmp/named-before.wasm] [--top 40]
"""

import argparse
import shutil
import subprocess
from collections import Counter


def uleb(data, position):
    value = shift = 0
    while True:
        byte = data[position]
        position += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, position


def function_sizes(path):
    """{name: bytes} of the module's function bodies (a name repeated: summed)."""
    data = open(path, "rb").read()
    position, imported, bodies, names = 8, 0, [], {}
    while position < len(data):
        section = data[position]
        size, position = uleb(data, position + 1)
        end = position + size
        if section == 2:  # imports: functions are numbered after the imported ones
            count, at = uleb(data, position)
            for _ in range(count):
                for _ in range(2):
                    length, at = uleb(data, at)
                    at += length
                kind = data[at]
                at += 1
                if kind == 0:
                    imported += 1
                    _, at = uleb(data, at)
                elif kind in (1, 2):
                    at += kind == 1
                    flags, at = uleb(data, at)
                    _, at = uleb(data, at)
                    if flags & 1:
                        _, at = uleb(data, at)
                else:
                    at += 2
        elif section == 10:
            count, at = uleb(data, position)
            for _ in range(count):
                length, body = uleb(data, at)
                bodies.append(length + body - at)
                at = body + length
        elif section == 0:
            length, at = uleb(data, position)
            if data[at:at + length] == b"name":
                at += length
                while at < end:
                    kind = data[at]
                    length, at = uleb(data, at + 1)
                    if kind == 1:
                        count, entry = uleb(data, at)
                        for _ in range(count):
                            index, entry = uleb(data, entry)
                            length_, entry = uleb(data, entry)
                            names[index] = data[entry:entry + length_].decode("utf-8", "replace")
                            entry += length_
                    at += length
        position = end
    sizes = Counter()
    for index, size in enumerate(bodies):
        sizes[names.get(index + imported, f"function {index + imported}")] += size
    return sizes


def demangled(names):
    if not names or not shutil.which("swift"):
        return dict(zip(names, names))
    run = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(names),
                         capture_output=True, text=True)
    return dict(zip(names, run.stdout.split("\n")))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("module")
    parser.add_argument("--before", help="a module to compare with: list what grew, shrank, came and went")
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    sizes = function_sizes(args.module)
    print(f"{args.module}: {sum(sizes.values()):,} bytes of code in {len(sizes)} functions")
    if args.before:
        before = function_sizes(args.before)
        print(f"{args.before}: {sum(before.values()):,} bytes of code in {len(before)} functions")
        rows = Counter({name: sizes[name] - before[name] for name in set(sizes) | set(before)
                        if sizes[name] != before[name]})
    else:
        rows = sizes
    shown = [name for name, _ in rows.most_common(args.top)]
    readable = demangled(shown)
    for name in shown:
        print(f"{rows[name]:>8,}  {readable.get(name) or name}")


if __name__ == "__main__":
    main()
