"""Agents that play policies saved by the RL libraries: ``sb3:``, ``torchrl:``, ``tianshou:``, ``rllib:``, ``rlcard:``.

Each registered factory takes what its library saved (``sb3:model.zip``,
``torchrl:policy.ckpt``, ``tianshou:policy.pt``, ``rllib:checkpoint_dir``, ``rlcard:checkpoint.pt``)
and loads it with that library's own loader, so that ``spades tournament``
and :func:`spades_env.agents.make_agent` can seat it like any agent. The
library is imported inside the factory, not here: ``import
spades_env.agents`` stays light, and each tournament worker process (spawned,
so it imports afresh) imports only the library it plays.

Every agent plays the saved policy greedily (its most probable legal action),
hands the action mask to the library where the library takes one
(sb3-contrib's ``action_masks``, TorchRL's ``MaskedCategorical``, the
``mask`` of Tianshou's observation batch, the ``action_mask`` of RLlib's
action-masking module) and masks the logits itself where it does not
(RLlib modules without masking), and checks that the action it gets back is
legal. Agents of one library trained per side or per seat play the network
of the seat they are given at ``reset``; ``agent_id(seat)`` is the
``spades_v0`` name the libraries key them by.

Loading a pickled policy (Tianshou, RLlib, parts of an sb3 zip) runs code
from the file: load only files you trust.
"""

from __future__ import annotations

import contextlib
import importlib
import io
from abc import ABC, abstractmethod
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from spades_env.agent import BaseAgent
from spades_env.observations import observation_size

from .registry import make_agent

EXTRAS = {"sb3": "sb3_contrib", "torchrl": "torchrl", "tianshou": "tianshou", "rllib": "ray.rllib",
          "rlcard": "rlcard"}
"""The extra each spec prefix needs, and the module that tells whether it is installed."""


def agent_id(seat: int) -> str:
    """``spades_v0``'s agent name of ``seat`` (``"player_2"``), which the libraries' multi-agent APIs key by."""
    return f"player_{seat}"


def _library(prefix: str) -> ModuleType:
    """Import the library behind ``prefix`` with its known noise silenced, or say which extra installs it."""
    from spades_env.wrappers.quiet import quiet  # here: the wrappers package imports gymnasium

    quiet(prefix)
    try:
        return importlib.import_module(EXTRAS[prefix])
    except ImportError as exc:
        raise ImportError(f"the {prefix}: agent needs the [{prefix}] extra ({exc}): "
                          f"pip install -e '.[{prefix}]'") from None


class LibraryPolicy(BaseAgent, ABC):
    """A policy saved by an RL library, played through the :class:`spades_env.agent.Agent` protocol.

    Subclasses load the file and implement :meth:`choose`; this class checks
    the observation's size against the policy's, remembers the seat, and
    refuses an illegal action from the library rather than sending it on.
    """

    prefix = ""
    needs_view = False
    observation_kind = "default"

    def __init__(self, path: str | Path, obs_size: int) -> None:
        self.path = Path(path)
        self.obs_size = int(obs_size)
        self.seat = 0

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.path)!r})"

    def reset(self, seat: int | None = None, seed: int | None = None, *args: Any, **kwargs: Any) -> None:
        """Start a game in ``seat`` (play is greedy, so the seed is not used)."""
        if seat is not None:
            self.seat = int(seat)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: Any = None) -> int:
        obs = np.asarray(observation, np.float32)
        if obs.shape != (self.obs_size,):
            raise ValueError(f"{self.prefix}:{self.path}: the observation has {obs.size} entries, the policy "
                             f"expects {self.obs_size} (was it trained for another number of players or "
                             f"another observation kind? it reads spades_v0's 'default' vector)")
        legal = np.asarray(action_mask, bool)
        action = int(self.choose(obs, legal))
        if not 0 <= action < legal.size or not legal[action]:
            raise RuntimeError(f"{self.prefix}:{self.path}: the policy chose action {action}, which is not legal "
                               f"(legal: {np.flatnonzero(legal).tolist()})")
        return action

    @abstractmethod
    def choose(self, obs: np.ndarray, legal: np.ndarray) -> int:
        """The library's greedy action for ``obs`` given the legal actions ``legal`` (bool)."""


