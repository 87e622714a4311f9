"""Agents behind one protocol (:class:`spades_env.agent.Agent`) and a registry of names.

``register(name, "module:attr")`` adds a name; ``positional=False`` marks an agent that takes keyword
arguments only (``heuristic:seed=3``), so that ``heuristic:MyAgent`` can only mean a class of your own
module ``heuristic`` (the rule is in :mod:`.base`).
"""

from .base import Agent, AgentSpec, AgentSpecError, load_agents_file, make_agent, register, registered

__all__ = ["Agent", "AgentSpec", "AgentSpecError", "load_agents_file", "make_agent", "register", "registered"]
register("random", "spades_env.agents.random_agent:RandomAgent", positional=False)
register("ppo", "spades_env.agents.ppo.model:ppo_agent")
register("ppo-2p", "spades_env.agents.ppo.model:ppo_2p_agent")
register("heuristic", "spades_env.agents.heuristic:HeuristicAgent", positional=False)
register("ppo-gen1", "spades_env.agents.ppo.model:ppo_gen1_agent", positional=False)
register("search", "spades_env.agents.search:SearchAgent", positional=False)
register("split", "spades_env.agents.split_agent:split_agent")
register("ppo-bids", "spades_env.agents.split_agent:ppo_bids_agent")
register("sb3", "spades_env.agents.library:sb3_agent")
register("torchrl", "spades_env.agents.library:torchrl_agent")
register("tianshou", "spades_env.agents.library:tianshou_agent")
register("rllib", "spades_env.agents.library:rllib_agent")
