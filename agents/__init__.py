"""Agents behind one protocol (:class:`agents.base.Agent`) and a registry of names."""

from .base import Agent, make_agent, register, registered

__all__ = ["Agent", "make_agent", "register", "registered"]
register("random", "agents.random_agent:RandomAgent")
register("ppo", "agents.ppo.model:ppo_agent")
register("ppo-2p", "agents.ppo.model:ppo_2p_agent")
register("heuristic", "agents.heuristic:HeuristicAgent")
register("ppo-gen1", "agents.ppo.model:ppo_gen1_agent")
register("split", "agents.split_agent:split_agent")
register("ppo-bids", "agents.split_agent:ppo_bids_agent")
