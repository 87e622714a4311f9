#!/usr/bin/env bash
# eval_plan.txt's games: runs/coef0's and runs/coef1's final policies against heuristic-v2, four players, duplicate.
set -euo pipefail
out=${OUT:-results/teacher_coef}
t() { spades tournament --workers 2 "$@"; }
for c in 0 1; do
  a=ppo:runs/coef$c/policy.pt:name=coef$c
  t --agents "$a" heuristic-v2 --rules default --single-hand --games 4000 --seed 47331 --out "$out/coef${c}_default_single"
  t --agents "$a" heuristic-v2 --rules default --games 400 --seed 47332 --out "$out/coef${c}_default_games"
  t --agents "$a" heuristic-v2 --rules house --single-hand --games 4000 --seed 47333 --out "$out/coef${c}_house_single"
  t --agents "$a" heuristic-v2 --rules house --games 400 --seed 47334 --out "$out/coef${c}_house_games"
done
