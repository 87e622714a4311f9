"""numpy or torch behind one set of calls, so that the batched engine is written once (see :class:`Backend`).

:func:`spades_env.scoring.score_sides` and the engine call the rest (``where``, ``stack``, ``clip``,
arithmetic) on :attr:`Backend.xp`, the array namespace, where numpy and torch spell them alike.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..cards import NUM_CARDS


class Backend:
    """The array calls whose spelling differs between numpy and torch; the rest of the code is shared.

    ``take`` / ``put`` gather and scatter along the first axis with an index array of any shape. In torch
    they are ``index_select`` / ``index_copy_`` / ``index_fill_``: advanced indexing (``x[idx]``) is one to
    three orders of magnitude slower on a CPU.
    """

    def __init__(self, device: Any = None) -> None:
        self.is_torch = device not in (None, "numpy")
        if not self.is_torch:
            self.xp, self.device = np, None
            self.f32, self.f64, self.i64, self.u8, self.bool = np.float32, np.float64, np.int64, np.uint8, np.bool_
            return
        import torch

        if device == "torch":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.xp, self.device = torch, torch.device(device)
        self.f32, self.f64, self.i64, self.u8, self.bool = (torch.float32, torch.float64, torch.int64, torch.uint8,
                                                            torch.bool)
        self._bits = torch.arange(64, device=self.device)

    def zeros(self, shape, dtype):
        if self.is_torch:
            return self.xp.zeros(shape, dtype=dtype, device=self.device)
        return np.zeros(shape, dtype)

    def full(self, shape, value, dtype):
        if self.is_torch:
            return self.xp.full(shape if isinstance(shape, tuple) else (shape,), value, dtype=dtype,
                                device=self.device)
        return np.full(shape, value, dtype)

    def arange(self, size: int):
        return self.xp.arange(size, device=self.device) if self.is_torch else np.arange(size)

    def asarray(self, value, dtype):
        if self.is_torch:
            if isinstance(value, self.xp.Tensor):
                return value.to(device=self.device, dtype=dtype)
            return self.xp.as_tensor(np.asarray(value), dtype=dtype, device=self.device)
        return np.asarray(value, dtype)

    def take(self, x, idx):
        """``x[idx]`` along the first axis: shape ``idx.shape + x.shape[1:]``."""
        if self.is_torch:
            return x.index_select(0, idx.reshape(-1)).reshape(*idx.shape, *x.shape[1:])
        return x[idx] if x.ndim == 1 else x.take(idx, axis=0)  # take(): rows several times faster than x[idx]

    def put(self, x, idx, value) -> None:
        """``x[idx] = value`` along the first axis, ``value`` a scalar or broadcastable (no repeated indices)."""
        if not self.is_torch:
            x[idx] = value
        elif isinstance(value, (bool, int, float)):
            x.index_fill_(0, idx.reshape(-1), value)
        else:
            full = self.xp.broadcast_to(value.to(x.dtype), (*idx.shape, *x.shape[1:]))
            x.index_copy_(0, idx.reshape(-1), full.reshape(-1, *x.shape[1:]))

    def put_cols(self, x, rows, start: int, value, width: int | None = None) -> None:
        """``x[rows, start:start + width] = value`` for a 2-d ``x`` (width defaults to value's last axis):
        a block of columns written in the rows ``rows`` (no repeated rows)."""
        width = value.shape[-1] if width is None else width
        if not self.is_torch:
            x[rows, start:start + width] = value
        elif isinstance(value, (bool, int, float)):
            x.narrow(1, start, width).index_fill_(0, rows.reshape(-1), value)
        else:
            x.narrow(1, start, width).index_copy_(0, rows.reshape(-1), value.reshape(-1, width).to(x.dtype))

    def nonzero(self, flags):
        """Indices where a 1-d boolean array is true."""
        return flags.nonzero().view(-1) if self.is_torch else flags.nonzero()[0]

    def compress(self, flags, x):
        """``x[flags]`` for a 1-d boolean ``flags``."""
        return x.index_select(0, flags.nonzero().view(-1)) if self.is_torch else x[flags]

    def unpack(self, masks, width: int = NUM_CARDS):
        """Bitmasks as booleans: int64 masks of shape (..., w) (w words, little end first; w = 1 may be
        dropped) give (..., width) with bit i of the whole at index i."""
        if width > 64 and masks.shape[-1] * 64 < width:
            raise ValueError(f"{masks.shape[-1]} words hold fewer than {width} bits")
        lead = masks.shape[:-1] if width > 64 else masks.shape
        if self.is_torch:
            bits = (masks.reshape(*lead, -1)[..., None] >> self._bits) & 1 == 1
            return bits.reshape(*lead, -1)[..., :width]
        raw = np.ascontiguousarray(masks, np.int64).view(np.uint8).reshape(*lead, -1)
        return np.unpackbits(raw, axis=-1, count=width, bitorder="little").view(bool)

    def unpack_word(self, masks, width: int):
        """One-word bitmasks (int64, any shape) as booleans (..., width): bit i at index i, and False past
        bit 63 (a card mask as a whole row of actions, say)."""
        if self.is_torch:
            bits = (masks[..., None] >> self._bits) & 1 == 1
            if width <= 64:
                return bits[..., :width]
            return self.xp.cat([bits, self.zeros((*masks.shape, width - 64), self.bool)], dim=-1)
        raw = np.ascontiguousarray(masks, np.int64).view(np.uint8).reshape(*masks.shape, 8)
        return np.unpackbits(raw, axis=-1, count=width, bitorder="little").view(bool)

    def astype(self, x, dtype):
        return x.to(dtype) if self.is_torch else x.astype(dtype)

    def copy(self, x):
        return x.clone() if self.is_torch else x.copy()

    def to_numpy(self, x) -> np.ndarray:
        return x.cpu().numpy() if self.is_torch else np.asarray(x)


def first_true(be: Backend, flags, default: int):
    """Per row, the index of the first true entry of ``flags`` (k, m), or ``default`` where none is."""
    first = be.astype(flags, be.i64).argmax(axis=1)
    return be.xp.where(flags.any(axis=1), first, default)
