#!/usr/bin/env python3
"""The configure-time layering (cmake/PsLayering.cmake) must be able to fail: on scratch trees,
each rule broken once stops `cmake -P` naming the file and the include, and a tree that keeps
every rule passes. Usage: layering_selftest.py CMAKE cmake/PsLayering.cmake"""
import os
import re
import subprocess
import sys
import tempfile

# The rules as core/CMakeLists.txt and views/CMakeLists.txt state them (a subset is enough).
CHECKS = '''
cmake_minimum_required(VERSION 3.21)
include({layering})
ps_check_core_layering({root} common)
ps_check_core_layering({root} trace DEPENDS common)
ps_check_core_layering({root} analysis DEPENDS trace common)
ps_check_core_sublayering({root} trace memory)
ps_check_core_sublayering({root} trace store DEPENDS memory)
ps_check_core_sublayering({root} analysis breakdown)
ps_check_core_sublayering({root} analysis phases DEPENDS breakdown)
ps_check_views_layering({root} common)
ps_check_views_layering({root} scene DEPENDS common)
ps_check_views_layering({root} stats DEPENDS common scene)
'''

# A tree that keeps every rule: file -> its includes.
CLEAN = {
    'core/common/canceltoken.h': ['<atomic>'],
    'core/trace/memory/torchmemory.h': ['"core/common/canceltoken.h"'],
    'core/trace/store/report.h': ['"core/trace/memory/torchmemory.h"'],
    'core/trace/read/reader.h': ['"core/trace/store/report.h"'],
    'core/analysis/breakdown/breakdown.h': ['"core/trace/store/report.h"'],
    'core/analysis/phases/phases.h': ['"core/analysis/breakdown/breakdown.h"'],
    'core/analysis/runcompare.h': ['"core/analysis/phases/phases.h"'],
    'views/common/latestjob.h': ['"core/common/canceltoken.h"', '<QObject>'],
    'views/scene/scene.h': ['"views/common/latestjob.h"', '"core/trace/store/report.h"'],
    'views/stats/pane.h': ['"views/scene/scene.h"'],
}

# Each broken rule: (file, include added, words the message must hold).
BROKEN = [
    ('core/trace/tracestats.h', '"core/analysis/phases/phases.h"', 'core/trace may include'),
    ('core/common/text.h', '<QString>', 'core may not include Qt'),
    ('core/trace/store/eventstore.h', '"core/trace/read/reader.h"', 'core/trace/store may include'),
    ('core/analysis/breakdown/gpu.h', '"core/analysis/phases/phases.h"', 'core/analysis/breakdown may include'),
    ('core/analysis/phases/rows.h', '"core/analysis/runcompare.h"', "the module's root"),
    ('views/common/helper.h', '"core/trace/store/report.h"', 'views/common may include core/common only'),
    ('views/stats/chart.h', '"views/timeline/canvas.h"', 'views/stats may include'),
]


def write_tree(root, extra=None):
    files = dict(CLEAN)
    if extra:
        files[extra[0]] = files.get(extra[0], []) + [extra[1]]
    for path, includes in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        with open(os.path.join(root, path), 'w') as f:
            f.write('#pragma once\n' + ''.join('#include %s\n' % i for i in includes))


def check(cmake, layering, root):
    script = os.path.join(root, 'check.cmake')
    with open(script, 'w') as f:
        f.write(CHECKS.format(layering=layering, root=root))
    return subprocess.run([cmake, '-P', script], capture_output=True, text=True)


def main():
    cmake, layering = sys.argv[1], os.path.abspath(sys.argv[2])
    failures = []
    with tempfile.TemporaryDirectory() as root:
        write_tree(root)
        r = check(cmake, layering, root)
        if r.returncode != 0:
            failures.append('a clean tree failed: ' + r.stderr)
    for path, include, words in BROKEN:
        with tempfile.TemporaryDirectory() as root:
            write_tree(root, (path, include))
            r = check(cmake, layering, root)
            if r.returncode == 0:
                failures.append('%s including %s passed' % (path, include))
                continue
            said = re.sub(r'\s+', ' ', r.stderr)  # cmake wraps its messages
            if path not in said or include.strip('"<>') not in said or words not in said:
                failures.append('%s including %s: unexpected message: %s' % (path, include, r.stderr))
    for f in failures:
        print('layering_selftest: ' + f, file=sys.stderr)
    print('layering_selftest: %d broken rules each failed, the clean tree passed' % len(BROKEN)
          if not failures else 'layering_selftest: FAILED')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
