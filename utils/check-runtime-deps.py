#!/usr/bin/env python3
"""Checks that the built tools need, at run time, only what
scripts/install-deps.sh installs (issue 29: a green CI on a developer's
machine once hid a missing install step).

For every executable in BIN_DIR, `ldd` lists the shared libraries it loads;
each must belong to a Debian package that the script installs, one those
depend on (recursively), or one that every Debian system has (Essential or
priority required/important). A library from no package (installed by hand,
/usr/local, a pip wheel) or from another package is reported, as is a
library ldd cannot find.

    python3 utils/check-runtime-deps.py build/bin

Prints one line per tool and exits 1 on any finding.
"""

import functools
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def installed_by_script():
    """The Debian packages scripts/install-deps.sh lists."""
    with open(os.path.join(ROOT, "scripts", "install-deps.sh")) as f:
        text = f.read()
    match = re.search(r"packages=\(([^)]*)\)", text)
    if not match:
        sys.exit("check-runtime-deps: no packages=(...) in install-deps.sh")
    return set(match.group(1).split())


def with_dependencies(packages):
    """`packages` and everything they depend on, recursively."""
    output = subprocess.run(
        ["apt-cache", "depends", "--recurse", "--no-recommends",
         "--no-suggests", "--no-conflicts", "--no-breaks", "--no-replaces",
         "--no-enhances", "--installed"] + sorted(packages),
        capture_output=True, text=True, check=True).stdout
    closure = set(packages)
    for line in output.splitlines():
        line = line.strip()
        if line.startswith(("Depends:", "PreDepends:")):
            line = line.split(":", 1)[1].strip()
        closure.add(line.strip("<>").split(":")[0])
    return closure


def base_system():
    """The packages every Debian system has."""
    output = subprocess.run(
        ["dpkg-query", "-W", "-f", "${Package} ${Essential} ${Priority}\n"],
        capture_output=True, text=True, check=True).stdout
    packages = set()
    for line in output.splitlines():
        name, essential, priority = (line.split() + ["", ""])[:3]
        if essential == "yes" or priority in ("required", "important"):
            packages.add(name)
    return packages


@functools.lru_cache(maxsize=None)
def owner(path):
    """The package that owns `path` (or its /usr-merged twin), or None."""
    real = os.path.realpath(path)
    candidates = {path, real}
    for p in list(candidates):
        if p.startswith("/usr/lib/"):
            candidates.add(p[len("/usr"):])
        elif p.startswith("/lib/"):
            candidates.add("/usr" + p)
    for candidate in sorted(candidates):
        result = subprocess.run(["dpkg", "-S", candidate],
                                capture_output=True, text=True)
        if result.returncode == 0:
            return result.stdout.split(":")[0].strip()
    return None


def libraries(binary):
    """(name, path or None) for each library `binary` loads."""
    output = subprocess.run(["ldd", binary], capture_output=True,
                            text=True).stdout
    found = []
    for line in output.splitlines():
        line = line.strip()
        if "=>" in line:
            name, target = [part.strip() for part in line.split("=>", 1)]
            path = target.split(" (")[0].strip()
            found.append((name, None if path == "not found" else path))
        elif line.startswith("/"):
            found.append((line.split(" (")[0], line.split(" (")[0]))
    return found


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    bin_dir = sys.argv[1]
    allowed = with_dependencies(installed_by_script()) | base_system()
    findings = 0
    tools = sorted(name for name in os.listdir(bin_dir)
                   if os.access(os.path.join(bin_dir, name), os.X_OK))
    if not tools:
        sys.exit("check-runtime-deps: no executables in " + bin_dir)
    for tool in tools:
        packages = set()
        for name, path in libraries(os.path.join(bin_dir, tool)):
            if path is None:
                print(f"{tool}: {name} is not found")
                findings += 1
                continue
            package = owner(path)
            if package is None:
                print(f"{tool}: {path} belongs to no Debian package "
                      "(installed by hand?)")
                findings += 1
            elif package not in allowed:
                print(f"{tool}: {path} comes from {package}, which "
                      "scripts/install-deps.sh does not install")
                findings += 1
            else:
                packages.add(package)
        print(f"{tool}: {len(packages)} packages, all installed by "
              "scripts/install-deps.sh or the base system")
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
