#!/usr/bin/env python3
"""Checks what a release binary still links dynamically, and that the image ships it.

A `--static-swift-stdlib` build must need nothing from the Swift toolchain at
run time: every library `ldd` lists has to be on the allow-list below (the C
library family, the C++ runtime, libevent), and each has to come from a Debian
package that the runtime image either starts with (bookworm-slim's own) or
installs in the last stage of deploy/Dockerfile.

Usage: check_libraries.py BINARY DOCKERFILE
Prints the library → package table, then one line per failure; exits 1 on any.
"""

import pathlib
import re
import subprocess
import sys

# Sonames a deployable binary may load. Anything else fails, so a new
# dependency is a deliberate edit here and in the Dockerfile.
ALLOWED_SONAMES = [
    r"linux-vdso\.so\.1",
    r"ld-linux-(x86-64|aarch64)\.so\.[12]",
    r"libc\.so\.6",
    r"libm\.so\.6",
    r"libpthread\.so\.0",
    r"libdl\.so\.2",
    r"librt\.so\.1",
    r"libutil\.so\.1",
    r"libstdc\+\+\.so\.6",
    r"libgcc_s\.so\.1",
    r"libevent(_core|_extra|_pthreads)?-2\.1\.so\.7",
]

# Named so the failure says why: these mean the Swift runtime was not linked statically.
SWIFT_RUNTIME = re.compile(r"^(libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime|libicu|libXCTest)")

# Packages every debian:bookworm-slim image already holds (apt itself needs them).
SLIM_BASE_PACKAGES = {"libc6", "libgcc-s1", "libstdc++6"}


def linked_libraries(binary):
    """(soname, resolved path or None) for each ldd line."""
    output = subprocess.run(["ldd", binary], check=True, capture_output=True, text=True).stdout
    libraries = []
    for line in output.splitlines():
        line = line.strip()
        if not line:
            continue
        if "=>" in line:
            soname, _, rest = line.partition("=>")
            rest = rest.strip()
            path = None if rest.startswith("not found") else rest.split(" (")[0].strip() or None
            libraries.append((soname.strip(), path))
        else:
            path = line.split(" (")[0].strip()
            libraries.append((pathlib.PurePath(path).name, path if path.startswith("/") else None))
    return libraries


def owning_package(path):
    candidates = [path]
    if path.startswith("/usr/"):
        candidates.append(path[len("/usr"):])
    else:
        candidates.append("/usr" + path)
    candidates.append(str(pathlib.Path(path).resolve()))
    for candidate in candidates:
        result = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True)
        if result.returncode == 0:
            return result.stdout.split(":")[0].strip()
    return None


def runtime_packages(dockerfile):
    """Packages named by `apt-get install` in the Dockerfile's last stage."""
    text = pathlib.Path(dockerfile).read_text(encoding="utf-8")
    last_stage = re.split(r"(?m)^FROM\s", text)[-1]
    joined = re.sub(r"\\\n", " ", last_stage)
    packages = set()
    for match in re.finditer(r"apt-get install ([^&\n]*)", joined):
        packages.update(word.split("=")[0] for word in match.group(1).split() if not word.startswith("-"))
    return packages


def main(argv):
    binary, dockerfile = argv[1], argv[2]
    installed = runtime_packages(dockerfile)
    failures = []
    for soname, path in linked_libraries(binary):
        package = owning_package(path) if path and soname != "linux-vdso.so.1" else None
        print(f"  {soname:34} {path or '-':50} {package or '-'}")
        if SWIFT_RUNTIME.match(soname):
            failures.append(f"{soname}: Swift runtime linked dynamically (expected --static-swift-stdlib)")
            continue
        if not any(re.fullmatch(pattern, soname) for pattern in ALLOWED_SONAMES):
            failures.append(f"{soname}: not on the allow-list of deployable libraries")
            continue
        if soname == "linux-vdso.so.1":
            continue
        if path is None:
            failures.append(f"{soname}: not found")
        elif package is None:
            failures.append(f"{soname}: {path} belongs to no Debian package")
        elif package not in SLIM_BASE_PACKAGES and package not in installed:
            failures.append(f"{soname}: package {package} is neither in bookworm-slim nor installed by the"
                            f" Dockerfile's runtime stage ({', '.join(sorted(installed))})")
    for failure in failures:
        print(f"FAIL {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
