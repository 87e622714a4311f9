#!/usr/bin/env bash
# eval_plan.txt's games (SEED, POLICY, OUT, GAMES to 500 a cell, AGAINST: another plan's): a policy (or AGENT, any
# agent spec) against heuristic-v2 and ppo-v2 (or AGAINST's agents), four players, duplicate.
set -euo pipefail
out=${OUT:-results/ppo_v3}
a=${AGENT:-ppo:${POLICY:-runs/ppo4p_v3/policy.pt}:name=candidate}
t() { spades tournament --workers 2 --agents "$a" "$@"; }
seed=${SEED:-47401}
for b in ${AGAINST:-heuristic-v2 ppo-v2}; do
  for rules in default house; do
    t "$b" --rules "$rules" --single-hand --games 4000 --seed $((seed++)) --out "$out/${b}_${rules}_single"
    t "$b" --rules "$rules" --games "${GAMES:-400}" --seed $((seed++)) --out "$out/${b}_${rules}_games"
  done
done
