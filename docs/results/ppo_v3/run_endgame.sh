#!/usr/bin/env bash
# eval_plan.txt's addendum: endgame:candidate against heuristic-v2 (house rule first). AGENT, SEED (the first of
# four) and SINGLE (games a single-hand cell: two a deal) play another plan's: docs/results/ppo_v4_house/endgame_plan.txt.
set -euo pipefail
out=${OUT:-results/ppo_v3}
a=${AGENT:-endgame:ppo:${POLICY:-runs/ppo4p_v3/policy.pt}:name=endgame_candidate}
t() { spades tournament --workers 2 --agents "$a" heuristic-v2 "$@"; }
seed=${SEED:-47421}
t --rules house --single-hand --games "${SINGLE:-2000}" --seed "$seed" --out "$out/endgame_house_single"
t --rules house --games 400 --seed $((seed + 1)) --out "$out/endgame_house_games"
t --rules default --single-hand --games "${SINGLE:-2000}" --seed $((seed + 2)) --out "$out/endgame_default_single"
t --rules default --games 400 --seed $((seed + 3)) --out "$out/endgame_default_games"
