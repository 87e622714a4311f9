#!/usr/bin/env bash
# eval_plan.txt's addendum 1: C and D (C with nil_discards=true) at the tuning seed 47674, at 47684 with CONFIRM=1.
c=endgame:ppo-v3:tricks=9,worlds=24,ms=250,nil_risk=1.05,nil_play=true
exec bash "$(dirname "$0")/run_pair.sh" "$c" C "$c,nil_discards=true" D 47684
