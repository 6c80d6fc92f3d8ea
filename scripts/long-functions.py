#!/usr/bin/env python3
"""Lists functions longer than a limit (default 80 lines) in the product code.

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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--limit', type=int, default=80)
    ap.add_argument('dirs', nargs='*', default=['core', 'app', 'views'])
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    found = []
    for d in args.dirs:
        for base, _, files in os.walk(os.path.join(root, d)):
            for name in files:
                if name.endswith(('.cpp', '.h')):
                    path = os.path.join(base, name)
                    for sig, line, length in functions(path):
                        if length > args.limit:
                            found.append((length, os.path.relpath(path, root), line, sig))
    for length, path, line, sig in sorted(found, reverse=True):
        print(f'{length:4d}  {path}:{line}  {sig}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
