"""A batched Spades engine: ``B`` games held as arrays and advanced by one call.

Why: a per-game Python loop (``SpadesGame`` + the AEC env) costs tens of
microseconds per decision, which bounds RL training speed. Here every piece of
state is an array with a leading batch axis (hands are 52-bit masks in
int64), and one :meth:`VectorSpades.step` applies one action in each of the
``B`` games with a few dozen whole-array operations, so the cost per decision
falls roughly as ``1 / B``.

What it returns is what an RL loop needs directly (:class:`VecStep`): the
observation of the seat to act in each game (exactly the ``"default"``
encoding of ``spades_v0``, see :mod:`spades_env.observations`), its legal
action mask, the seat to act, the reward of every seat on this step
(``"score"``: the hand's points for your side minus the other side's / 100,
partners equal; ``"win"``: +1 / -1 when the game is won), and termination /
truncation flags. A finished game restarts at once in its slot ("same-step"
auto-reset); its last observations stay readable in
:attr:`VectorSpades.final_observations`. :attr:`VectorSpades.obs_buffer`
gives every seat's observation (row ``p`` relative to seat ``p``).

The rules are those of :class:`~spades_env.game.SpadesGame`, the single source
of truth: the constants, the configuration, the scoring breakdown and the
observation layout are imported from the reference modules, and
``tests/test_vector.py`` plays thousands of games through both engines with
the same deals and actions and asserts identical masks, observations,
rewards and hand records at every step. What is re-expressed here is only the
array form of each transition.

Deals: with ``per_game_seeds=True`` the game in each slot owns
``numpy.random.default_rng(seed)`` and draws its first dealer, every deal and
every two-player replacement card with the same calls as
``SpadesGame.reset(seed)``, so slot ``b`` replays
``SpadesGame().reset(vec.game_seeds[b])`` whatever the batch size (for
cross-checks and duplicate evaluation). The default draws every slot's deals
from one generator instead, which is much faster when many games start at
once and is reproducible for a given seed and batch size. ``reset`` also
takes fixed first deals, dealers and starting scores, as ``SpadesGame.reset``.

Arrays are numpy by default; ``device="cuda"`` (or ``"cpu"``, ``"torch"``)
runs the same code on torch tensors. On numpy the two hottest calls, card
play and building the observations and masks of the seats to act, run as
compiled passes over the games (:mod:`~spades_env.vector.kernels`, numba;
``threads=2`` splits them over two cores); torch runs their array form. Every indexed read and write goes
through :meth:`~spades_env.vector.backend.Backend.take` / ``put`` on flat
arrays, which are fast in numpy and, as ``index_select`` / ``index_copy_``,
in torch; on the steps where every game is in one phase (most of them), the
per-game arrays are read and written whole instead (``GameState._of`` /
``_set``).

A self-play loop::

    vec = VectorSpades(1024, seed=0)            # or device="cuda"
    out = vec.reset()
    for _ in range(steps):
        actions = policy(out.obs, out.mask)     # one action id per game, for seat out.player[b]
        out = vec.step(actions)
        # out.rewards[b, p]: what seat p of game b receives on this step (all seats, not only the actor);
        # out.terminated | out.truncated: the game in slot b ended (slot b now holds a new game).

The package, one module per part (each of the transition modules is a mixin
of :class:`VectorSpades`, so that the hot paths read the state as plain
attributes):

- :mod:`~spades_env.vector.engine`: :class:`VectorSpades` (construction,
  ``reset``, ``step``, legal masks, hand records) and :class:`VecStep`;
- :mod:`~spades_env.vector.backend`: the numpy / torch shim;
- :mod:`~spades_env.vector.deals`: where deals come from;
- :mod:`~spades_env.vector.state`: the state arrays and phase ids;
- transitions: :mod:`~spades_env.vector.bidding` (bidding and the Blind Nil
  exchange), :mod:`~spades_env.vector.draw` (the two-player draw and
  replacements), :mod:`~spades_env.vector.play` (card play and tricks),
  :mod:`~spades_env.vector.hands` (the end of a hand: scoring with
  :func:`spades_env.scoring.score_sides`, the game's decision, rewards; and
  the next deal);
- :mod:`~spades_env.vector.observe`: the observation writers;
- :mod:`~spades_env.vector.kernels`: card play and the live view compiled
  for numpy (the same transitions, checked against the array form).
"""

from .engine import OBSERVATION_DTYPES, OBSERVATION_KINDS, REWARD_MODES, VecStep, VectorSpades

__all__ = ["VectorSpades", "VecStep", "REWARD_MODES", "OBSERVATION_KINDS", "OBSERVATION_DTYPES"]
