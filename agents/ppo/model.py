"""The masked actor-critic and the :class:`PPOAgent` that plays with it.

One network serves every seat and every phase. It reads the environment's
``"default"`` observation vector (relative to the acting seat, so one set of
weights plays any seat) and outputs 71 logits (the whole action table) and a
value. **Bidding and card play share the torso and the policy head**: their
action ids are disjoint (cards 0..51, bids 52..65, Blind Nil / look 66..67,
two-player draw 68..70) and the observation carries a one-hot phase, so the
mask alone picks the phase's actions. The value head predicts the hand's
reward for the acting seat's side (points difference / 100).

Illegal actions get a logit of ``-inf`` before the softmax: their probability
is exactly 0, so sampling can never return one, and their log-probabilities
never enter the loss.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from spades_env.actions import NUM_ACTIONS
from spades_env.agent import BaseAgent
from spades_env.observations import observation_size

from .features import CardFeatures
from .greedy import greedy_forward
from .sparse import SparseRows, sparse_linear

CHECKPOINT_DIR = Path(__file__).resolve().parent / "checkpoints"
SHIPPED = {4: CHECKPOINT_DIR / "ppo-4p-v3.pt", 2: CHECKPOINT_DIR / "ppo-2p.pt"}  # what `ppo` and `ppo-2p` play
PPO_V1 = CHECKPOINT_DIR / "ppo-4p.pt"  # `ppo-v1`, the first four-player network
PPO_V2 = CHECKPOINT_DIR / "ppo-4p-v2.pt"  # `ppo-v2`, the four-player network before `ppo-v3`
GEN1 = CHECKPOINT_DIR / "ppo-4p-gen1.pt"  # an earlier four-player network (its history: its meta["provenance"])


class ActorCritic(nn.Module):
    """An MLP actor (71 logits) and a value head.

    With ``critic_obs_size=None`` the value head sits on the actor's torso
    and reads the same observation. With ``critic_obs_size`` set (the
    ``"oracle"`` encoding, which is the default observation followed by the
    other seats' hands) the critic is a separate MLP that also sees the
    hidden cards: a *privileged critic*. It is only used in training, to cut
    the variance of the advantages (a hand's result depends mostly on the
    cards); the actor still reads only ``x[:, :obs_size]``, what the player
    knows, so the agent needs nothing but the default observation at play time.

    With ``card_features=True`` both MLPs also read the card-play features
    that :class:`~spades_env.agents.ppo.features.CardFeatures` computes from the
    player's observation (no extra input: they are functions of it).
    """

    def __init__(self, obs_size: int, hidden_sizes: list[int] | tuple[int, ...] = (512, 256),
                 critic_obs_size: int | None = None, card_features: bool = False) -> None:
        super().__init__()
        self.obs_size = obs_size
        self.hidden_sizes = list(hidden_sizes)
        self.critic_obs_size = critic_obs_size
        self.card_features = card_features
        self.features = CardFeatures(_num_players(obs_size)) if card_features else None
        extra = self.features.size if self.features is not None else 0
        self.torso = _mlp(obs_size + extra, hidden_sizes)
        self.policy = _init(nn.Linear(self.hidden_sizes[-1], NUM_ACTIONS), std=0.01)  # near-uniform start
        self.critic = None if critic_obs_size is None else _mlp(critic_obs_size + extra, hidden_sizes)
        self.value = _init(nn.Linear(self.hidden_sizes[-1], 1), std=1.0)

    @property
    def shape(self) -> tuple[int, list[int], int | None, bool]:
        """The constructor's arguments: ``ActorCritic(*net.shape)`` is a network of the same architecture."""
        return self.obs_size, self.hidden_sizes, self.critic_obs_size, self.card_features

    def actor_parameters(self) -> list[nn.Parameter]:
        """What acting depends on: everything but the value head and the privileged critic (a torso shared
        with the value head is the actor's)."""
        critic = {id(p) for module in (self.critic, self.value) if module is not None for p in module.parameters()}
        return [p for p in self.parameters() if id(p) not in critic]

    def forward(self, x: torch.Tensor, feats: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """Raw (unmasked) logits ``(B, 71)`` and values ``(B,)`` from ``(B, critic_obs_size or obs_size)`` inputs
        (``feats``: their :meth:`features_of`, if already computed)."""
        own = x[:, :self.obs_size]
        feats = self.features_of(own) if feats is None else feats  # once for actor and critic
        h = _run(self.torso, own, feats)
        v = h if self.critic is None else _run(self.critic, x, feats)
        return self.policy(h), self.value(v).squeeze(-1)

    def values(self, x: torch.Tensor, feats: torch.Tensor | None = None) -> torch.Tensor:
        """The critic alone: values ``(B,)`` from the same inputs as :meth:`forward`."""
        own = x[:, :self.obs_size]
        feats = self.features_of(own) if feats is None else feats
        h = _run(self.torso, own, feats) if self.critic is None else _run(self.critic, x, feats)
        return self.value(h).squeeze(-1)

    def features_of(self, obs: torch.Tensor) -> torch.Tensor | None:
        """The card-play features of the observations (None without ``card_features``): functions of the input,
        so a batch's can be computed once for all the passes over it."""
        return None if self.features is None else self.features(obs[:, :self.obs_size])

    def logits(self, obs: torch.Tensor) -> torch.Tensor:
        """Policy logits from the player's own observation only (what the agent uses at play time)."""
        own = obs[:, :self.obs_size]
        return self.policy(_run(self.torso, own, None if self.features is None else self.features(own)))

    def rows(self, x: torch.Tensor) -> Rows:
        """The inputs of :meth:`forward` as :class:`Rows` (their non-zero entries, the card features included),
        for the passes of training: built once per batch, indexed per minibatch."""
        x = x.float()  # once (a rollout's observations are stored as float16)
        feats = self.features_of(x)
        rows = SparseRows.of(*((x,) if feats is None else (x, feats)))
        return Rows(rows.without(self.obs_size, x.shape[1]), None if self.critic is None else rows)

    def forward_rows(self, rows: Rows) -> tuple[torch.Tensor, torch.Tensor]:
        """:meth:`forward` on :meth:`rows`: the same logits and values (up to float32 rounding), the first layers
        on the non-zero inputs only (sparse.py: an update's steps in less than half the time)."""
        h = _run_rows(self.torso, rows.actor)
        v = h if self.critic is None else _run_rows(self.critic, rows.critic)
        return self.policy(h), self.value(v).squeeze(-1)

    def logits_rows(self, rows: Rows) -> torch.Tensor:
        """:meth:`logits` on :meth:`rows` (the actor's alone)."""
        return self.policy(_run_rows(self.torso, rows.actor))

    def values_rows(self, rows: Rows) -> torch.Tensor:
        """:meth:`values` on :meth:`rows`."""
        h = _run_rows(self.torso, rows.actor) if self.critic is None else _run_rows(self.critic, rows.critic)
        return self.value(h).squeeze(-1)


@dataclass(frozen=True)
class Rows:
    """A batch's inputs as training reads them: the actor's rows (the player's observation and card features)
    and the privileged critic's (with the other hands; None without one), as their non-zero entries."""

    actor: SparseRows
    critic: SparseRows | None

    def __len__(self) -> int:
        return len(self.actor)

    def __getitem__(self, rows) -> Rows:
        return Rows(self.actor[rows], None if self.critic is None else self.critic[rows])

    def padded(self, rows: int) -> Rows:
        """Followed by all-zero rows up to ``rows`` (see :data:`ROW_BUCKET`)."""
        return Rows(self.actor.padded(rows), None if self.critic is None else self.critic.padded(rows))


def _run(mlp: nn.Sequential, inputs: torch.Tensor, feats: torch.Tensor | None) -> torch.Tensor:
    """``mlp`` on ``inputs`` followed by ``feats`` as one row, without building that row: the first layer's
    weight is split by columns instead (``torch.cat`` of an update's minibatch took a quarter of its time)."""
    if feats is None:
        return mlp(inputs)
    first, width = mlp[0], inputs.shape[1]
    h = nn.functional.linear(inputs, first.weight[:, :width], first.bias)
    h = h + nn.functional.linear(feats, first.weight[:, width:])
    for layer in mlp[1:]:
        h = layer(h)
    return h


def _run_rows(mlp: nn.Sequential, rows: SparseRows) -> torch.Tensor:
    """``mlp`` on sparse rows: the first layer by :func:`~.sparse.sparse_linear`, the rest as usual."""
    h = sparse_linear(rows, mlp[0].weight, mlp[0].bias)
    for layer in mlp[1:]:
        h = layer(h)
    return h


def _num_players(obs_size: int) -> int:
    for n in (4, 2):
        if observation_size(n) == obs_size:
            return n
    raise ValueError(f"card_features needs a 'default' observation (4 or 2 players), got width {obs_size}")


def _mlp(width: int, hidden_sizes: list[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for h in hidden_sizes:
        layers += [_init(nn.Linear(width, h)), nn.ReLU(inplace=True)]
        width = h
    return nn.Sequential(*layers)


def _init(layer: nn.Linear, std: float = 2**0.5) -> nn.Linear:
    nn.init.orthogonal_(layer.weight, std)
    nn.init.zeros_(layer.bias)
    return layer


def masked_log_probs(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Log-probabilities over the action table with illegal actions at ``-inf`` (probability exactly 0)."""
    return torch.log_softmax(logits.masked_fill(~mask, float("-inf")), dim=-1)


def masked_entropy(log_probs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Entropy over the legal actions only.

    Illegal entries have ``p = 0`` and ``log p = -inf``; their ``log p`` is
    replaced by 0 *before* the product, since ``0 * -inf`` is NaN and would
    poison the gradient even behind a ``torch.where``.
    """
    return -(log_probs.exp() * log_probs.masked_fill(~mask, 0.0)).sum(-1)


# Row counts of the bfloat16 passes are rounded up to a multiple of this. oneDNN builds a kernel for every
# new matrix shape and keeps it: with rollouts of varying length every minibatch had a new shape, and the
# process grew by about 25 MB per update (measured: 0.4 to 1.8 GB over 300 passes of random sizes, flat at
# 0.45 GB with sizes rounded to 512).
ROW_BUCKET = 512
# The update's minibatches are rounded to this finer multiple: the rows a minibatch is padded with are
# repeated rows (the permutation wraps around), 12% of an update's rows with 512 over the 30-minute run's
# rollouts (7,461 to 9,456 rows, 4 minibatches), 3% with 128; five shapes instead of two.
MINIBATCH_BUCKET = 128


def bucketed(rows: int, bucket: int = ROW_BUCKET) -> int:
    """``rows`` rounded up to a multiple of ``bucket``."""
    return -(-rows // bucket) * bucket


def bf16_autocast(enabled: bool):
    """The context of the update's and cloning's forward passes: bfloat16 matmuls when asked for and the CPU
    has them (float32 weights, gradients and optimizer). Against float32, a policy's log-probabilities move by
    about 0.003 on average (0.03 at the 99th percentile), far inside PPO's clipping."""
    if compute_dtype(enabled) is torch.bfloat16:
        return torch.autocast("cpu", dtype=torch.bfloat16)
    return contextlib.nullcontext()


def compute_dtype(bf16: bool) -> torch.dtype:
    """The dtype of the matmuls under ``bf16_autocast(bf16)``. Inputs handed over in it are not cast again on
    every layer and step (the casts of the observations took 12% of an update step); the values are the same
    as autocast's own casts."""
    if bf16 and torch.backends.mkldnn.is_available() and torch.ops.mkldnn._is_mkldnn_bf16_supported():
        return torch.bfloat16
    return torch.float32


@contextlib.contextmanager
def torch_threads(threads: int):
    """Run a block on ``threads`` torch threads (the updates), then go back (collection's small batches run
    best on one)."""
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def sample_actions(log_probs: torch.Tensor, generator: torch.Generator | None = None) -> torch.Tensor:
    """One action per row, drawn from ``exp(log_probs)`` by the Gumbel-max trick (``argmax(log p - log E)``,
    ``E`` exponential: about twice as fast as ``torch.multinomial`` on a batch); illegal actions, at ``-inf``,
    are never drawn."""
    noise = torch.empty_like(log_probs).exponential_(generator=generator).clamp_(min=1e-30)
    return (log_probs - noise.log()).argmax(-1)


# ---------------------------------------------------------------- policy files


def policy_state(model: ActorCritic, num_players: int, meta: dict | None = None, actor_only: bool = False) -> dict:
    """What a policy file holds: weights, the shape to rebuild the network, and free-form metadata.

    ``actor_only=True`` leaves out the critic and the value head: the file
    plays (the agent reads only the actor) at about half the size, which is
    how a network with a privileged critic ships under the 5 MB limit; it
    cannot seed a training run's critic (``--init-policy`` then starts the
    critic afresh).
    """
    weights = model.state_dict()
    if actor_only:
        weights = {k: v for k, v in weights.items() if not k.startswith(("critic.", "value."))}
    return {"format": "spades-ppo-policy/1", "num_players": num_players, "obs_size": model.obs_size,
            "hidden_sizes": model.hidden_sizes, "critic_obs_size": None if actor_only else model.critic_obs_size,
            "card_features": model.card_features, "actor_only": actor_only,
            "state_dict": weights, "meta": dict(meta or {})}


def atomic_save(obj, path: str | Path) -> None:
    """``torch.save`` to a temporary file in the same folder, then rename: a crash never leaves a torn file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        torch.save(obj, fh)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def save_policy(model: ActorCritic, path: str | Path, num_players: int, meta: dict | None = None,
                actor_only: bool = False) -> None:
    atomic_save(policy_state(model, num_players, meta, actor_only), path)


def load_policy(path: str | Path) -> tuple[ActorCritic, dict]:
    """Rebuild the network from a policy file (or a training checkpoint, which contains one)."""
    data = torch.load(path, map_location="cpu", weights_only=False)
    if "policy" in data:  # a training checkpoint
        data = data["policy"]
    model = ActorCritic(data["obs_size"], data["hidden_sizes"], data.get("critic_obs_size"),
                        data.get("card_features", False))
    if data.get("actor_only"):  # no value head in the file: predict 0
        nn.init.zeros_(model.value.weight)
        nn.init.zeros_(model.value.bias)
        missing, unexpected = model.load_state_dict(data["state_dict"], strict=False)
        if unexpected or set(missing) != {"value.weight", "value.bias"}:
            raise ValueError(f"{path}: not a valid actor-only policy (missing {missing}, unexpected {unexpected})")
    else:
        model.load_state_dict(data["state_dict"])
    model.eval()
    return model, data


_SHARED: dict[str, tuple[tuple[int, int], ActorCritic, dict]] = {}


def shared_policy(path: Path) -> tuple[ActorCritic, dict]:
    """The network of a policy file, loaded once per process and shared by the agents that play it (they only
    read it): a training run facing a network builds one agent per hand and seat, a thousand at 512 hands.
    A file rewritten since (another size or time) is loaded afresh."""
    stat = path.stat()
    key, version = str(path.resolve()), (stat.st_mtime_ns, stat.st_size)
    if key not in _SHARED or _SHARED[key][0] != version:
        _SHARED[key] = (version, *load_policy(path))
    return _SHARED[key][1], _SHARED[key][2]


class PPOAgent(BaseAgent):
    """Plays a trained policy through the :class:`spades_env.agents.registry.Agent` protocol.

    ``path``: a policy file or training checkpoint; default the shipped
    checkpoint for ``num_players``. ``greedy=True`` plays the most probable
    legal action (deterministic, the usual choice for evaluation); with
    ``greedy=False`` it samples, seeded by :meth:`reset`.
    """

    def __init__(self, path: str | Path | None = None, num_players: int = 4, greedy: bool = True) -> None:
        path = Path(path) if path else SHIPPED[num_players]
        if not path.exists():
            raise FileNotFoundError(f"no PPO checkpoint at {path}")
        self.model, data = shared_policy(path)
        self.num_players = data["num_players"]
        self.meta = data["meta"]
        self.path = path
        self.greedy = greedy
        self.fast = greedy_forward(self.model)
        self.generator = torch.Generator().manual_seed(0)
        expected = observation_size(self.num_players)
        if data["obs_size"] != expected:
            raise ValueError(f"{path}: network expects {data['obs_size']} inputs but the {self.num_players}-player "
                             f"default observation has {expected}")

    @property
    def supported_players(self) -> tuple[int, ...]:
        return (self.num_players,)

    def check_config(self, config) -> None:
        """Refuse another variant at once: the network reads the observation of the variant it was trained on."""
        if config.num_players != self.num_players:
            other = {4: "ppo", 2: "ppo-2p"}[config.num_players]  # the shipped network of each variant
            raise ValueError(f"{self.path.name} is a {self.num_players}-player network ({self.model.obs_size} "
                             f"inputs) and cannot play {config.num_players} players; use {other} or a "
                             f"{config.num_players}-player policy file")

    def reset(self, seat: int | None = None, seed: int | None = None, config=None) -> None:
        if config is not None:
            self.check_config(config)
        if seed is not None:
            self.generator.manual_seed(int(seed))

    @torch.no_grad()
    def act(self, observation: np.ndarray, action_mask: np.ndarray, view=None) -> int:
        observation = np.asarray(observation, np.float32).reshape(-1)
        if observation.size != self.model.obs_size:
            raise ValueError(f"observation has {observation.size} entries, the network expects {self.model.obs_size} "
                             f"(a {self.num_players}-player 'default' observation)")
        legal = np.asarray(action_mask, bool)
        if not legal.any():
            raise ValueError("action_mask has no legal action: it is not this agent's turn")
        if self.greedy:  # numpy on one row: a fifth of torch's time, the same action (greedy.py)
            action = self.fast.act(observation, legal)
            if action is not None:
                return action
        log_probs = masked_log_probs(self.model.logits(torch.as_tensor(observation).unsqueeze(0)),
                                     torch.as_tensor(legal).unsqueeze(0))
        if self.greedy:
            return int(log_probs.argmax(-1))
        return int(sample_actions(log_probs, self.generator))


def ppo_agent(path: str | None = None, **kwargs) -> PPOAgent:
    """Registry factory for ``"ppo-v3"`` (alias ``"ppo"``) / ``"ppo:path.pt"`` (four players by default)."""
    return PPOAgent(path or None, **{"num_players": 4, **kwargs})


def _earlier_four_player(default: Path, name: str) -> Callable[..., PPOAgent]:
    """The registry factory ``name`` of an earlier shipped four-player network (``name:path.pt`` as ``ppo``)."""
    def factory(path: str | None = None, **kwargs) -> PPOAgent:
        return PPOAgent(path or default, **{"num_players": 4, **kwargs})
    factory.__name__ = factory.__qualname__ = name  # what a wrong spec's error names
    return factory


ppo_v1_agent = _earlier_four_player(PPO_V1, "ppo_v1_agent")  # "ppo-v1": the first shipped four-player network
ppo_v2_agent = _earlier_four_player(PPO_V2, "ppo_v2_agent")  # "ppo-v2": the four-player network before ppo-v3


def ppo_gen1_agent(**kwargs) -> PPOAgent:
    """Registry factory for ``"ppo-gen1"``: the first-generation four-player network."""
    return PPOAgent(GEN1, **{"num_players": 4, **kwargs})


def ppo_2p_agent(path: str | None = None, **kwargs) -> PPOAgent:
    """Registry factory for ``"ppo-2p"`` / ``"ppo-2p:path.pt"``."""
    return PPOAgent(path or None, **{"num_players": 2, **kwargs})
