"""The RL libraries' messages that say nothing to a user of this package, silenced in one place, each narrowly.

Each entry names the library's logger or warning and the start of the one
message; nothing else from the library is hidden. What was ours to fix is
fixed where it arose instead (see docs/rl_libraries.md). The entries:

- TorchRL warns on every ``PettingZooWrapper`` that it was tested with
  PettingZoo 1.24.3; this package tests TorchRL with its own pins.
- Tianshou logs "Sequence has shape (n, 4)" on every collect: its own
  ``PettingZooEnv`` returns one reward per seat, so an episode's return is a
  vector and its summary is taken over the flattened seats (the figures
  are not used here).
- Ray logs two deprecations from inside its own ``ActionMaskingTorchRLModule``
  (it imports ``PPOTorchRLModule`` by the old path and builds an
  ``RLModuleConfig``), on every load of a module, so once in each tournament
  worker; that PPO runs on the "new API stack", which is what the adapter
  is written for; "Install gputil", which concerns GPU monitoring; and the
  notice that the local cluster it starts uses token authentication.
"""

from __future__ import annotations

import logging
import warnings

LOG_MESSAGES: dict[str, dict[str, tuple[str, ...]]] = {
    "tianshou": {"tianshou.data.stats": ("Sequence has shape",)},
    "rllib": {
        "ray._common.deprecation": (
            "DeprecationWarning: `ray.rllib.algorithms.ppo.torch.ppo_torch_rl_module.PPOTorchRLModule`",
            "DeprecationWarning: `RLModule(config=[RLModuleConfig object])`",
        ),
        "ray.rllib.algorithms.algorithm_config": ("You are running PPO on the new API stack!",),
        "ray.tune.utils.util": ("Install gputil for GPU system monitoring",),
        "ray._private.authentication.authentication_token_setup": ("Token authentication is enabled for this",),
    },
}
"""By library: the logger, and the starts of its messages to drop."""

WARNINGS: dict[str, tuple[tuple[str, str], ...]] = {
    "torchrl": (("PettingZoo in TorchRL is tested using version", "torchrl.envs.libs.pettingzoo"),),
}
"""By library: (start of the message, module that warns) of Python warnings to ignore."""

class _DropMessages(logging.Filter):
    def __init__(self, starts: tuple[str, ...]) -> None:
        super().__init__()
        self.starts = starts

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(self.starts)


def quiet(library: str) -> None:
    """Silence ``library``'s messages listed above, in this process (again after ``warnings.catch_warnings``)."""
    for name, starts in LOG_MESSAGES.get(library, {}).items():
        logger = logging.getLogger(name)
        if not any(isinstance(f, _DropMessages) for f in logger.filters):
            logger.addFilter(_DropMessages(starts))
    for message, module in WARNINGS.get(library, ()):
        warnings.filterwarnings("ignore", message=message, category=UserWarning, module=module)
