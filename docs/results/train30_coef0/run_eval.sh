#!/usr/bin/env bash
# eval_plan.txt's games: a 30-minute run's final policy against heuristic-v2, both presets, both formats
# (RUN, SEED, OUT: another plan's).
set -euo pipefail
run=${RUN:-runs/train30_coef0}
out=${OUT:-results/$(basename "$run")}
seed=${SEED:-47411}
t() { spades tournament --agents "ppo:$run/policy.pt:name=$(basename "$run")" heuristic-v2 --workers 2 "$@"; }
t --rules default --single-hand --games 4000 --seed "$seed" --out "$out/default_single"
t --rules default --games 400 --seed $((seed + 1)) --out "$out/default_games"
t --rules house --single-hand --games 4000 --seed $((seed + 2)) --out "$out/house_single"
t --rules house --games 400 --seed $((seed + 3)) --out "$out/house_games"
