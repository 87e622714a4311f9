"""OpenSpiel: one hand of Spades as a ``pyspiel`` game, for OpenSpiel's algorithms, bots and RL environment.

::

    import pyspiel
    import spades_env.wrappers.openspiel  # registers "python_spades"

    game = pyspiel.load_game("python_spades")                          # four players, the game's rules
    game = pyspiel.load_game("python_spades(rules=house,score_1=-120)")  # dealt with side 1 at -120: Blind Nil open

A game is one hand, as OpenSpiel's own ``spades`` is (docs/rules.md says where that game's rules differ from these;
this one is this package's engine, :class:`~spades_env.game.SpadesGame`, behind OpenSpiel's interface):

- **Chance is explicit.** The hand starts with 52 chance nodes, each a card (ids 0..51, OpenSpiel's numbering)
  drawn uniformly from those not dealt yet: the four-player game deals card ``k`` to seat ``k % 4``, the
  two-player game lays out its stock top first. A two-player Blind Nil replacement (put a card back, draw one from
  the discard pile) is the player's action, then a chance node for the card drawn.
- **Actions** are the environment's 71 ids (``spades_env.actions``: cards, bids 0..13, Blind Nil, look, keep,
  discard, done), the legal ones in ascending order.
- **Returns** are zero-sum: each player gets its side's hand points minus the other side's (the ``spades_v0``
  reward before its scaling by 100), at the end of the hand only.
- **Observations.** ``observation_tensor`` is ``spades_v0``'s ``"default"`` vector (docs/observations.md),
  ``observation_string`` its decoded form; ``information_state_string`` is the engine's information-state key
  (equal exactly for the states the player cannot tell apart, perfect recall). No information-state tensor:
  the vectors summarise the exchange and the two-player draw as sets, not as the sequence a player saw
  (``rl_environment`` then reads the observation tensor).
- **Search.** ``clone`` is the engine's; ``resample_from_infostate`` deals the hidden cards among the consistent
  deals (:func:`spades_env.determinize.resample`) and replays the hand on them, so OpenSpiel's IS-MCTS runs as is.
- **Bots.** :class:`AgentBot` makes any agent of this package an OpenSpiel bot (``evaluate_bots``), and
  :class:`AgentRollouts` an MCTS evaluator (its play-outs value the leaves).

Parameters (``pyspiel.load_game("python_spades(name=value,...)")``): ``num_players`` (4 or 2), ``rules`` (a
preset of :data:`spades_env.rules.PRESETS`: ``default`` or ``house``), ``dealer`` (-1: the last seat, so player 0
bids and leads first), and the totals the hand is dealt at, ``score_0``, ``score_1``, ``bags_0``, ``bags_1``
(the scores decide who may bid Blind Nil under ``house``, the bags whether this hand's reach the penalty). Any
other rule set: ``SpadesOpenSpielGame(config=SpadesConfig(..., single_hand=True))``.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import numpy as np
import pyspiel

from spades_env import actions as A
from spades_env.agent import ActFunction, Agent, ask, reset_agent
from spades_env.cards import NUM_CARDS, TRICKS_PER_HAND, card_to_str, cards_of
from spades_env.game import Phase, SpadesConfig, SpadesGame
from spades_env.observations import decode, encode, observation_size
from spades_env.render import render_text
from spades_env.rules import PRESETS, preset_of
from spades_env.scoring import BLIND_NIL_BONUS

GAME_NAME = "python_spades"
PARAMETERS = {"num_players": 4, "rules": "default", "dealer": -1, "score_0": 0, "score_1": 0, "bags_0": 0,
              "bags_1": 0}
CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)

_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Spades, one hand (spades_env's engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


def hand_returns(game: SpadesGame) -> list[float]:
    """Each player's return once ``game``'s hand is scored: its side's points minus the other side's."""
    points, side_of = game.hand_records[-1]["points"], game.side_of
    return [float(points[side_of[p]] - points[1 - side_of[p]]) for p in range(game.num_players)]


def config_of(params: dict) -> SpadesConfig:
    """The single-hand rules ``params`` (:data:`PARAMETERS`) name, or a one-line ValueError."""
    if params["rules"] not in PRESETS:
        raise ValueError(f"rules must be a preset, one of {', '.join(PRESETS)}; got {params['rules']!r}")
    return SpadesConfig.from_preset(params["rules"], num_players=params["num_players"], single_hand=True)


def decision_bound(config: SpadesConfig) -> int:
    """The most player decisions one hand can take (OpenSpiel's ``max_game_length``)."""
    n = config.num_players
    if n == 4:  # look or Blind Nil, bid, an exchange of three cards each way per side, the cards
        return n + n + 2 * 2 * 3 + NUM_CARDS
    # each player: look or Blind Nil, 13 keep-or-discard, a bid, up to three replacements and done, 13 cards
    return n * (1 + TRICKS_PER_HAND + 1 + 4 + TRICKS_PER_HAND)


def points_bound(config: SpadesConfig) -> int:
    """A bound on a side's hand points either way, so on a return (OpenSpiel's utility range): every member's
    Blind Nil, every trick bid, and the bag penalties 13 bags can bring on top of the most carried."""
    members = config.num_players // 2
    penalties = (config.bag_limit - 1 + TRICKS_PER_HAND) // config.bag_limit
    return members * (BLIND_NIL_BONUS + 10 * A.MAX_BID) + TRICKS_PER_HAND + config.bag_penalty * penalties


class SpadesOpenSpielGame(pyspiel.Game):
    """``pyspiel.load_game(GAME_NAME, params)``; see the module docstring. ``config`` (a single-hand
    :class:`SpadesConfig`) replaces the ``num_players`` and ``rules`` parameters (``rules`` then names its
    preset, or ``custom``)."""

    def __init__(self, params: dict | None = None, config: SpadesConfig | None = None) -> None:
        params = {**PARAMETERS, **(params or {})}
        if config is None:
            config = config_of(params)
        elif not config.single_hand:
            raise ValueError("the OpenSpiel game is one hand: pass a SpadesConfig with single_hand=True")
        else:  # the parameters name the config's rules (load_game can rebuild the game only from a preset's)
            params.update(num_players=config.num_players, rules=preset_of(config) or "custom")
        n = config.num_players
        dealer, scores, bags = params["dealer"], [params["score_0"], params["score_1"]], [params["bags_0"],
                                                                                      params["bags_1"]]
        if not -1 <= dealer < n:
            raise ValueError(f"dealer must be a seat, 0..{n - 1}, or -1 (the last seat); got {dealer!r}")
        self.config, self.dealer = config, dealer % n
        SpadesGame(config).reset(0, scores=scores, bags=bags)  # the totals checked once, with the engine's errors
        self.scores, self.bags = scores, bags
        bound = points_bound(config)
        info = pyspiel.GameInfo(num_distinct_actions=A.NUM_ACTIONS, max_chance_outcomes=NUM_CARDS, num_players=n,
                                min_utility=-2.0 * bound, max_utility=2.0 * bound, utility_sum=0.0,
                                max_game_length=decision_bound(config))
        super().__init__(_TYPE, info, params)

    def new_initial_state(self) -> SpadesState:
        return SpadesState(self)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict | None = None) -> SpadesObserver:
        return SpadesObserver(self, iig_obs_type, params)


