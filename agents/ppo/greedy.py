"""The greedy policy on one observation, in numpy: what a playing agent pays for each decision.

Why: a tournament, a person at the table or a search asks the network for one row at a time, and there
torch's fixed cost per operation (the card features, three layers, the mask and the softmax: about 0.25 ms
a decision on one core) is five times the arithmetic. The observation is a few dozen ones among hundreds of
entries, so the first layer is a sum of that many weight rows; the rest are two small products.

The decisions are the torch forward's: the sums run in another order, so the logits differ in the last
float32 bits (about 1e-5), and where the best two legal logits lie within :data:`TIE` of each other the
caller is told to ask torch (``None``). Training and sampling keep the torch forward. The weights are copied
once per loaded network (:func:`greedy_forward`): a network loaded for play, whose weights do not change.
"""

from __future__ import annotations

import weakref

import numpy as np
from torch import nn

from .features import card_features

TIE = 1e-3  # logits closer than this are left to torch (float32 sums in another order differ by ~1e-5)


class GreedyForward:
    """The actor of an :class:`~.model.ActorCritic` as numpy arrays, for one observation at a time."""

    def __init__(self, model: nn.Module) -> None:
        linears = [layer for layer in model.torso if isinstance(layer, nn.Linear)] + [model.policy]
        self.weights = [np.ascontiguousarray(layer.weight.detach().cpu().numpy().T, np.float32) for layer in linears]
        self.biases = [layer.bias.detach().cpu().numpy().astype(np.float32) for layer in linears]
        self.features = model.features

    def inputs(self, observation: np.ndarray) -> np.ndarray:
        """The first layer's input: the observation, followed by its card features if the network reads them."""
        if self.features is None:
            return observation
        f = self.features
        row = np.empty((1, f.size), np.float32)  # per call: one network may serve agents in several threads
        card_features(observation.reshape(1, -1), f.num_players, *f.starts, f.power, row)
        return np.concatenate([observation, row[0]])

    def logits(self, observation: np.ndarray) -> np.ndarray:
        x = self.inputs(np.asarray(observation, np.float32))
        live = np.flatnonzero(x)
        h = self.biases[0] + x[live] @ self.weights[0][live]
        for weight, bias in zip(self.weights[1:], self.biases[1:]):
            np.maximum(h, 0.0, out=h)
            h = h @ weight + bias
        return h

    def act(self, observation: np.ndarray, mask: np.ndarray) -> int | None:
        """The most probable legal action, or None where the best two are too close to call in float32."""
        logits = np.where(mask, self.logits(observation), -np.inf)
        if np.count_nonzero(mask) > 1:
            second, first = np.partition(logits, -2)[-2:]
            if first - second < TIE:
                return None
        return int(logits.argmax())


_CACHE: weakref.WeakKeyDictionary[nn.Module, GreedyForward] = weakref.WeakKeyDictionary()


def greedy_forward(model: nn.Module) -> GreedyForward:
    """One :class:`GreedyForward` per loaded network (the weights are copied once, not per agent)."""
    if model not in _CACHE:
        _CACHE[model] = GreedyForward(model)
    return _CACHE[model]
