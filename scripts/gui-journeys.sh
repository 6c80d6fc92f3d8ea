#!/usr/bin/env bash
# Drives the real desktop app under a virtual X server with a real window manager (Xvfb + openbox,
# 1366x768: a laptop) with xdotool through the journeys a new user takes, saves a screenshot after
# each step, and fails when a step's window (its frame included) leaves the screen. Not part of
# the test run: look at the screenshots. The offscreen QTests (tests/views, tests/timeline,
# tests/configure) assert the same journeys' outcomes.
#
#   scripts/gui-journeys.sh [OUT_DIR]        (default build/gui-journeys)
#   PS_JOURNEY_SCREEN=1920x1080 scripts/gui-journeys.sh    another screen size
#   PS_JOURNEY_BUILD=build/test scripts/gui-journeys.sh    use that build's binaries (no build)
#   PS_JOURNEY_BIG=DIR                                     reuse a `demo --ranks 1024 --digests` run
#
# Journeys: the demo run; a 1024-rank run of digests (cluster overview, Go to Rank, the
# Collectives tab); two runs opened together; a kernel name copied from the details pane and
# pasted into the search; an empty folder; bad files; an RLinf config and a verl config. Then the
# first week's (#38): the straggler in RL Phases, a phase cell selecting its range, the details
# folded, a range across ranks beside the statistics, a collective's members brought into view
# on 64 ranks, the 1024-rank overview while it loads and once loaded, Esc cancelling a load,
# Compare Runs and a row double-clicked, the Memory tab and its blocks at the peak, a far-clock
# report set aside, and the demo rendered aligned on update_actor#2 without a warning. Clicks in
# the tabs are placed from the layout a first launch has at 1366x768 and 1920x1080.
# Then held-out reading: `profstudio --screenshot` of two runs opened together and of a failed
# file, read back with OCR (tesseract): both run names, and the failed file's name, must be on
# the screen. Skipped, saying so, without tesseract.
# Needs: xvfb, openbox, xdotool, x11-apps (xwd), x11-utils (xprop), xclip, python3; tesseract-ocr
# for the OCR checks (their screenshots are rendered at twice the pixels for it).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$(realpath -m "${1:-$root/build/gui-journeys}")
testdata="$root/../shared/testdata"
screen=${PS_JOURNEY_SCREEN:-1366x768}
sw=${screen%x*} sh=${screen#*x}
for tool in Xvfb openbox xdotool xwd xprop xwininfo xclip python3; do
  command -v "$tool" >/dev/null ||
    { echo "gui-journeys: $tool is missing (apt-get install xvfb openbox xdotool x11-apps x11-utils xclip)" >&2; exit 2; }
done

build=$(realpath -m "${PS_JOURNEY_BUILD:-$root/build/release}")
if [[ -z ${PS_JOURNEY_BUILD:-} ]]; then
  # CMakePresets.json's release preset, as scripts/run.sh builds (its build/release), or the
  # same options in another folder.
  if [[ "$build" == "$root/build/release" ]]; then
    (cd "$root" && cmake --preset release >/dev/null && cmake --build --preset release --parallel "$(nproc)" >/dev/null)
  else
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPS_BUILD_TESTS=OFF -DPS_BUILD_BENCH=OFF >/dev/null
    cmake --build "$build" --parallel "$(nproc)" --target profstudio profstudio-cli >/dev/null
  fi
fi
app="$build/bin/profstudio"
cli="$build/bin/profstudio-cli"

mkdir -p "$out"
work=$(mktemp -d)
display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 "${screen}x24" >/dev/null 2>&1 &
xvfb=$!
app_pid=
wm_pid=
cleanup() {
  [[ -n $app_pid ]] && kill "$app_pid" 2>/dev/null
  [[ -n $wm_pid ]] && kill "$wm_pid" 2>/dev/null
  kill "$xvfb" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
export DISPLAY=$display
sleep 1
openbox >/dev/null 2>&1 &
wm_pid=$!
sleep 1

failed=0
window() { xdotool search --onlyvisible --name '^ProfStudio' | head -1; }
# The window's frame (client geometry plus the frame extents openbox sets): X Y W H. The client's
# position comes from xwininfo: xdotool's adds the frame's offset twice under a reparenting window
# manager (a maximized window at 1,20 is reported at 2,40).
frame() {
  local win=$1 l=0 r=0 t=0 b=0 x y w h extents info
  info=$(xwininfo -id "$win")
  x=$(sed -n 's/.*Absolute upper-left X: *//p' <<<"$info")
  y=$(sed -n 's/.*Absolute upper-left Y: *//p' <<<"$info")
  w=$(sed -n 's/.*Width: *//p' <<<"$info")
  h=$(sed -n 's/.*Height: *//p' <<<"$info")
  extents=$(xprop -id "$win" _NET_FRAME_EXTENTS | sed -n 's/.*= //p' | tr -d ',')
  [[ -n $extents ]] && read -r l r t b <<<"$extents"
  echo "$((x - l)) $((y - t)) $((w + l + r)) $((h + t + b))"
}
shot() { # NAME [WAIT]: screenshot; the window, frame included, must be inside the screen
  sleep "${2:-1}"
  xwd -root -silent >"$work/s.xwd"
  python3 "$root/scripts/xwd2png.py" "$work/s.xwd" "$out/$1.png"
  local win fx fy fw fh
  win=$(window || true)
  if [[ -z $win ]]; then
    echo "  $1.png  no ProfStudio window" >&2
    failed=1
    return
  fi
  read -r fx fy fw fh < <(frame "$win")
  echo "  $1.png  frame ${fw}x${fh} at ${fx},${fy}"
  if ((fx < 0 || fy < 0 || fx + fw > sw || fy + fh > sh)); then
    echo "gui-journeys: $1: the window's frame ${fw}x${fh} at ${fx},${fy} leaves the ${screen} screen" >&2
    failed=1
  fi
}
at() { xdotool mousemove --window "$(window)" "$1" "$2" click "${3:-1}"; } # X Y [BUTTON], window-relative
start() { # PATHS...: a fresh app with its own settings (a first launch each time)
  if [[ -n $app_pid ]]; then
    kill "$app_pid" 2>/dev/null || true
    wait "$app_pid" 2>/dev/null || true
  fi
  rm -rf "$work/home" && mkdir -p "$work/home"
  HOME="$work/home" PROFSTUDIO_CACHE_DIR="$work/cache" "$app" "$@" >"$work/app.log" 2>&1 &
  app_pid=$!
  for _ in $(seq 40); do [[ -n $(window || true) ]] && break; sleep 0.5; done
  sleep "${settle:-2}" # settle=0: act on the window as soon as it shows (Esc during the load)
}

snap() { # OUT.png ARGS...: the timeline as `profstudio --screenshot` renders it headless, at the screen's size
  local png=$1                                          # (at $snap_scale times its pixels: 2 for OCR)
  shift
  HOME="$work/home" PROFSTUDIO_CACHE_DIR="$work/cache" QT_QPA_PLATFORM=offscreen QT_SCALE_FACTOR="${snap_scale:-1}" \
    "$app" --screenshot timeline --size "$screen" --out "$png" "$@" >"$work/snap.log" 2>&1 ||
    { echo "gui-journeys: profstudio --screenshot $* failed: $(cat "$work/snap.log")" >&2; failed=1; }
}

echo "0. Demo runs (8 ranks twice, 1024 ranks as digests)"
"$cli" demo --out "$work/demo" --ranks 8 >/dev/null
"$cli" demo --out "$work/demo-b" --ranks 8 --seed 7 >/dev/null
big=${PS_JOURNEY_BIG:-$work/big} # an existing 1024-rank digest run to reuse, or made here
[[ -d $big ]] || "$cli" demo --out "$big" --ranks 1024 --digests >/dev/null

echo "1. First launch, the demo run, shortcuts, File menu"
start
shot 01-first-launch
start "$work/demo/profiling"
shot 02-demo-run 6
xdotool key F1 && shot 03-keyboard-shortcuts
xdotool key Escape
xdotool key alt+f && shot 04-file-menu
xdotool key Escape

echo "2. A 1024-rank run of digests: the cluster overview, Go to Rank"
start "$big"
shot 05-1024-ranks-overview 15
xdotool key ctrl+g && sleep 1 && xdotool type 'ActorGroup:517' && shot 06-go-to-rank-dialog
xdotool key Return && shot 07-rank-517-opened 5
snap "$out/07b-1024-ranks-collectives.png" --tab Collectives "$big"
echo "  07b-1024-ranks-collectives.png  (headless: the Collectives tab of the 1024-rank run)"

echo "3. Two runs opened together: both on the first screen"
start "$work/demo/profiling" "$work/demo-b/profiling"
shot 08-two-runs 8

echo "4. Copy a kernel's name from the details pane, paste it into the search"
start "$work/demo/profiling"
sleep 4
xdotool key ctrl+f && xdotool type 'ampere_bf16_s16816gemm' && xdotool key Return
sleep 3 && xdotool key Return # the first Return searches, the next selects the first match
shot 09-search-selects-a-kernel 3
eval "$(xdotool getwindowgeometry --shell "$(window)")"
at $((WIDTH - 150)) 122 && xdotool click --repeat 3 1 # the details pane's first line: the name
xdotool key ctrl+c && sleep 0.5
copied=$(xclip -o -selection clipboard 2>/dev/null || true)
echo "  copied: ${copied:0:80}"
if printf '%s' "$copied" | grep -qP '[\x{200B}\x{00AD}\x{200C}\x{200D}\x{FEFF}]'; then
  echo "gui-journeys: the copied text holds invisible characters" >&2
  failed=1
fi
xdotool key ctrl+f ctrl+a ctrl+v Return && shot 10-pasted-into-search 3

echo "5. An empty folder: said so"
mkdir -p "$work/empty/config" && printf 'a: 1\n' >"$work/empty/config/x.yaml"
start "$work/empty"
shot 11-empty-folder 3

echo "6. Bad files beside a good one: each failure named in the window"
printf 'not a database' >"$work/fake.sqlite"
: >"$work/empty.json"
printf '{"traceEvents": [' >"$work/broken.json"
head -c 4096 "$testdata/traces/nsys/extrap__concurrent.s1.sqlite" >"$work/truncated.sqlite"
start "$work/fake.sqlite" "$work/empty.json" "$work/broken.json" "$work/truncated.sqlite" \
  "$testdata/traces/nsys/extrap__concurrent.s1.sqlite"
shot 12-load-problems 4

echo "7. Configs: RLinf without cluster.profiling, verl's trainer config"
start "$testdata/configs/rlinf/examples/embodiment/config/maniskill_ppo_mlp.yaml"
shot 13-rlinf-missing-profiling 2
start "$testdata/configs/verl/verl/trainer/config/ppo_trainer.yaml"
shot 14-verl-config 3

echo "9. The first week's journeys (#38): one straggler, phases as ranges, laptop layout, collectives,"
echo "   Esc, Compare Runs, memory at the peak, a far-clock report, the render's phase alignment"
"$cli" demo --out "$work/demo64" --ranks 64 >/dev/null
mkdir -p "$work/memory"
/usr/bin/python3 "$root/tests/formats/memoryfixtures.py" "$work/memory" "$work/memory/SENTINEL" beside
memory_step=("$work/memory/run/step5/"*)
# The tabs below the timeline start this far above the window's bottom (the layout's defaults for
# a first launch on that screen: a quarter of a laptop's height, 30 % of a desktop's); their
# controls and first rows lie at fixed offsets below it.
case $screen in
  1366x768) tabs_top=185 ;;
  1920x1080) tabs_top=283 ;;
  *) tabs_top=0 ;;
