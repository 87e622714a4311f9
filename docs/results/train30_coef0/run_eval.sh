#!/usr/bin/env bash
# eval_plan.txt's games: runs/train30_coef0's final policy against heuristic-v2, both presets, both formats.
set -euo pipefail
out=${OUT:-results/train30_coef0}
t() { spades tournament --agents ppo:runs/train30_coef0/policy.pt:name=train30_coef0 heuristic-v2 --workers 2 "$@"; }
t --rules default --single-hand --games 4000 --seed 47411 --out "$out/default_single"
t --rules default --games 400 --seed 47412 --out "$out/default_games"
t --rules house --single-hand --games 4000 --seed 47413 --out "$out/house_single"
t --rules house --games 400 --seed 47414 --out "$out/house_games"
