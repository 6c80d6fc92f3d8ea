#!/usr/bin/env python3
"""The size guard must be able to fail: in a scratch tree, an 81-line function in core/, a
601-line views/ file and a class of 81 members (functions and data, some declared two to a line)
are each reported (exit 1); an 80-line function, a 600-line views/ file and an 80-member class
with a nested struct of its own are not (exit 0). Usage: sizeguard_selftest.py scripts/long-functions.py"""
import os
import subprocess
import sys
import tempfile


def function(name, body_lines):
    return 'int %s()\n{\n' % name + '    int x = 0;\n' * body_lines + '    return x;\n}\n'


def klass(name, functions, data):
    """A class of `functions` member functions and `data` data members, the data two to a line."""
    body = ''.join('    void f%d();\n' % i for i in range(functions))
    body += '    struct Nested\n    {\n        int a = 0;\n        int b = 0;\n    };\n'
    body += ''.join('    int m_a%d = 0, m_b%d = 0;\n' % (i, i) for i in range(data // 2))
    body += '    int m_last = 0;\n' * (data % 2)
    return 'class %s : public Base\n{\n    Q_OBJECT\npublic:\n%s};\n' % (name, body)


def run(guard, root):
    return subprocess.run([sys.executable, guard, '--check', '--root', root], capture_output=True, text=True)


def main():
    guard = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as root:
        for d in ('core/trace', 'views/timeline', 'app/cli'):
            os.makedirs(os.path.join(root, d))
        # 1 signature + 1 brace + 77 body + 1 return + 1 brace = 81 lines.
        with open(os.path.join(root, 'core/trace/ok.cpp'), 'w') as f:
            f.write(function('fits', 76))
        with open(os.path.join(root, 'views/timeline/ok.cpp'), 'w') as f:
            f.write('// line\n' * 600)
        with open(os.path.join(root, 'core/trace/fits.h'), 'w') as f:
            f.write(klass('Fits', 50, 30))
        r = run(guard, root)
        if r.returncode != 0:
            failures.append('a clean tree failed: ' + r.stderr)
        with open(os.path.join(root, 'core/trace/long.cpp'), 'w') as f:
            f.write(function('tooLong', 77))
        with open(os.path.join(root, 'views/timeline/big.cpp'), 'w') as f:
            f.write('// line\n' * 601)
        with open(os.path.join(root, 'app/cli/big.h'), 'w') as f:
            f.write(klass('TooBig', 50, 31))
        r = run(guard, root)
        if r.returncode != 1:
            failures.append('offenders passed: exit %d' % r.returncode)
        for expected in ('core/trace/long.cpp:1: int tooLong(): 81 lines', 'views/timeline/big.cpp: 601 lines',
                         'app/cli/big.h:1: class TooBig: 81 members, over 80'):
            if expected not in r.stderr:
                failures.append('not reported: %s\n%s' % (expected, r.stderr))
    for f in failures:
        print('FAIL:', f)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
