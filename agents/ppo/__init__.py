"""PPO agents for Spades trained by self-play (torch): model, rollout, GAE buffer, training loop, checkpoints.

``spades_env.agents.make_agent("ppo")`` / ``"ppo-2p"`` load the shipped checkpoints in
``agents/ppo/checkpoints/``; ``"ppo:path/to/policy.pt"`` loads any policy
file or training checkpoint. Train with ``spades train`` (see
:mod:`spades_env.agents.ppo.train`).
"""

from .config import PPOConfig
from .model import ActorCritic, PPOAgent, load_policy, ppo_2p_agent, ppo_agent, save_policy

__all__ = ["PPOConfig", "ActorCritic", "PPOAgent", "load_policy", "save_policy", "ppo_agent", "ppo_2p_agent"]
