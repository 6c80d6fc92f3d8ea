#!/bin/bash
# Stand-in for python, python3, torchrun, ray, ... while an upstream launch script runs under
# extract.sh: it records the Hydra launch the command would make and exits; nothing real runs.
# A record is: the script, the working directory, config dir, config name, the environment the
# script made (NAME=VALUE lines: hydra.searchpath reads ${oc.env:...}), overrides; fields end with
# \x1f, the record with \x1e, appended to $PS_LAUNCH_RECORDS.
# Entry points and their @hydra.main(config_path, config_name): launch-scripts/SOURCES.md.
name=${0##*/}

verl_module() { # module -> "config_dir<TAB>config_name"; verl's config dirs are beside the module
  local mod=$1 dir=${1//.//}
  dir=${dir%/*}
  case $mod in
  verl.trainer.main_ppo | verl.trainer.main_generation_server) echo "$PWD/$dir/config	ppo_trainer" ;;
  verl.trainer.main_eval) echo "$PWD/$dir/config	evaluation" ;;
  verl.trainer.sft_trainer | verl.trainer.sft_trainer_ray) echo "$PWD/$dir/config	sft_trainer_engine" ;;
  verl.experimental.fully_async_policy.fully_async_main) echo "$PWD/$dir/config	fully_async_ppo_trainer" ;;
  verl.experimental.one_step_off_policy.main_ppo) echo "$PWD/$dir/config	one_step_off_ppo_trainer" ;;
  esac
}

rlinf_file() { # script path -> default config name of its @hydra.main (config_path "config")
  case ${1##*/} in
  train_embodied_agent.py | train_vla_sft.py) echo maniskill_ppo_openvlaoft ;;
  train_async.py) echo maniskill_sac_mlp_async ;;
  train_offline_rl.py) echo d4rl_iql_mujoco ;;
  collect_real_data.py) echo realworld_collect_data ;;
  train_reward_model.py) echo reward_training ;;
  train_vlm_sft.py) echo vlm_sft ;;
  esac
}

# Hydra's own options (--config-path/-cp, --config-name/-cn, with ' ' or '='), the rest are overrides.
hydra_launch() { # $1 config dir (absolute) $2 config name $3 base for a relative --config-path; then args
  local dir=$1 cfg=$2 base=$3 out=()
  shift 3
  while (($#)); do
    case $1 in
    --config-path=* | -cp=*) dir=${1#*=} ;;
    --config-path | -cp) dir=$2; shift ;;
    --config-name=* | -cn=*) cfg=${1#*=} ;;
    --config-name | -cn) cfg=$2; shift ;;
    *) out+=("$1") ;;
    esac
    shift
  done
  [[ -z $cfg ]] && return 0
  [[ $dir == /* ]] || dir=$base/$dir
  {
    printf '%s\x1f' "$PS_LAUNCH_SCRIPT" "$PWD" "$dir" "$cfg" "$(env | grep -v '^PS_LAUNCH_\|^PATH=\|^_=\|^SHLVL=\|^PWD=\|^OLDPWD=')" "${out[@]}"
    printf '\x1e'
  } >>"$PS_LAUNCH_RECORDS"
}

run_python() {
  while (($#)); do
    case $1 in
    -c) exit 1 ;; # `python3 -c 'import torch_npu'`: no such package here
    -m)
      local entry
      entry=$(verl_module "$2")
      [[ -n $entry ]] && hydra_launch "${entry%%	*}" "${entry#*	}" "${entry%%/config	*}" "${@:3}"
      exit 0
      ;;
    -u | -B | -O | -s | -E | -X?*) ;;
    -X | -W) shift ;;
    -*) ;;
    *.py)
      local script=$1 dir
      [[ $script == /* ]] || script=$PWD/$script
      dir=$(dirname "$script")
      hydra_launch "$dir/config" "$(rlinf_file "$script")" "$dir" "${@:2}"
      exit 0
      ;;
    *) exit 0 ;;
    esac
    shift
  done
  exit 0
}

case $name in
python | python3 | python3.*) run_python "$@" ;;
torchrun)
  while (($#)); do
    case $1 in
    -m) run_python "$@" ;;
    *.py) run_python "$@" ;;
    --*=*) ;;
    --standalone | --no-python | --no_python | --run-path | --run_path) ;;
    --*) shift ;;
    esac
    shift
  done
  ;;
ray)
  while (($#)); do
    [[ $1 == -- ]] && { shift; name=$1; shift; [[ $name == python* ]] && run_python "$@"; exit 0; }
    shift
  done
  ;;
uv) # uv run [OPTIONS] COMMAND...
  [[ ${1-} == run ]] && shift
  while (($#)); do
    case $1 in
    --extra | --with | --group | --python | -p | --project | --directory | --package | --env-file | --index) shift ;;
    -*) ;;
    python*) shift; run_python "$@" ;;
    *) exit 0 ;;
    esac
    shift
  done
  ;;
date) # one fixed time, so that names made from it (experiment names, log dirs) repeat
  for a in "$@"; do [[ $a == -d* || $a == --date* || $a == -r ]] && exec /bin/date "$@"; done
  exec /bin/date -u -d @1786000000 "$@"
  ;;
nvidia-smi | npu-smi | rocm-smi) exit 1 ;;
esac
exit 0
