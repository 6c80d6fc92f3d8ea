#!/usr/bin/env python3
"""Lists functions longer than a limit (default 80 lines) in the product code.

With --check it is the size guard of the tests (tests/guards): it fails when a function passes
the limit or a views/ file passes 600 lines, other than the known exceptions listed below.
The rule and its reasons: docs/ARCHITECTURE.md, "Guards, tests, benchmarks".

The tree is formatted with its .clang-format, which puts a function's opening brace alone on a
line at the function's own indentation; a type's brace sits the same way after a struct/class/
enum/union head, and is skipped. Lambdas and control blocks open on their statement's line.
Usage: scripts/long-functions.py [--limit N] [DIR...]   (default: core app views)
"""
import argparse
import os
import re
import sys

TYPE_HEAD = re.compile(r'^\s*(template\s*<.*>\s*)?(struct|class|enum|union|namespace)\b')


def functions(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        lines = f.read().split('\n')
    for i, line in enumerate(lines):
        if line.strip() != '{' or i == 0:
            continue
        indent = line[:len(line) - len(line.lstrip())]
        head = lines[i - 1]
        if TYPE_HEAD.match(head) or head.strip().endswith(('=', ',')) or not head.strip():
            continue
        for j in range(i + 1, len(lines)):
            if lines[j] == indent + '}' or lines[j].startswith(indent + '};'):
                yield head.strip(), i, j - i + 2  # signature line to closing brace
                break


VIEWS_FILE_LIMIT = 600

# Functions that may pass the limit: data tables, which read best whole. Named by path and the
# function's signature line.
LONG_FUNCTION_EXCEPTIONS = {
    ('core/demo/nsysschema.cpp', 'const std::vector<const char *> &nsysCreateStatements()'),  # table
    ('core/profiling/rulecatalogue.cpp', 'const std::vector<RuleInfo> &ruleCatalogue()'),  # table
}

# views/ files that may pass VIEWS_FILE_LIMIT: none since the timeline document (#25 item 2) split
# the workspace and the canvas. Add one only with the reason beside it.
LONG_VIEWS_FILE_EXCEPTIONS = set()


def source_files(root, dirs):
    for d in dirs:
        for base, _, files in os.walk(os.path.join(root, d)):
            for name in sorted(files):
                if name.endswith(('.cpp', '.h')):
                    yield os.path.join(base, name)


def check(root, limit):
    """The guard: every offender that is not a known exception, as messages."""
    problems = []
    for path in source_files(root, ['core', 'app', 'views']):
        rel = os.path.relpath(path, root)
        for sig, line, length in functions(path):
            if length > limit and (rel, sig) not in LONG_FUNCTION_EXCEPTIONS:
                problems.append(f'{rel}:{line}: {sig}: {length} lines, over {limit}')
        if rel.startswith('views/') and rel not in LONG_VIEWS_FILE_EXCEPTIONS:
            with open(path, encoding='utf-8', errors='replace') as f:
                n = sum(1 for _ in f)
            if n > VIEWS_FILE_LIMIT:
                problems.append(f'{rel}: {n} lines, over {VIEWS_FILE_LIMIT} for a views/ file')
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--limit', type=int, default=80)
    ap.add_argument('--check', action='store_true',
                    help='fail on any offender that is not a known exception (the size guard)')
    ap.add_argument('--root', help='the tree to check (default: this script\'s)')
    ap.add_argument('dirs', nargs='*', default=['core', 'app', 'views'])
    args = ap.parse_args()
    root = args.root or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if args.check:
        problems = check(root, args.limit)
        for p in problems:
            print(p, file=sys.stderr)
        if problems:
            print('long-functions: split these (functions <= %d lines, views/ files <= %d lines, #25 item 5)'
                  % (args.limit, VIEWS_FILE_LIMIT), file=sys.stderr)
            return 1
        print('long-functions: no function over %d lines, no views/ file over %d' % (args.limit, VIEWS_FILE_LIMIT))
        return 0
    found = []
    for path in source_files(root, args.dirs):
        for sig, line, length in functions(path):
            if length > args.limit:
                found.append((length, os.path.relpath(path, root), line, sig))
    for length, path, line, sig in sorted(found, reverse=True):
        print(f'{length:4d}  {path}:{line}  {sig}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
