#!/usr/bin/env bash
# CPU ms a decision of search-v3, C and D on one core, three alternating rounds under the house rule (where the
# heuristic bids Nil) and one under the game's rules; nothing else running.
set -euo pipefail
c=endgame:ppo-v3:tricks=9,worlds=24,ms=250,nil_risk=1.05,nil_play=true
t() { taskset -c 1 python -m spades_env.experiments.time_agent "$@" --games 50; }
for round in 1 2 3; do
    for a in search-v3 "$c" "$c,nil_discards=true"; do t "$a" --rules house; done
done
for a in search-v3 "$c"; do t "$a" --rules default; done