esac
in_tabs() { # X DY [BUTTON]: a click DY px below the tabs' top, X px from the window's left (or right, if negative)
  eval "$(xdotool getwindowgeometry --shell "$(window)")"
  local x=$1
  ((x < 0)) && x=$((WIDTH + x))
  at "$x" $((HEIGHT - tabs_top + $2)) "${3:-1}"
}
if ((tabs_top == 0)); then
  echo "  skipped the clicks in the tabs: no layout measured for $screen"
fi

start --tab "RL Phases" "$work/demo/profiling"
shot 17-one-straggler-rl-phases 5
if ((tabs_top)); then
  in_tabs 650 79 && shot 18-phase-cell-selects-its-range 2 # weight_sync of step 2 on ActorGroup:0
fi
xdotool key ctrl+shift+d && shot 19-details-folded
xdotool key ctrl+shift+d
start --tab Statistics "$work/demo/profiling"
sleep 4
((tabs_top)) && in_tabs 200 102 && shot 20-a-range-across-ranks 3 # the chart beside the table

start --tab Collectives "$work/demo64/profiling"
sleep 8
if ((tabs_top)); then # the members folded to fit the screen, then Restore the Rows
  in_tabs 200 100 && shot 21-collective-members-in-view 3
  in_tabs -130 -82 && shot 21b-rows-restored 2
