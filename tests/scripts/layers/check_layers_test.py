#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# scripts/check_layers.py on small trees written here: a wrong-way include and a Qt header below ui/ must fail
# with the file and line named; includes down the layers and from tests/ must pass. Then the real tree must pass.
import os
import subprocess
import sys
import tempfile

SCRIPT = sys.argv[1]
REAL_ROOT = sys.argv[2]


def run(root):
    result = subprocess.run([sys.executable, SCRIPT, "--root", root], capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


def tree(files):
    root = tempfile.mkdtemp()
    for path, text in files.items():
        os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(root, path), "w") as out:
            out.write(text)
    return root


failures = []


def expect(name, files, want_rc, want_text=None):
    rc, output = run(tree(files))
    if rc != want_rc or (want_text and want_text not in output):
        failures.append(f"{name}: exit {rc}, output {output!r} (wanted exit {want_rc} and {want_text!r})")


base = {"profiler/base/units.h": "#pragma once\n#include <string>\n"}
expect("down the layers", {**base,
       "analysis/findings/rule.cpp": '#include "analysis/trace/trace_data.h"\n#include "profiler/base/units.h"\n',
       "whatif/replay.cpp": '#include "placement/engine/list_scheduler.h"\n#include "analysis/findings/finding.h"\n',
       "tests/whatif/x_test.cpp": '#include "whatif/replay.h"\n#include <QTest>\n'}, 0)
expect("findings including the replay", {**base,
       "analysis/findings/analyzer.cpp": '// a comment\n#include "whatif/trace_replay.h"\n'}, 1,
       "analysis/findings/analyzer.cpp:2: includes whatif/trace_replay.h")
expect("trace including findings", {**base,
       "analysis/trace/steps.h": '#include "analysis/findings/finding_rule.h"\n'}, 1,
       "analysis/trace/steps.h:1: includes analysis/findings/finding_rule.h")
expect("the engine including proposals", {**base,
       "placement/engine/planner.cpp": '#include "placement/proposal/model_proposal.h"\n'}, 1,
       "placement/engine/planner.cpp:1")
expect("Qt below ui", {**base, "placement/cost/x.cpp": "#include <QString>\n"}, 1, "Qt header QString")
expect("profiler including analysis", {**base, "profiler/store/x.cpp": '#  include "analysis/diff/run_diff.h"\n'}, 1,
       "profiler/store/x.cpp:1")
rc, output = run(tempfile.mkdtemp())
if rc != 2:
    failures.append(f"not a source tree: exit {rc}, wanted 2")
rc, output = run(REAL_ROOT)
if rc != 0:
    failures.append(f"the source tree has wrong-way includes:\n{output}")

for failure in failures:
    print("FAIL", failure)
print(f"{8 - len(failures)} of 8 checks passed")
sys.exit(1 if failures else 0)