class _Engine:
    """Holds the engine's game so that pyspiel's clone, a deep copy of the state's fields, copies it with
    :meth:`SpadesGame.clone` (tens of times cheaper)."""

    __slots__ = ("game",)

    def __init__(self, game: SpadesGame) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict) -> _Engine:
        return _Engine(self.game.clone())


class SpadesState(pyspiel.State):
    """A hand: the 52 chance nodes of the deal, then the engine's game, with a two-player replacement's draw held
    as a chance node (``pending``) between the card put back and the card drawn."""

    def __init__(self, game: SpadesOpenSpielGame) -> None:
        super().__init__(game)
        self.dealt: list[int] = []  # the chance outcomes of the deal so far
        self.engine = _Engine(SpadesGame(game.config))
        self.pending: int | None = None  # a replacement's card put back, its draw still to come

    @property
    def game(self) -> SpadesGame:
        """The engine's game: the hand as it stands (not started while dealing)."""
        return self.engine.game

    @property
    def rules(self) -> SpadesOpenSpielGame:
        return self.get_game()

    # ---------------------------------------------------------------- turns

    def current_player(self) -> int:
        if len(self.dealt) < NUM_CARDS or self.pending is not None:
            return CHANCE
        return TERMINAL if self.game.game_over else self.game.current_player

    def is_terminal(self) -> bool:
        return len(self.dealt) == NUM_CARDS and self.game.game_over

    def _legal_actions(self, player: int) -> list[int]:
        return self.game.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.pending is not None:
            return self.game.chance_outcomes()
        left = sorted(set(range(NUM_CARDS)) - set(self.dealt))
        return [(card, 1 / len(left)) for card in left]

    def _apply_action(self, action: int) -> None:
        if len(self.dealt) < NUM_CARDS:
            if not (0 <= action < NUM_CARDS) or action in self.dealt:
                raise ValueError(f"the deal's chance outcome must be a card not dealt yet (an id 0..51 not in "
                                 f"{sorted(self.dealt)}), got {action!r}")
            self.dealt.append(action)
            if len(self.dealt) == NUM_CARDS:
                self._start()
        elif self.pending is not None:
            self.game.apply(self.pending, outcome=action)
            self.pending = None
        elif self.game.phase is Phase.REPLACE and action != A.DONE:
            if not self.game.is_legal(action):
                self.game.apply(action)  # raises the engine's error, which names the legal actions
            self.pending = action
        else:
            self.game.apply(action)

    def _start(self) -> None:
        n, dealt = self.rules.config.num_players, self.dealt
        deal = dealt if n == 2 else [dealt[seat::n] for seat in range(n)]  # the stock, or card k to seat k % n
        self.game.reset(0, deal=deal, dealer=self.rules.dealer, scores=self.rules.scores, bags=self.rules.bags)

    def _action_to_string(self, player: int, action: int) -> str:
        if player != CHANCE:
            return A.action_to_str(action)
        if self.pending is not None:
            return f"draw {card_to_str(action)}"
        return f"deal {card_to_str(action)}"

    def returns(self) -> list[float]:
        return hand_returns(self.game) if self.is_terminal() else [0.0] * self.rules.config.num_players

    def __str__(self) -> str:
        if len(self.dealt) < NUM_CARDS:
            return f"dealing: {len(self.dealt)} of {NUM_CARDS} cards dealt"
        pending = "" if self.pending is None else f"\n  put back {card_to_str(self.pending)}, its draw to come"
        return render_text(self.game) + pending

    # ---------------------------------------------------------------- search

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> SpadesState:
        """A state ``player_id`` cannot tell from this one, the hidden cards dealt among the consistent deals
        (seeded by ``probability_sampler``, a draw in [0, 1)), with its history replayed on them."""
        if self.current_player() == CHANCE:
            raise ValueError("resample_from_infostate needs a player's turn or the end, not a chance node")
        world = self.game.resample(player_id, np.random.default_rng(int(probability_sampler() * 2**53)))
        return replay(self.rules, world)