fi

start --tab "RL Phases" "$big"
shot 22-1024-ranks-while-loading 1
shot 23-1024-ranks-loaded 12

rm -rf "$work/cache" # a cold load of the 64 exports, cancelled as soon as the window shows
settle=0 start "$work/demo64/profiling"
xdotool key Escape && shot 24-esc-cancels-the-load 2

start --tab "Compare Runs" "$work/demo/profiling" "$work/demo-b/profiling"
shot 25-compare-runs-flagged-first 8
((tabs_top)) && in_tabs 300 136 && xdotool click --delay 80 --repeat 2 1 && shot 26-compare-row-in-both-runs 3

start --tab Memory "${memory_step[@]}"
shot 27-memory-tab 6
((tabs_top)) && in_tabs -80 38 && shot 28-blocks-at-the-peak 3

start "$testdata/traces/ascend/msinsight__full_db__msprof_0.db" "$testdata/traces/nsys/extrap__concurrent.s1.sqlite" \
  "$testdata/traces/ascend/msinsight__level1__rank0__ascend_pytorch_profiler_0.db"
shot 29-far-clock-report-set-aside 8

# The demo aligned on a phase's second occurrence, headless: no "not found" warning.
HOME="$work/home" QT_QPA_PLATFORM=offscreen "$app" --render "$work/demo/profiling" --align 'range:update_actor#2' \
  --size "$screen" --out "$out/30-aligned-on-update_actor-2.png" >"$work/render.log" 2>&1 || failed=1