def _existing(path: str | Path, prefix: str, what: str) -> Path:
    if not path:
        raise ValueError(f"the {prefix}: agent needs a path: {prefix}:PATH to {what}")
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{prefix}:{path}: no such file or folder (expected {what})")
    return path


def _masked_argmax(logits: np.ndarray, legal: np.ndarray) -> int:
    return int(np.where(legal, np.asarray(logits, np.float64), -np.inf).argmax())


class SB3Policy(LibraryPolicy):
    """sb3-contrib's ``MaskablePPO`` from ``model.save(path)``: ``MaskablePPO.load`` and ``predict(action_masks=)``."""

    prefix = "sb3"

    def __init__(self, path: str | Path) -> None:
        path = _existing(path, self.prefix, "a MaskablePPO .zip written by model.save()")
        self.model = _library(self.prefix).MaskablePPO.load(path, device="cpu")
        super().__init__(path, self.model.observation_space.shape[0])

    def choose(self, obs: np.ndarray, legal: np.ndarray) -> int:
        action, _ = self.model.predict(obs, action_masks=legal, deterministic=True)
        return int(action)


class TorchRLPolicy(LibraryPolicy):
    """Masked actors saved by :func:`spades_env.wrappers.torchrl.save_policy` (a ``torchrl.checkpoint`` archive).

    The seat plays the actor of its group in the saved group map; the
    action is ``MaskedCategorical``'s under ``ExplorationType.DETERMINISTIC``.
    """

    prefix = "torchrl"

    def __init__(self, path: str | Path) -> None:
        path = _existing(path, self.prefix, "a policy written by spades_env.wrappers.torchrl.save_policy")
        _library(self.prefix)
        from spades_env.wrappers.torchrl import load_policy

        self.actors, group_map, meta = load_policy(path)
        self.group_of = {name: group for group, names in group_map.items() for name in names}
        super().__init__(path, meta["obs_dim"])

    def choose(self, obs: np.ndarray, legal: np.ndarray) -> int:
        import torch
        from tensordict import TensorDict
        from torchrl.envs.utils import ExplorationType, set_exploration_type

        group = self.group_of.get(agent_id(self.seat))
        if group is None:
            raise ValueError(f"{self.prefix}:{self.path}: no group of the saved policy plays seat {self.seat} "
                             f"(groups: {self.group_of})")
        td = TensorDict({(group, "observation", "observation"): torch.from_numpy(obs)[None],
                         (group, "action_mask"): torch.from_numpy(legal)[None]}, batch_size=[1])
        with torch.no_grad(), set_exploration_type(ExplorationType.DETERMINISTIC):
            return int(self.actors[group](td)[group, "action"][0])


class TianshouPolicy(LibraryPolicy):
    """A Tianshou policy saved whole (``torch.save(policy, path)``, Tianshou's ``PolicyPersistence`` "policy" mode).

    A ``MultiAgentPolicy`` dispatches the seat's observation to that seat's
    policy by ``agent_id``, as in training; each policy's
    ``deterministic_eval`` is turned on, so it plays the mode of its
    distribution. The observation batch carries the mask (``obs.mask``), as
    Tianshou's ``PettingZooEnv`` gives it.
    """

    prefix = "tianshou"

    def __init__(self, path: str | Path) -> None:
        path = _existing(path, self.prefix, "a policy written by torch.save(algorithm.policy, path)")
        _library(self.prefix)
        import torch

        self.policy = torch.load(path, map_location="cpu", weights_only=False)
        for policy in getattr(self.policy, "policies", {}).values() or [self.policy]:
            policy.deterministic_eval = True
        self.policy.eval()
        space = self.policy.observation_space
        super().__init__(path, (space["observation"] if "observation" in getattr(space, "spaces", {}) else space)
                         .shape[0])

    def choose(self, obs: np.ndarray, legal: np.ndarray) -> int:
        import torch
        from tianshou.data import Batch

        batch = Batch(obs=Batch(obs=obs[None], mask=legal[None], agent_id=np.array([agent_id(self.seat)])),
                      info=Batch())
        with torch.no_grad():
            act = self.policy(batch).act
        return int(np.asarray(act).reshape(-1)[0])


