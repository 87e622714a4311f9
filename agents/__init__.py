"""Agents behind one protocol (:class:`spades_env.agents.base.Agent`) and a registry of names."""

from .base import Agent, make_agent, register, registered

__all__ = ["Agent", "make_agent", "register", "registered"]
register("random", "spades_env.agents.random_agent:RandomAgent")
register("ppo", "spades_env.agents.ppo.model:ppo_agent")
register("ppo-2p", "spades_env.agents.ppo.model:ppo_2p_agent")
register("heuristic", "spades_env.agents.heuristic:HeuristicAgent")
register("ppo-gen1", "spades_env.agents.ppo.model:ppo_gen1_agent")
register("split", "spades_env.agents.split_agent:split_agent")
register("ppo-bids", "spades_env.agents.split_agent:ppo_bids_agent")
