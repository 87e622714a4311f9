#!/usr/bin/env bash
# ppo-v3 from nothing, as one resumable command: the four spades train runs it was made by, each from the one
# before it. Run it again after a stop: a stage with a checkpoint resumes (a finished one returns at once).
# The original stages 1 and 2 were budgeted in minutes (30 and 55 on a 2-core AMD EPYC); here they are fixed at
# the updates those minutes gave, so the learning rate anneals over updates. Today's code, not the commits the
# stages ran at (stages 1-2 now also see the Blind Nil catch-up in their reward): a reproduction, not a replay.
# About 5 hours on 2 cores. RUNS: where the run folders go; EXTRA: flags added to every stage (a smoke test:
# EXTRA="--total-updates 2 --bc-hands 64 --num-envs 16 --eval-every 0 --eval-deals 4").
set -euo pipefail
runs=${RUNS:-runs/ppo_v3_recipe}
stage() {
  local dir=$runs/$1; shift
  if [ -f "$dir/checkpoint.pt" ]; then
    spades train --resume "$dir" --no-progress
  else
    # shellcheck disable=SC2086
    spades train --num-players 4 --no-progress --run-dir "$dir" --max-minutes 0 --torch-threads 1 "$@" ${EXTRA:-}
  fi
}
stage 1_default_recipe --total-updates 1234 --seed 1
stage 2_both_presets --init-policy "$runs/1_default_recipe/policy.pt" --bc-hands 0 --mixed-rules default \
  --learning-rate 1e-4 --total-updates 1922 --seed 1
stage 3_no_teacher --init-policy "$runs/2_both_presets/policy.pt" --bc-hands 0 --mixed-rules default \
  --learning-rate 1e-4 --total-updates 1800 --seed 3 --teacher-coef 0 --critic-warmup 40
stage 4_catch_up --init-policy "$runs/3_no_teacher/checkpoint.pt" --bc-hands 0 --mixed-rules default \
  --learning-rate 1e-4 --total-updates 1600 --seed 4 --teacher-coef 0 --critic-warmup 20
echo "ppo-v3's recipe done: $runs/4_catch_up/policy.pt"