class RLlibPolicy(LibraryPolicy):
    """RLlib (new API stack) RLModules from ``Algorithm.save_to_path`` or ``RLModule.save_to_path``.

    ``path`` is an algorithm checkpoint (its modules are read from
    ``learner_group/learner/rl_module``) or a (Multi)RLModule checkpoint,
    loaded with ``RLModule.from_checkpoint``. A seat plays the module its side
    maps to (:func:`spades_env.wrappers.rllib.team_of`), or the only module.
    A module whose observation space is a ``Dict`` gets ``{"observations",
    "action_mask"}`` (what ``ActionMaskingTorchRLModule`` reads); either way
    the greedy action is taken over the legal logits only.
    """

    prefix = "rllib"
    ALGORITHM_MODULES = Path("learner_group", "learner", "rl_module")

    def __init__(self, path: str | Path) -> None:
        path = _existing(path, self.prefix, "a checkpoint folder written by Algorithm.save_to_path()")
        _library(self.prefix)
        from ray.rllib.core.rl_module.multi_rl_module import MultiRLModule
        from ray.rllib.core.rl_module.rl_module import RLModule

        root = path / self.ALGORITHM_MODULES if (path / self.ALGORITHM_MODULES).is_dir() else path
        module = RLModule.from_checkpoint(root.resolve())  # RLlib reads a relative path as a URI without a scheme
        self.modules = dict(module.items()) if isinstance(module, MultiRLModule) else {"module": module}
        for m in self.modules.values():
            m.eval()
        space = next(iter(self.modules.values())).observation_space
        super().__init__(path, (space["observations"] if "observations" in getattr(space, "spaces", {}) else space)
                         .shape[0])

    def module_for(self, seat: int):
        if len(self.modules) == 1:
            return next(iter(self.modules.values()))
        from spades_env.wrappers.rllib import team_of

        module_id = team_of(agent_id(seat))
        if module_id not in self.modules:
            raise ValueError(f"{self.prefix}:{self.path}: no module {module_id!r} for seat {seat} "
                             f"(modules: {sorted(self.modules)})")
        return self.modules[module_id]

    def choose(self, obs: np.ndarray, legal: np.ndarray) -> int:
        import torch

        module = self.module_for(self.seat)
        x = torch.from_numpy(obs)[None]
        if "observations" in getattr(module.observation_space, "spaces", {}):
            x = {"observations": x, "action_mask": torch.from_numpy(legal.astype(np.float32))[None]}
        with torch.no_grad():
            logits = module.forward_inference({"obs": x})["action_dist_inputs"][0]
        return _masked_argmax(logits.numpy(), legal)


