"""Agents behind one protocol (:class:`spades_env.agent.Agent`) and a registry of names.

``register(name, "module:attr")`` adds a name; ``positional=False`` marks an agent that takes keyword
arguments only (``heuristic:seed=3``), so that ``heuristic:MyAgent`` can only mean a class of your own
module ``heuristic`` (the rule is in :mod:`.registry`).
"""

from .registry import (
    Agent,
    AgentSpec,
    AgentSpecError,
    load_agents_file,
    make_agent,
    register,
    register_alias,
    registered,
    versioned_name,
)

__all__ = ["Agent", "AgentSpec", "AgentSpecError", "load_agents_file", "make_agent", "register", "register_alias",
           "registered", "versioned_name"]
# Shipped agents under versioned names that never change what they play (published figures stay
# reproducible); the bare name is an alias of the latest version.
register("random-v1", "spades_env.agents.random_agent:RandomAgent", positional=False)
register("heuristic-v1", "spades_env.agents.heuristic:heuristic_v1", positional=False)
register("heuristic-v2", "spades_env.agents.heuristic:heuristic_v2", positional=False)
register("search-v1", "spades_env.agents.search:SearchAgent", positional=False)
register("search-v3", "spades_env.agents.search.on_network:search_v3", positional=False)
register("search-v4", "spades_env.agents.search.on_network:search_v4", positional=False)
register("search-v5", "spades_env.agents.search.on_network:search_v5", positional=False)
register("search-v6", "spades_env.agents.search.on_network:search_v6", positional=False)
register("ppo-v1", "spades_env.agents.ppo.model:ppo_v1_agent")
register("ppo-v2", "spades_env.agents.ppo.model:ppo_v2_agent")
register("ppo-v3", "spades_env.agents.ppo.model:ppo_agent")
register("ppo-2p-v1", "spades_env.agents.ppo.model:ppo_2p_agent")
for _alias, _name in (("random", "random-v1"), ("heuristic", "heuristic-v2"), ("search", "search-v6"),
                      ("ppo", "ppo-v3"), ("ppo-2p", "ppo-2p-v1")):
    register_alias(_alias, _name)
register("ppo-gen1", "spades_env.agents.ppo.model:ppo_gen1_agent", positional=False)
register("split", "spades_env.agents.split_agent:split_agent")
register("endgame", "spades_env.agents.endgame:endgame_agent")
register("ppo-bids", "spades_env.agents.split_agent:ppo_bids_agent")
register("sb3", "spades_env.agents.library:sb3_agent")
register("torchrl", "spades_env.agents.library:torchrl_agent")
register("tianshou", "spades_env.agents.library:tianshou_agent")
register("rllib", "spades_env.agents.library:rllib_agent")
register("rlcard", "spades_env.agents.library:rlcard_agent")
register("openspiel-ismcts", "spades_env.agents.openspiel_bot:OpenSpielISMCTSAgent", positional=False)
