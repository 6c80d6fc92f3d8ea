#!/bin/bash
# Runs every example launch script of ../shared/testdata/configs/launch-scripts (verl main, RLinf
# main) as a new user would (no arguments, a fresh HOME, from the repository root) with stand-ins
# for python/python3/torchrun/ray and every tool that would download, install or start something
# (standin.sh), and writes the Hydra launches they make to OUT_DIR/launches.
#   extract.sh TESTDATA_CONFIGS OUT_DIR
# The scripts run in a real copy of the trees (cp -r, about 4 MB; symlinks would let `>` or
# `tee -a` onto a file the trees have write through to the test data) under OUT_DIR, so what they
# write lands there and the test data is never written. verl's trainer configs come from
# verl-versions/main-1dda039b (same commit); their package __init__.py is replaced by an empty one
# as if verl were installed (it imports verl's Python code, which the test data does not carry).
set -uo pipefail
src=$1/launch-scripts
out=$(mkdir -p "$2" && cd "$2" && pwd) || exit 2
[[ -n $out && $out != / ]] || exit 2 # the rm -rf below must never reach /tree, /bin, /home
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out/tree" "$out/bin" "$out/home" "$out/records" "$out/launches"
mkdir -p "$out/tree/verl" "$out/tree/rlinf" "$out/bin" "$out/home"
cp -r "$src/verl-main-1dda039b/." "$out/tree/verl/"
cp -r "$1/verl-versions/main-1dda039b/verl/." "$out/tree/verl/verl/"
cp -r "$src/rlinf-main-a3816b59/." "$out/tree/rlinf/"
chmod -R u+w "$out/tree" # the test data is read-only, and cp keeps that
: >"$out/tree/verl/verl/trainer/config/__init__.py"
# `ulimit -n 32768` is refused in a container but not on a training node
echo 'ulimit() { :; }' >"$out/bash_env"
for tool in python python3 torchrun ray pip pip3 uv wget curl git huggingface-cli hf modelscope sleep \
  docker ssh scp srun sbatch mpirun deepspeed accelerate nvidia-smi npu-smi rocm-smi tabs nohup \
  hostname ifconfig ip nproc date; do
  ln -s "$here/standin.sh" "$out/bin/$tool"
done

# A script that stops because a variable is unset ("VAR: unbound variable", "MODEL_PATH: set
# MODEL_PATH, or ...") runs again with VAR=$HOME/VAR, as a user would set what it asks for.
run_script() { # repo script records [args]
  local vars=() try var
  for try in 1 2 3 4; do
    (cd "$out/tree/$1" &&
      env -i PATH="$out/bin:/usr/bin:/bin" HOME="$out/home" USER=user LANG=C.UTF-8 TZ=UTC \
        BASH_ENV="$out/bash_env" PS_LAUNCH_RECORDS="$3" PS_LAUNCH_SCRIPT="${2#"$out/tree/"}" "${vars[@]}" \
        timeout 20 bash "$2" "${@:4}" </dev/null >/dev/null 2>"$3.stderr")
    var=$(sed -nE 's/^.*: line [0-9]+: ([A-Za-z_][A-Za-z0-9_]*): (unbound variable|set .*)$/\1/p' "$3.stderr" | tail -1)
    [[ -z $var ]] && return
    vars+=("$var=$out/home/$var")
  done
}
one() { # N SCRIPT: the launches of one script into records/N
  local repo=${2#"$out/tree/"} rec=$out/records/$1
  repo=${repo%%/*}
  : >"$rec"
  run_script "$repo" "$2" "$rec"
  # A script that stops at its usage line ("<nproc_per_node> <save_path> ...") gets what it asks for.
  if [[ ! -s $rec ]] && grep -q '<nproc_per_node> <save_path>' "$2"; then
    run_script "$repo" "$2" "$rec" 8 "$out/home/checkpoints"
  fi
}
export -f run_script one
export out
mkdir -p "$out/records"
find "$out/tree/verl/examples" "$out/tree/rlinf/examples" -name '*.sh' | sort | nl -w4 -n rz -s' ' >"$out/scripts.list"
xargs -P 4 -L 1 bash -c 'one "$0" "$1"' <"$out/scripts.list"
cat "$out"/records/[0-9]??? >"$out/launches"
wc -l <"$out/scripts.list" | tr -d ' ' >"$out/scripts"
