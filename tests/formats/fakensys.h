#pragma once
// Stand-in `nsys` scripts for tst_nsysrepreader: each records its argv (one argument per line)
// and behaves like one outcome of `nsys export`; each says it is release 2025.6.1 when asked
// (`nsys --version`, which the reader asks first).

#include <QFile>
#include <QString>

namespace fakensys {

// Copies testdata/traces/nsys/<stem>.sqlite (the pair of the .nsys-rep) to the --output path,
// printing nsys-like progress.
inline const char *const kCopy = R"SH(#!/bin/sh
[ "$1" = "--version" ] && { echo "NVIDIA Nsight Systems version 2025.6.1.190-fake"; exit 0; }
printf '%s\n' "$@" > "$FAKE_NSYS_ARGV"
out=""
prev=""
for a in "$@"; do
  if [ "$prev" = "--output" ]; then out="$a"; fi
  prev="$a"
  rep="$a"
done
stem=$(basename "$rep" .nsys-rep)
# Progress as nsys draws it (one line redrawn with \r), both steps in one write, so that the
# reader sees them in one read: each step must still be reported.
printf 'Processing [=========>           ] 50%%\rProcessing [=====================] 100%%\n'
cp "$FAKE_NSYS_TESTDATA/traces/nsys/$stem.sqlite" "$out" || exit 1
)SH";

// Hangs until killed (for Cancel).
inline const char *const kHang = R"SH(#!/bin/sh
[ "$1" = "--version" ] && { echo "NVIDIA Nsight Systems version 2025.6.1.190-fake"; exit 0; }
printf '%s\n' "$@" > "$FAKE_NSYS_ARGV"
echo "Processing [>                    ] 1%"
exec sleep 60
)SH";

// Fails like nsys does on a damaged report.
inline const char *const kFail = R"SH(#!/bin/sh
[ "$1" = "--version" ] && { echo "NVIDIA Nsight Systems version 2025.6.1.190-fake"; exit 0; }
printf '%s\n' "$@" > "$FAKE_NSYS_ARGV"
echo "Failed to open the report: boom" >&2
exit 3
)SH";

inline bool install(const QString &dir, const char *script)
{
    QFile f(dir + "/nsys");
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    f.write(script);
    f.close();
    return f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
}

} // namespace fakensys
