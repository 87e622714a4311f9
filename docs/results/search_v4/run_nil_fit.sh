#!/usr/bin/env bash
# eval_plan.txt's addendum 3: C and E (search-v3:nil_play=true,nil_fit=true) at the tuning seed 47674, at 47686 with
# CONFIRM=1.
c=endgame:ppo-v3:tricks=9,worlds=24,ms=250,nil_risk=1.05,nil_play=true
exec bash "$(dirname "$0")/run_pair.sh" "$c" C search-v3:nil_play=true,nil_fit=true E 47686
