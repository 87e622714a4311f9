#!/usr/bin/env bash
# CPU ms a decision of C and of C with the inference (infer=4, at the gate's tau) on one core, three alternating
# rounds under the house rule; nothing else running.
set -euo pipefail
c=endgame:ppo-v3:tricks=9,worlds=24,ms=250,nil_risk=1.05,nil_play=true
for round in 1 2 3; do
    for a in "$c" "$c,infer=4,infer_tau=${TAU:-1}"; do
        taskset -c 1 python -m spades_env.experiments.time_agent "$a" --games 20 --rules house
    done
done
