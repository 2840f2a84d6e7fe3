#!/usr/bin/env python3
"""Fails if an installed ExoGPU, or a project built against it, names the
ExoGPU source or build tree (test/Embedding: the install must be usable on
its own).

  check-install-paths.py --forbid SRC --forbid BUILD --allow TMP PATH...

Reads every text file under each PATH (binary files, such as the static
libraries, are skipped) and reports each occurrence of a --forbid directory,
as a path, that does not lie under an --allow directory (the test's own
temporary directory, which sits inside the build tree). Prints how many
files it read and exits 0 when there is none, else lists them and exits 1.
"""

import argparse
import os
import re
import sys


def text_files(paths):
    for path in paths:
        if os.path.isfile(path):
            yield path
            continue
        for root, _, names in os.walk(path):
            for name in sorted(names):
                yield os.path.join(root, name)


# What may follow a directory named as a path.
PATH_END = "/\"';:) \t\r\n"


def names_dir(text, start, directory):
    """Whether `text` names `directory`, or a path under it, at `start`."""
    end = start + len(directory)
    return text.startswith(directory, start) and (end == len(text) or
                                                 text[end] in PATH_END)


def read_text(path):
    with open(path, "rb") as f:
        data = f.read()
    if b"\0" in data:
        return None
    return data.decode("utf-8", errors="replace")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--forbid", action="append", required=True)
    parser.add_argument("--allow", action="append", default=[])
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()

    forbidden = [os.path.realpath(d) for d in args.forbid]
    allowed = [os.path.realpath(d) for d in args.allow]
    pattern = re.compile("|".join(re.escape(d) for d in forbidden))
    checked = 0
    found = []
    for path in text_files(args.paths):
        text = read_text(path)
        if text is None:
            continue
        checked += 1
        for match in pattern.finditer(text):
            start = match.start()
            if (not any(names_dir(text, start, d) for d in forbidden) or
                    any(names_dir(text, start, a) for a in allowed)):
                continue
            line = text.count("\n", 0, start) + 1
            end = text.find("\n", start)
            found.append("%s:%d: %s" % (path, line, text[start:end][:160]))
    if found:
        print("\n".join(found))
        print("%d path(s) into the source or build tree in %d file(s)" %
              (len(found), checked))
        return 1
    print("%d files: no path into the source or build tree" % checked)
    return 0


if __name__ == "__main__":
    sys.exit(main())
