"""ppo-v3, but where no Nil of my side stands its card play is the gate's expert's (eval_plan.txt's addendum 5).

    spades tournament --agents ./docs/results/distil4p_v3/nil_gate.py:NilGate ppo-v3 --single-hand ...
"""

from nil_switch import NilSwitch

from spades_env.view import PlayerView


class NilGate(NilSwitch):
    """Every decision ppo-v3's, but card plays while neither I nor my partner has a Nil or Blind Nil standing: the
    expert's (fitted on exactly those card plays)."""

    def __init__(self, expert: str = "ppo:runs/distil4p_v3_gate/policy.pt") -> None:
        super().__init__(expert)

    def fitted_plays(self, view: PlayerView) -> bool:
        """Whether this card play is the expert's: no Nil of my side stands."""
        return not any(view.bids[s] == 0 and view.tricks_won[s] == 0 for s in (view.seat, view.partner))
