#!/usr/bin/env bash
# The evaluation of eval_plan.txt: runs/train30_v2's final policy against heuristic-v2, both presets, both formats.
set -euo pipefail
cand=ppo:runs/train30_v2/policy.pt:name=train30_v2
out=${OUT:-results/train30_v2}
t() { spades tournament --agents "$cand" heuristic-v2 --workers 2 "$@"; }
t --rules default --single-hand --games 4000 --seed 47211 --out "$out/default_single"
t --rules default --games 400 --seed 47212 --out "$out/default_games"
t --rules house --single-hand --games 4000 --seed 47213 --out "$out/house_single"
t --rules house --games 400 --seed 47214 --out "$out/house_games"
