#!/usr/bin/env bash
# Regenerates the README's screenshots, docs/images/timeline-demo.png (the Timeline on the demo run
# with the RL Phases table) and docs/images/configure-verl.png (Configure on verl main's trainer
# config with nsys profiling of the actor), with `profstudio --screenshot`, headless. Run it after
# a change that shows in either and commit the PNGs with the change.
#
#   scripts/readme-screenshots.sh [BUILD_DIR]    (default build/release; built there when missing)
#
# verl's config tree is read from ../shared/testdata (or PS_VERL_CONFIG_DIR).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(realpath -m "${1:-$root/build/release}")
verl=${PS_VERL_CONFIG_DIR:-$root/../shared/testdata/configs/verl-versions/main-1dda039b/verl/trainer/config}
images="$root/docs/images"
size=1280x720

if [[ ! -x "$build/bin/profstudio" || ! -x "$build/bin/profstudio-cli" ]]; then
  # CMakePresets.json's release preset, as scripts/run.sh builds (its build/release), or the
  # same options in another folder.
  if [[ "$build" == "$root/build/release" ]]; then
    (cd "$root" && cmake --preset release >/dev/null && cmake --build --preset release --parallel "$(nproc)" >/dev/null)
  else
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPS_BUILD_TESTS=OFF -DPS_BUILD_BENCH=OFF >/dev/null
    cmake --build "$build" --parallel "$(nproc)" --target profstudio profstudio-cli >/dev/null
  fi
fi
[[ -d "$verl" ]] || { echo "readme-screenshots: no verl config tree at $verl (set PS_VERL_CONFIG_DIR)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$images" "$work/home"
# A fresh HOME: no recent files or window state of the user's in the pictures.
run() { HOME="$work/home" PROFSTUDIO_CACHE_DIR="$work/cache" QT_QPA_PLATFORM=offscreen "$@"; }

run "$build/bin/profstudio-cli" demo --out "$work/demo-run" >/dev/null
run "$build/bin/profstudio" --screenshot timeline --tab "RL Phases" --size "$size" \
  --out "$images/timeline-demo.png" "$work/demo-run"
run "$build/bin/profstudio" --screenshot configure --size "$size" --out "$images/configure-verl.png" \
  --config-dir "$verl" --config-name ppo_trainer \
  global_profiler.tool=nsys 'global_profiler.steps=[1,2]' actor_rollout_ref.actor.profiler.enable=True \
  'actor_rollout_ref.actor.profiler.ranks=[0,1]'
ls -l "$images"/timeline-demo.png "$images"/configure-verl.png

# docs/images/memory-blocks.png: two ranks' CUDA memory snapshots beside their Kineto traces
# (written by tests/formats/memoryfixtures.py with python3's own pickle), the Memory tab listing the
# blocks live at the higher peak.
memory="$work/memory"
mkdir -p "$memory"
/usr/bin/python3 "$root/tests/formats/memoryfixtures.py" "$memory" "$memory/SENTINEL" beside
step="$memory/run/step5"
run "$build/bin/profstudio" --screenshot timeline --tab Memory --size "$size" --out "$images/memory-blocks.png" \
  "$step/torch_memory_rank0_pid700.pickle" "$step/kineto_rank0.pt.trace.json" \
  "$step/torch_memory_rank1_pid701.pickle" "$step/kineto_rank1.pt.trace.json"
ls -l "$images"/memory-blocks.png
