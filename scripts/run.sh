#!/usr/bin/env bash
# The run command of the README: installs dependencies, builds (Release), writes the built-in
# demo run and opens it in the GUI. Without a display the main window is rendered offscreen to a
# PNG whose path is printed, followed by the CLI's summary of the demo run.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/install-deps.sh"

build="$root/build/release"
cd "$root"
cmake --preset release >/dev/null
cmake --build --preset release --parallel "$(nproc)"

demo="$root/build/demo-run"
"$build/bin/profstudio-cli" demo --out "$demo" >/dev/null

if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
  shot="$root/build/profstudio-demo.png"
  QT_QPA_PLATFORM=offscreen "$build/bin/profstudio" --screenshot timeline --out "$shot" "$demo"
  echo "No display: rendered the main window to $shot"
  echo
  "$build/bin/profstudio-cli" trace info "$demo"
  echo
  "$build/bin/profstudio-cli" trace stats --report compare --top 10 "$demo"
else
  exec "$build/bin/profstudio" "$demo"
fi