class RLCardPolicy(LibraryPolicy):
    """An RLCard DQN or NFSP agent from its ``save_checkpoint`` file (``DQNAgent.from_checkpoint``), or any RLCard
    agent saved whole (``torch.save(agent, path)``), asked as RLCard asks it: ``eval_step`` on the state dict
    :mod:`spades_env.wrappers.rlcard` builds (a DQN plays its greedy action; an NFSP agent its evaluation policy,
    as RLCard plays it)."""

    prefix = "rlcard"
    AGENT_TYPES = ("DQNAgent", "NFSPAgent")

    def __init__(self, path: str | Path) -> None:
        path = _existing(path, self.prefix, "a checkpoint written by an RLCard agent's save_checkpoint(dir, name)")
        _library(self.prefix)
        import torch

        loaded = torch.load(path, map_location="cpu", weights_only=False)
        if isinstance(loaded, dict):
            kind = loaded.get("agent_type")
            if kind not in self.AGENT_TYPES:
                raise ValueError(f"{self.prefix}:{path}: a checkpoint of agent_type {kind!r}; this loads "
                                 f"{' and '.join(self.AGENT_TYPES)} checkpoints, or an agent saved whole")
            with contextlib.redirect_stdout(io.StringIO()):  # from_checkpoint prints that it restores
                loaded = getattr(importlib.import_module("rlcard.agents"), kind).from_checkpoint(loaded)
        if not hasattr(loaded, "eval_step"):
            raise ValueError(f"{self.prefix}:{path}: holds a {type(loaded).__name__}, not an RLCard agent "
                             "(one with eval_step)")
        self.agent = loaded
        rl_agent = getattr(loaded, "_rl_agent", loaded)  # NFSP's best response holds the state shape too
        shape = getattr(getattr(rl_agent, "q_estimator", None), "state_shape", None)
        super().__init__(path, int(np.prod(shape)) if shape is not None else observation_size(4))
        self.players = 4 if self.obs_size == observation_size(4) else 2  # what the observation was made for

    def choose(self, obs: np.ndarray, legal: np.ndarray) -> int:
        from spades_env.wrappers.rlcard import rlcard_state

        action, _ = self.agent.eval_step(rlcard_state(obs, np.flatnonzero(legal).tolist(), self.players, "default"))
        return int(action)


def sb3_agent(path: str = "") -> SB3Policy:
    """Registry factory for ``"sb3:model.zip"``."""
    return SB3Policy(path)


def torchrl_agent(path: str = "") -> TorchRLPolicy:
    """Registry factory for ``"torchrl:policy.ckpt"``."""
    return TorchRLPolicy(path)


def tianshou_agent(path: str = "") -> TianshouPolicy:
    """Registry factory for ``"tianshou:policy.pt"``."""
    return TianshouPolicy(path)


def rllib_agent(path: str = "") -> RLlibPolicy:
    """Registry factory for ``"rllib:checkpoint_dir"``."""
    return RLlibPolicy(path)


def rlcard_agent(path: str = "") -> RLCardPolicy:
    """Registry factory for ``"rlcard:checkpoint.pt"``."""
    return RLCardPolicy(path)


def score(spec: str, opponents: tuple[str, ...] = ("heuristic", "random"), games: int = 400, seed: int = 0,
          **config: Any) -> dict[str, dict]:
    """Duplicate matches of the agent ``spec`` against each opponent, on the same seeded deals for each.

    ``config`` goes to :func:`spades_env.agents.tournament.run.evaluate`
    (``single_hand``, ``num_players``, ...). Returns its pairing statistics
    by opponent. The examples end with this on the policy they saved, so the
    figures are those of the file a tournament would load.
    """
    from .tournament.run import evaluate

    return {opponent: evaluate(lambda: make_agent(spec), opponent, games=games, seed=seed, **config)
            for opponent in opponents}


def score_lines(scores: dict[str, dict], name: str = "policy") -> list[str]:
    """One line per opponent: points per deal (A minus B, 95% interval), boards and win rate."""
    lines = []
    for opponent, stats in scores.items():
        ci = stats["points_per_deal_diff"]
        interval = "(one board: no interval)" if ci["low"] is None else f"[{ci['low']:+.1f}, {ci['high']:+.1f}]"
        lines.append(f"{name} vs {opponent}: {ci['mean']:+.1f} points per deal {interval} "
                     f"over {stats['boards']} duplicate boards ({stats['games']} games), "
                     f"win rate {stats['win_rate_a']:.1%}")
    return lines
