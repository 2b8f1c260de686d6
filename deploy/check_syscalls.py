#!/usr/bin/env python3
"""Checks a traced run of `serve` against the systemd unit's sandbox.

systemd is not PID 1 where the checks run, so the unit's sandbox cannot be
started for real. Instead check.sh runs the smoke test under `strace -f`, and
this script holds what the service actually did against what the unit allows:
- every system call is inside the unit's SystemCallFilter (the groups expanded
  by `systemd-analyze syscall-filter`, allow-lists and ~deny-lists in order);
- every socket() uses a family in RestrictAddressFamilies;
- no mapping is both writable and executable and no mprotect() adds
  PROT_EXEC (what MemoryDenyWriteExecute forbids).

Usage: check_syscalls.py STRACE_LOG UNIT_FILE BINARY
Only lines after the successful execve of BINARY count (strace starts it
through a shell that records its pid).
"""

import re
import subprocess
import sys

CALL = re.compile(r"^\d+\s+(?:<\.\.\. )?([a-z_0-9]+)(?:\(| resumed>)")


def syscall_groups():
    output = subprocess.run(["systemd-analyze", "syscall-filter"], check=True,
                            capture_output=True, text=True).stdout
    groups, current = {}, None
    for line in output.splitlines():
        if line.startswith("@"):
            current = line.strip()
            groups[current] = []
        elif current and line.strip() and not line.strip().startswith("#"):
            groups[current].append(line.strip())
    return groups


def expand(names, groups):
    result = set()
    for name in names:
        if name.startswith("@"):
            result |= expand(groups.get(name, []), groups)
        else:
            result.add(name.split(":")[0])
    return result


def unit_settings(path, key):
    values = []
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line.startswith(key + "="):
            values.append(line[len(key) + 1:])
    return values


def allowed_syscalls(unit, groups):
    """systemd's rule: the first setting decides allow- or deny-list mode."""
    allowed = None
    for value in unit_settings(unit, "SystemCallFilter"):
        deny = value.startswith("~")
        names = expand(value.lstrip("~").split(), groups)
        if allowed is None:
            allowed = ("deny", names) if deny else ("allow", names)
        elif allowed[0] == "allow":
            allowed = ("allow", allowed[1] - names if deny else allowed[1] | names)
        else:
            allowed = ("deny", allowed[1] | names if deny else allowed[1] - names)
    return allowed


def traced_lines(log, binary):
    lines = open(log, encoding="utf-8", errors="replace").read().splitlines()
    start = next((i for i, line in enumerate(lines)
                  if f'execve("{binary}"' in line and "= 0" in line), None)
    return None if start is None else lines[start + 1:]


def main(argv):
    log, unit, binary = argv[1], argv[2], argv[3]
    lines = traced_lines(log, binary)
    if lines is None:
        print(f"FAIL no successful execve of {binary} in {log}")
        return 1
    failures = []
    used = {match.group(1) for line in lines if (match := CALL.match(line))}
    mode, names = allowed_syscalls(unit, syscall_groups())
    outside = sorted(used - names) if mode == "allow" else sorted(used & names)
    if outside:
        failures.append(f"system calls outside the unit's SystemCallFilter: {', '.join(outside)}")

    families = set(" ".join(unit_settings(unit, "RestrictAddressFamilies")).split())
    for line in lines:
        match = re.search(r"\bsocket\((AF_[A-Z0-9]+)", line)
        if match and match.group(1) not in families:
            failures.append(f"socket family {match.group(1)} outside RestrictAddressFamilies")
        if re.search(r"\bmmap\(", line) and "PROT_WRITE" in line and "PROT_EXEC" in line:
            failures.append(f"writable and executable mapping: {line.strip()}")
        if re.search(r"\bmprotect\(", line) and "PROT_EXEC" in line:
            failures.append(f"mprotect adding PROT_EXEC: {line.strip()}")

    for failure in sorted(set(failures)):
        print(f"FAIL {failure}")
    if not failures:
        print(f"{len(used)} distinct system calls, all inside SystemCallFilter; sockets "
              f"{', '.join(sorted(families))} only; no writable executable memory")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
