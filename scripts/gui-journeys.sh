#!/usr/bin/env bash
# Drives the real desktop app under a virtual X server (Xvfb, 1366x768: a laptop) with xdotool
# through the journeys a new user takes, and saves a screenshot after each step. Not part of the
# test run: look at the screenshots. The offscreen QTests (tests/views, tests/timeline,
# tests/configure) assert the same journeys' outcomes.
#
#   scripts/gui-journeys.sh [OUT_DIR]        (default build/gui-journeys)
#
# Needs: xvfb, xdotool, x11-apps (xwd), python3 (apt-get install xvfb xdotool x11-apps).
# Click positions are those of the default layout at 1366x768.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$(realpath -m "${1:-$root/build/gui-journeys}")
testdata="$root/../shared/testdata"
for tool in Xvfb xdotool xwd python3; do
  command -v "$tool" >/dev/null || { echo "gui-journeys: $tool is missing (apt-get install xvfb xdotool x11-apps)" >&2; exit 2; }
done

build="$root/build/release"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPS_BUILD_TESTS=OFF -DPS_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target profstudio >/dev/null
app="$build/bin/profstudio"

mkdir -p "$out"
work=$(mktemp -d)
display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 1366x768x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; pkill -f "$app" 2>/dev/null || true; rm -rf "$work"' EXIT
export DISPLAY=$display
sleep 1

too_big=0
shot() { # NAME: screenshot, and the window's size, which must fit the screen
  sleep "${2:-1}"
  xwd -root -silent >"$work/s.xwd"
  python3 "$root/scripts/xwd2png.py" "$work/s.xwd" "$out/$1.png"
  local win geom
  win=$(xdotool search --onlyvisible --name '^ProfStudio' | head -1 || true)
  geom=$(xdotool getwindowgeometry "$win" 2>/dev/null | sed -n 's/.*Geometry: //p')
  echo "  $1.png  window ${geom:-?}"
  if [[ -n "$geom" ]] && (( ${geom%x*} > 1366 || ${geom#*x} > 768 )); then too_big=1; fi
}
click() { xdotool mousemove "$1" "$2" click "${3:-1}"; }
start() { # PATHS...: a fresh app with its own settings (a first launch each time)
  pkill -f "$app" 2>/dev/null || true
  rm -rf "$work/home" && mkdir -p "$work/home"
  HOME="$work/home" PROFSTUDIO_CACHE_DIR="$work/cache" "$app" "$@" >"$work/app.log" 2>&1 &
  sleep 4
}

echo "1. First launch, the demo run, tracks, menus, a laptop-size window"
start
shot 01-first-launch
click 683 362 && shot 02-demo-run 10                      # Open the Demo Run
click 100 331 3 && shot 03-track-menu                      # right-click a track label
click 180 431 && shot 04-reports-collapsed-to-density-rows # Collapse All Reports
xdotool key F1 && shot 05-keyboard-shortcuts
click 901 620                                              # Close (no window manager gives it focus)
xdotool key alt+f && shot 06-file-menu
xdotool key Escape
xdotool windowsize "$(xdotool search --onlyvisible --name '^ProfStudio' | head -1)" 1280 720
shot 07-resized-1280x720

echo "2. A mix of real traces: Nsight Systems, Ascend, Kineto"
start "$testdata/traces/nsys/dlprof__nsys_profile.sqlite" \
  "$testdata/traces/ascend/msinsight__level1__rank0__ascend_pytorch_profiler_0.db" \
  "$testdata/traces/kineto/hta__trace_filter__sampled_rank-0.json.gz"
shot 08-mixed-traces 8

echo "3. Bad files beside a good one: each failure named in the window"
printf 'not a database' >"$work/fake.sqlite"
: >"$work/empty.json"
printf '{"traceEvents": [' >"$work/broken.json"
head -c 4096 "$testdata/traces/nsys/extrap__concurrent.s1.sqlite" >"$work/truncated.sqlite"
start "$work/fake.sqlite" "$work/empty.json" "$work/broken.json" "$work/truncated.sqlite" \
  "$testdata/traces/nsys/extrap__concurrent.s1.sqlite"
shot 09-load-problems 4

echo "4. An RLinf config without cluster.profiling: add it, type an invalid step list"
start "$testdata/configs/rlinf/examples/embodiment/config/maniskill_ppo_mlp.yaml"
shot 10-rlinf-missing-profiling 2
click 489 157 && shot 11-rlinf-profiling-added 3           # Add profiling
click 277 545 && xdotool type '0,x,9-3' && xdotool key Tab
click 833 96 && shot 12-invalid-steps-in-diagnostics 2     # Diagnostics tab

echo "5. A verl config: its form, launch settings and schedule helper"
start "$testdata/configs/verl/verl/trainer/config/ppo_trainer.yaml"
shot 13-verl-config 3
click 284 96 && shot 14-verl-launch-tab
click 380 96 && shot 15-schedule-helper

echo "Screenshots in $out"
if (( too_big )); then
  echo "gui-journeys: the window grew past the 1366x768 screen (see the sizes above)" >&2
  exit 1
fi
