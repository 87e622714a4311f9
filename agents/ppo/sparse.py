"""The networks' first layers on the non-zero entries of their inputs: what makes an update light.

Why: an MLP's first layer is most of its work (here 1,006 or 1,162 inputs
into 256 units, against 256 x 256 after it), and its inputs are one-hot
blocks: about 7% of an update's input entries are non-zero (86 of 1,162 in a
critic row, measured on a rollout of the default recipe). A dense layer
multiplies every zero, forwards and in the weight gradient. On the
non-zero entries alone the layer is a sum of the weight's columns (torch's
``embedding_bag``) forwards, and a scatter of the output gradient into those
columns backwards (a compiled loop on the update's threads: torch's own
backward of ``embedding_bag`` is slower than the dense product). Measured on
a minibatch of 4,480 rows, two threads, a 2-core CPU without bfloat16 matmuls:
forwards 31-36 -> 5-7 ms, the weight gradient 22-27 -> 7-8 ms; a whole
update of 17,463 rows 2.2 -> 0.75 s. The values are the dense layer's up to
float32 rounding. Tried and dropped: the same on the play-time batches of a
rollout (tens to hundreds of rows: no faster below 128 rows, 20% at 512),
and loops over blocks of 64 outputs so that a block of the weight stays in
the cache (slower: 8.5 against 5 ms forwards).

:class:`SparseRows` holds a batch's rows as ``(column, value)`` pairs, padded
with zeros to the widest row; :func:`sparse_linear` is the layer.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from numba import njit, prange


@dataclass(frozen=True)
class SparseRows:
    """Rows of a ``width``-wide input as their non-zero entries: ``index`` (N, P) int32 columns and ``value``
    (N, P) float32, each row padded with (0, 0.0) to the widest row's P."""

    index: torch.Tensor
    value: torch.Tensor
    width: int

    def __len__(self) -> int:
        return len(self.index)

    def __getitem__(self, rows) -> SparseRows:
        return SparseRows(self.index[rows], self.value[rows], self.width)

    def padded(self, rows: int) -> SparseRows:
        """The same rows followed by all-zero ones up to ``rows`` in all (batches of a few shapes only)."""
        extra = rows - len(self)
        if extra <= 0:
            return self
        return SparseRows(torch.cat([self.index, self.index.new_zeros(extra, self.index.shape[1])]),
                          torch.cat([self.value, self.value.new_zeros(extra, self.value.shape[1])]), self.width)

    @classmethod
    def of(cls, *blocks: torch.Tensor) -> SparseRows:
        """The rows of ``blocks`` side by side (e.g. the observation and its card features)."""
        arrays = [b.detach().to(torch.float32).numpy() for b in blocks]
        starts = np.cumsum([0] + [a.shape[1] for a in arrays])
        counts = np.zeros(len(arrays[0]), np.int64)
        for a in arrays:
            _count_nonzero(a, counts)
        index = np.zeros((len(counts), int(counts.max(initial=0))), np.int32)
        value = np.zeros(index.shape, np.float32)
        counts[:] = 0
        for a, start in zip(arrays, starts):
            _fill(a, start, index, value, counts)
        return cls(torch.from_numpy(index), torch.from_numpy(value), int(starts[-1]))

    def without(self, start: int, stop: int) -> SparseRows:
        """The same rows with the columns in ``range(start, stop)`` left out and the later ones moved down (e.g.
        the other hands, which the actor does not read)."""
        index, value = self.index.numpy(), self.value.numpy()
        kept = (value != 0) & ((index < start) | (index >= stop))
        counts = kept.sum(1)
        out_index = np.zeros((len(index), int(counts.max(initial=0))), np.int32)
        out_value = np.zeros(out_index.shape, np.float32)
        _keep(index, value, kept, stop - start, stop, out_index, out_value)
        return SparseRows(torch.from_numpy(out_index), torch.from_numpy(out_value), self.width - (stop - start))


def sparse_linear(rows: SparseRows, weight: torch.Tensor, bias: torch.Tensor | None) -> torch.Tensor:
    """``nn.functional.linear`` on the dense rows that ``rows`` stands for, with gradients for the weight and
    bias (not for the inputs: they are data)."""
    if weight.shape[1] != rows.width:
        raise ValueError(f"a layer of {weight.shape[1]} inputs on rows of width {rows.width}")
    return _SparseLinear.apply(rows.index, rows.value, weight, bias)


class _SparseLinear(torch.autograd.Function):
    @staticmethod
    def forward(ctx, index, value, weight, bias):
        columns = weight.detach().float().t().contiguous()  # (inputs, outputs): a column per input entry
        out = torch.nn.functional.embedding_bag(index, columns, mode="sum", per_sample_weights=value)
        if bias is not None:
            out += bias.detach().float()
        ctx.save_for_backward(index, value)
        ctx.shape, ctx.has_bias = weight.shape, bias is not None
        return out

    @staticmethod
    def backward(ctx, grad):
        index, value = ctx.saved_tensors
        grad = grad.float().contiguous()
        columns = np.zeros((ctx.shape[1], ctx.shape[0]), np.float32)
        _scatter(index.numpy(), value.numpy(), grad.numpy(), columns, torch.get_num_threads())  # the update's
        grad_weight = torch.from_numpy(columns).t() if ctx.needs_input_grad[2] else None
        grad_bias = grad.sum(0) if ctx.has_bias and ctx.needs_input_grad[3] else None
        return None, None, grad_weight, grad_bias


@njit(cache=True)
def _count_nonzero(block, counts):
    """Add each row's count of non-zero entries to ``counts``."""
    for r in range(block.shape[0]):
        for c in range(block.shape[1]):
            if block[r, c] != 0:
                counts[r] += 1


@njit(cache=True)
def _fill(block, start, index, value, filled):
    """Append each row's non-zero entries (columns offset by ``start``) to ``index``/``value`` after the
    ``filled[r]`` already there."""
    for r in range(block.shape[0]):
        k = filled[r]
        for c in range(block.shape[1]):
            if block[r, c] != 0:
                index[r, k] = start + c
                value[r, k] = block[r, c]
                k += 1
        filled[r] = k


@njit(cache=True)
def _keep(index, value, kept, shift, stop, out_index, out_value):
    """Copy the ``kept`` entries of each row, the columns from ``stop`` on moved down by ``shift``."""
    for r in range(index.shape[0]):
        k = 0
        for j in range(index.shape[1]):
            if kept[r, j]:
                out_index[r, k] = index[r, j] - shift if index[r, j] >= stop else index[r, j]
                out_value[r, k] = value[r, j]
                k += 1


@njit(cache=True, parallel=True)
def _scatter(index, value, grad, columns, threads):
    """``columns[index[r, k]] += value[r, k] * grad[r]`` over every entry: the weight's gradient, transposed.
    The rows are split among ``threads`` threads, each adding into its own copy of ``columns``."""
    parts = max(1, min(threads, index.shape[0] // 256))
    copies = np.zeros((parts, columns.shape[0], columns.shape[1]), np.float32)
    for part in prange(parts):
        out = copies[part]
        for r in range(index.shape[0] * part // parts, index.shape[0] * (part + 1) // parts):
            for k in range(index.shape[1]):
                v = value[r, k]
                if v != 0:
                    c = index[r, k]
                    for j in range(grad.shape[1]):
                        out[c, j] += v * grad[r, j]
    for part in range(parts):
        columns += copies[part]
