"""
# Spades

| Import             | `from spades_env import spades_v0`                        |
|--------------------|-----------------------------------------------------------|
| Actions            | Discrete                                                  |
| Parallel API       | No                                                        |
| Manual Control     | Yes (`spades play`)                                       |
| Agents             | `agents= ['player_0', 'player_1', 'player_2', 'player_3']` |
| Agents             | 4 (`num_players=2`: 2)                                    |
| Action Shape       | (1,)                                                      |
| Action Values      | Discrete(71)                                              |
| Observation Shape  | (681,) (see the table below for the other kinds)          |
| Observation Values | [0, 1]; the score and target entries [-10, 10]            |

Spades is a trick-taking card game. In the partnership game (the default) four
players in two partnerships (`player_0` + `player_2` against `player_1` +
`player_3`) each bid how many tricks they will take, Nil (none) or Blind Nil
(none, bid before looking at the cards), and then play thirteen tricks with
spades as trump. A side that makes its contract scores 10 a trick bid and 1 a
trick over ("bags", of which every 10 cost 100 points); a side that fails loses
10 a trick bid; the first side to 500 wins. `num_players=2` is two-player
Spades: the hands are drawn from a stock and each player scores alone. The
rules, every ruling and the test that pins each: `docs/rules.md`.

`env(**kwargs)` is the raw environment under PettingZoo's order-enforcing
wrapper (and `TerminateIllegalWrapper` with `illegal_action="terminate"`);
`raw_env(**kwargs)` is the bare class.

### Arguments

``` python
spades_v0.env(num_players=4, observation="default", reward="score", render_mode=None,
              render_seat=None, illegal_action="raise", rules="default",
              <rule arguments>)
```

| argument | default | meaning |
|---|---|---|
| `observation` | `"default"` | `"default"`, `"history"` (+ the ordered tricks) or `"oracle"` (+ the other hands) |
| `reward` | `"score"` | `"score"`: your side's points minus the other's / 100, per hand; `"win"`: ±1 at the end |
| `render_mode` | `None` | `"ansi"` (the table as text), `"human"` (prints it), `"rgb_array"` (a picture) |
| `render_seat` | `None` | `rgb_array`: `None` draws every hand face up; a seat only its own |
| `illegal_action` | `"raise"` | `"raise"`: `ValueError`, game untouched; `"terminate"`: -1 and game over (`env()`) |
| `rules` | `"default"` | the rule preset (below); the rule options override it |

The rule presets and the rule options, both tables generated from `spades_env/rules.py`:

<rule presets>

<rule options>

`reset(seed=None, options=None)`: the same seed gives the same deals; a reset
without a seed continues the random generator. `options` may fix the first
hand: `{"deal": [[13 cards] x 4], "dealer": seat, "scores": [s0, s1],
"bags": [b0, b1]}`, cards as ids or text (`"AS"`); with two players `deal` is
the 52-card stock, top first.

### Observation Space

The observation is a dictionary with an `"observation"` element, the float32
vector described here, and an `"action_mask"` element, described in the Legal
Actions Mask section. The vector is relative to the observer's seat (self,
left, partner, right; with two players self, opponent) and holds what a player
at the table knows: the hand (all zero until the player has looked, see Blind
Nil), every bid (not yet / 0..13 / Blind Nil), tricks per seat, the current
trick and its leader, every card played by seat, known voids, spades broken,
the phase, whose turn, the dealer, the cards passed and received in the Blind
Nil exchange (two players: the offered card, known discards, replacement
cards, stock and pile sizes), and the scores, bags and target, scaled.

| `observation` | 4 players | 2 players | adds |
|---|---|---|---|
| `"default"` | 681 | 479 | |
| `"history"` | 3593 | 1883 | every card of the hand in play order, by seat |
| `"oracle"` | 837 | 531 | the other seats' hands (for privileged critics and debugging) |

The block-by-block layout is generated from the code in
`docs/observations.md`; `spades_env.observations.decode(vector)` turns a
vector back into a readable dict. `observation_space(agent)` is a `Dict` of a
`Box` with per-entry bounds and the mask's `Box`. `observe(agent)` is valid
for any agent at any time. `state()` is the global state for centralised
critics: the `"oracle"` vector of `player_0`, whose bounds are
`env.unwrapped.state_space`.

#### Legal Actions Mask

The legal actions of the agent to act are the `"action_mask"` element of the
dictionary observation, an int8 vector of 71 entries, 1 where the action is
legal. It is all zero for every other agent. An illegal action raises a
`ValueError` and leaves the game as it was (`illegal_action="raise"`), or ends
the game with -1 for the offender (`illegal_action="terminate"`).

### Action Space

One `Discrete(71)` space serves every phase (`spades_env.actions`). Cards use
OpenSpiel's numbering (C2 = 0, SA = 51); `action_to_str(51) == "AS"`,
`str_to_action("bid 4") == 56`:

| id | action |
|---|---|
| 0..51 | a card, `suit * 13 + rank` (C, D, H, S; 2..A): played, passed, or put back (two players) |
| 52..65 | bid 0..13 (52 is Nil) |
| 66 | Blind Nil (chosen before looking at the hand) |
| 67 | look at my cards (decline Blind Nil) |
| 68 | two-player draw: keep the top card (the next is seen and discarded) |
| 69 | two-player draw: discard the top card (the next is kept) |
| 70 | two-player Blind Nil replacement: done |

### Rewards

Rewards are zero except at the step that completes a hand, and are paid to
every player through `_cumulative_rewards`: partners get the same reward and
the two sides opposite ones.

| `reward` | when | value |
|---|---|---|
| `"score"` | every scored hand | (your side's points − the other side's points) / 100 |
| `"win"` | the step that ends the game | +1 to the winning side, −1 to the other; 0 to all when truncated or tied |

At the step that scores a hand, `infos[agent]["hand_record"]` holds that
hand's record; `env.unwrapped.hand_records` keeps them all.

### Version History

* v0: partnership and two-player Spades; `default`, `history` and `oracle`
  observations; `score` and `win` rewards (spades-env 0.1.0)
"""

import textwrap

from .env import env, raw_env
from .rules import OPTIONS, options_table, presets_table

# The signature's rule arguments and both rule tables come from the declarations in spades_env/rules.py, so
# that this docstring cannot drift from them (tests/test_docs.py reads it as it is after import).
_RULE_ARGUMENTS = ", ".join(f"{o.name}={o.default!r}" for o in OPTIONS.values() if o.name != "num_players") + ")"
_RULE_ARGUMENTS = textwrap.indent(textwrap.fill(_RULE_ARGUMENTS, 92), " " * 14)
__doc__ = __doc__.replace(" " * 14 + "<rule arguments>)", _RULE_ARGUMENTS).replace("<rule options>", options_table())
__doc__ = __doc__.replace("<rule presets>", presets_table())

__all__ = ["env", "raw_env"]