def replay(game: SpadesOpenSpielGame, world: SpadesGame) -> SpadesState:
    """The state of ``game`` whose deal and actions are ``world``'s hand (a game of ``game``'s rules)."""
    state = game.new_initial_state()
    n = game.config.num_players
    if n == 2:
        deal = world.stock
    else:
        hands = [cards_of(hand) for hand in world.start_hands]
        deal = [hands[k % n][k // n] for k in range(NUM_CARDS)]
    for card in deal:
        state.apply_action(card)
    draws = iter(drawn for _, _, drawn in world.replacements)
    for _, action in world.actions:
        state.apply_action(action)
        if state.pending is not None:
            state.apply_action(next(draws))
    return state


class SpadesObserver:
    """OpenSpiel's observer: the observation (``tensor``, ``dict``, a string) or, with perfect recall, the
    information-state string of a player."""

    def __init__(self, game: SpadesOpenSpielGame, iig_obs_type: pyspiel.IIGObservationType | None,
                 params: dict | None) -> None:
        if params:
            raise ValueError(f"the Spades observer takes no parameters, got {params!r}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if kind.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not kind.public_info:
            raise ValueError("the Spades observer gives one player's view (public and its own private "
                             "information): ask for the observation or the information state")
        self.perfect_recall = kind.perfect_recall
        n = game.config.num_players
        self.tensor = np.zeros(0 if self.perfect_recall else observation_size(n), np.float32)
        self.dict = {} if self.perfect_recall else {"observation": self.tensor}

    def set_from(self, state: SpadesState, player: int) -> None:
        if self.perfect_recall:
            return
        self.tensor.fill(0)
        if len(state.dealt) == NUM_CARDS:  # while dealing no one has looked at a card
            encode(state.game, player, out=self.tensor)

    def string_from(self, state: SpadesState, player: int) -> str:
        n = state.rules.config.num_players
        if len(state.dealt) < NUM_CARDS:  # no one sees a card before the engine's hand starts (perfect recall)
            return f"player {player}: {len(state.dealt)} cards dealt"
        if not self.perfect_recall:
            self.set_from(state, player)
            return json.dumps(decode(self.tensor, n), separators=(",", ":"))
        key = state.game.information_state_key(player)
        if state.pending is not None and state.game.current_player == player:
            key += f"|put back {card_to_str(state.pending)}"
        return key


class AgentBot(pyspiel.Bot):
    """Any agent of this package (``act(observation, action_mask, view)``: the heuristic, a network, a search)
    as an OpenSpiel bot for ``player_id``, for OpenSpiel's loops (``evaluate_bots``); ``seed`` seeds it at each
    ``restart_at``."""

    def __init__(self, agent: Agent | ActFunction, player_id: int, seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        self.agent, self.player_id, self.seed = agent, player_id, seed

    def restart_at(self, state: SpadesState) -> None:
        reset_agent(self.agent, self.player_id, self.seed, state.game.config)

    def inform_action(self, state: SpadesState, player_id: int, action: int) -> None:
        """Nothing to do: the agent reads the whole view at its turn."""

    def step(self, state: SpadesState) -> int:
        if state.current_player() != self.player_id:
            raise ValueError(f"this bot plays player {self.player_id}, but player {state.current_player()} is to act")
        return ask(self.agent, state.game, ask_forced=True)


class AgentRollouts:
    """An OpenSpiel evaluator (``evaluate``, ``prior``) for MCTS bots: the mean returns of ``rollouts`` play-outs of
    the hand by ``agent`` at every seat, on the engine directly; a uniform prior."""

    def __init__(self, agent: Agent | ActFunction, rollouts: int = 1) -> None:
        self.agent, self.rollouts = agent, rollouts

    def evaluate(self, state: SpadesState) -> np.ndarray:
        total = np.zeros(state.rules.config.num_players)
        for _ in range(self.rollouts):
            game = state.game.clone()
            if state.pending is not None:  # a replacement's draw, from the world's own generator
                game.apply(state.pending)
            while not game.game_over:
                game.apply(ask(self.agent, game))
            total += hand_returns(game)
        return total / self.rollouts

    def prior(self, state: SpadesState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(action, 1 / len(legal)) for action in legal]


pyspiel.register_game(_TYPE, SpadesOpenSpielGame)

__all__ = ["GAME_NAME", "PARAMETERS", "AgentBot", "AgentRollouts", "SpadesObserver", "SpadesOpenSpielGame",
           "SpadesState", "config_of", "decision_bound", "hand_returns", "points_bound", "replay"]
