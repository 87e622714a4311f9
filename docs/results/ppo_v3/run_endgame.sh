#!/usr/bin/env bash
# eval_plan.txt's addendum: endgame:candidate against heuristic-v2 (house rule first).
set -euo pipefail
out=${OUT:-results/ppo_v3}
t() { spades tournament --workers 2 --agents "endgame:ppo:${POLICY:-runs/ppo4p_v3/policy.pt}:name=endgame_candidate" heuristic-v2 "$@"; }
t --rules house --single-hand --games 2000 --seed 47421 --out "$out/endgame_house_single"
t --rules house --games 400 --seed 47422 --out "$out/endgame_house_games"
t --rules default --single-hand --games 2000 --seed 47423 --out "$out/endgame_default_single"
t --rules default --games 400 --seed 47424 --out "$out/endgame_default_games"