if grep -qi 'not found\|warning' "$work/render.log"; then
  echo "gui-journeys: --align range:update_actor#2 warned: $(cat "$work/render.log")" >&2
  failed=1
else
  echo "  30-aligned-on-update_actor-2.png  (headless --render, no warning)"
fi

echo "8. Held-out reading (OCR of profstudio --screenshot): two runs together, a failed file"
# WORDS must all be read, case-insensitively, from PNG.
ocr_check() { # NAME PNG WORDS...
  local name=$1 png=$2 text word
  shift 2
  text=$(tesseract "$png" - 2>/dev/null | tr -s ' \n' ' ')
  printf '%s\n' "$text" >"$out/$name.txt"
  for word in "$@"; do
    if grep -qiF -- "$word" <<<"$text"; then
      echo "  $name: \"$word\" is on the screen"
    else
      echo "gui-journeys: $name: \"$word\" is not on the screen (OCR text in $out/$name.txt)" >&2
      failed=1
    fi
  done
}
if ! command -v tesseract >/dev/null; then
  echo "  skipped: tesseract is missing (apt-get install tesseract-ocr)"
else
  # Runs named as users name them (not the demo's): each its own folder, two ranks each.
  "$cli" demo --out "$work/held-out/ppo-baseline-0412" --ranks 2 >/dev/null
  "$cli" demo --out "$work/held-out/grpo-candidate-0419" --ranks 2 --seed 11 >/dev/null
  # Rendered at twice the pixels: tesseract misreads 8-9 pt UI text at 1x ("sqlit").
  snap_scale=2 snap "$out/15-ocr-two-runs.png" "$work/held-out/ppo-baseline-0412" "$work/held-out/grpo-candidate-0419"
  ocr_check 15-ocr-two-runs "$out/15-ocr-two-runs.png" ppo-baseline-0412 grpo-candidate-0419
  printf 'SQLite format 3\0 but cut short' >"$work/held-out/rank3_truncated.sqlite"
  snap_scale=2 snap "$out/16-ocr-failed-file.png" "$work/held-out/rank3_truncated.sqlite" \
    "$testdata/traces/nsys/extrap__concurrent.s1.sqlite"
  ocr_check 16-ocr-failed-file "$out/16-ocr-failed-file.png" rank3_truncated.sqlite
fi

echo "Screenshots in $out"
if ((failed)); then
  echo "gui-journeys: a step failed (see above)" >&2
  exit 1
fi
