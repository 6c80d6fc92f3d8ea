#!/usr/bin/env python3
"""Lists functions longer than a limit (default 80 lines) in the product code.

With --check it is the size guard of the tests (tests/guards): it fails when a function passes
the limit, a views/ file passes 600 lines, or a class declares more than 80 members (member
functions and data members: what the class is, however many files define it), other than the
known exceptions listed below.
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


CLASS_MEMBER_LIMIT = 80

# Classes that may pass CLASS_MEMBER_LIMIT, each up to its figure here, so that none grows while
# it waits to be split. Counted as class_members() counts.
CLASS_MEMBER_EXCEPTIONS = {
    # The document of the Timeline: reports, scene, view state, loads, nudges and sessions.
    ('views/timeline/timelinedocument.h', 'TimelineDocument'): 101,
    # The canvas's input, painting and overlays behind one widget (#25 split its files, not it).
    ('views/timeline/timelinecanvas.h', 'TimelineCanvas'): 100,
}

CLASS_HEAD = re.compile(r'^(\s*)(?:class|struct)\s+(?:\w+\s+)?(\w+)(\s+final)?\s*(:.*)?$')
ACCESS = re.compile(r'^((public|protected|private)(\s+(slots|Q_SLOTS))?|signals|Q_SIGNALS)\s*:')
NOT_MEMBERS = ('//', '#', 'Q_OBJECT', 'Q_GADGET', 'Q_PROPERTY', 'Q_ENUM', 'friend ', 'using ', 'static_assert',
               'Q_DISABLE_COPY', 'template')


def declarators(statement):
    """Data members a declaration names: `int a = 0, *b = nullptr;` is two."""
    head = statement.split('=')[0] if statement.count('=') <= 1 else statement
    depth, commas = 0, 0
    for ch in head:
        if ch in '(<{[':
            depth += 1
        elif ch in ')>}]':
            depth -= 1
        elif ch == ',' and depth == 0:
            commas += 1
    return 1 + commas


def class_members(path):
    """(class, line, members) for each class or struct a header defines at the top of a line:
    its member functions and data members, nested types and access labels aside."""
    with open(path, encoding='utf-8', errors='replace') as f:
        lines = f.read().split('\n')
    i = 0
    while i < len(lines):
        m = CLASS_HEAD.match(lines[i])
        if not (m and i + 1 < len(lines) and lines[i + 1] == m.group(1) + '{'):
            i += 1
            continue
        outer, member = m.group(1), m.group(1) + '    '
        count, j = 0, i + 2
        while j < len(lines) and not lines[j].startswith(outer + '};'):
            text = lines[j].strip()
            starts = lines[j].startswith(member) and not lines[j].startswith(member + ' ') and text
            if not starts or ACCESS.match(text) or text.startswith(NOT_MEMBERS) or text in ('{', '}', '};'):
                j += 1
                continue
            if re.match(r'(enum|struct|class|union)\b', text) and not text.endswith(';'):
                while j + 1 < len(lines) and not lines[j + 1].startswith(member + '}'):
                    j += 1  # a nested type: its members are its own
                j += 2
                continue
            statement = text
            while not statement.endswith((';', '}')) and j + 1 < len(lines) and lines[j + 1].startswith(member + ' '):
                j += 1
                statement += ' ' + lines[j].strip()
            count += 1 if '(' in statement.split('=')[0] else declarators(statement)
            j += 1
        yield m.group(2), i + 1, count
        i = j + 1


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
        if path.endswith('.h'):
            for name, line, members in class_members(path):
                limit = CLASS_MEMBER_EXCEPTIONS.get((rel, name), CLASS_MEMBER_LIMIT)
                if members > limit:
                    problems.append(f'{rel}:{line}: class {name}: {members} members, over {limit}')
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
            print('long-functions: split these (functions <= %d lines, views/ files <= %d lines, classes <= %d '
                  'members; #25 item 5, #40)' % (args.limit, VIEWS_FILE_LIMIT, CLASS_MEMBER_LIMIT), file=sys.stderr)
            return 1
        print('long-functions: no function over %d lines, no views/ file over %d, no class over %d members'
              % (args.limit, VIEWS_FILE_LIMIT, CLASS_MEMBER_LIMIT))
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
