#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails when an #include crosses a layer the wrong way (docs/design.md, "Layout").

Every source folder has a layer; a file may include headers of its own layer and of the layers it sits on, never
of one above it, and the libraries below ui/ include no Qt. Perfetto's include-violation presubmit is the model:
a table of allowed targets per folder, checked over the #include lines alone, so it runs in a second.

Usage: scripts/check_layers.py [--root DIR]   (exit 1 and one line per violation when any)
"""
import argparse
import os
import re
import sys

# Folder prefix -> the prefixes its files may include (its own prefix is always allowed). Longest prefix wins.
ANALYSIS_TRACE = ["profiler/", "analysis/trace/"]
ALLOWED = {
    "profiler/": ["profiler/"],
    "analysis/trace/": ANALYSIS_TRACE,
    "analysis/findings/": ANALYSIS_TRACE + ["analysis/findings/"],
    "analysis/reports/": ANALYSIS_TRACE + ["analysis/reports/"],
    "analysis/render/": ANALYSIS_TRACE + ["analysis/findings/", "analysis/reports/", "analysis/render/"],
    "analysis/diff/": ANALYSIS_TRACE + ["analysis/findings/", "analysis/reports/", "analysis/render/", "analysis/diff/"],
    # a whole job's ranks: per-rank summaries and the cross-rank reduce, over the reports' table model
    "analysis/job/": ANALYSIS_TRACE + ["analysis/reports/", "analysis/job/"],
    # placement's folders in their order: the engine and graphs at the bottom, proposals at the top.
    "placement/engine/": ["profiler/", "analysis/", "placement/engine/"],
    "placement/graph/": ["profiler/", "analysis/", "placement/graph/"],
    "placement/cost/": ["profiler/", "analysis/", "placement/engine/", "placement/graph/", "placement/cost/"],
    "placement/layout/": ["profiler/", "analysis/", "placement/engine/", "placement/graph/", "placement/cost/",
                          "placement/layout/"],
    "placement/proposal/": ["profiler/", "analysis/", "placement/"],
    "whatif/": ["profiler/", "analysis/", "placement/", "whatif/"],
    "ui/": ["profiler/", "analysis/", "placement/", "whatif/", "ui/", "resources/"],
    "app/": ["profiler/", "analysis/", "placement/", "whatif/", "ui/", "app/", "resources/"],
}
# Project folders an include can name; anything else in quotes is a system or third-party header.
PROJECT_ROOTS = ("profiler/", "analysis/", "placement/", "whatif/", "ui/", "app/", "tests/", "bench/")
NO_QT = ("profiler/", "analysis/", "placement/", "whatif/")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
QT_HEADER = re.compile(r"^Q[A-Za-z]|^Qt[A-Za-z]*/")


def layer_of(path):
    best = None
    for prefix in ALLOWED:
        if path.startswith(prefix) and (best is None or len(prefix) > len(best)):
            best = prefix
    return best


def violations(root):
    found = []
    for top in ("profiler", "analysis", "placement", "whatif", "ui", "app"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith((".h", ".hpp", ".cpp", ".cc")):
                    continue
                path = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
                layer = layer_of(path)
                if layer is None:
                    found.append(f"{path}: in no layer (add its folder to scripts/check_layers.py)")
                    continue
                allowed = ALLOWED[layer] + [layer]
                with open(os.path.join(root, path), encoding="utf-8", errors="replace") as source:
                    for number, line in enumerate(source, 1):
                        match = INCLUDE.match(line)
                        if not match:
                            continue
                        target = match.group(2)
                        if target.startswith(PROJECT_ROOTS) and not target.startswith(tuple(allowed)):
                            found.append(f"{path}:{number}: includes {target} ({layer} may include "
                                         f"{', '.join(sorted(set(allowed)))})")
                        elif path.startswith(NO_QT) and QT_HEADER.match(target):
                            found.append(f"{path}:{number}: includes Qt header {target} ({layer} builds without Qt)")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    root = parser.parse_args().root
    if not os.path.isdir(os.path.join(root, "profiler")):
        print(f"check_layers: {root} is not a Placescope source tree (no profiler/)", file=sys.stderr)
        return 2
    found = violations(root)
    for line in found:
        print(line)
    if found:
        print(f"check_layers: {len(found)} include(s) cross a layer the wrong way", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
