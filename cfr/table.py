"""The info-set table: open addressing over flat numpy arrays, keyed by collision-free keys.

Slots (capacity a power of two, linear probing, at most `MAX_LOAD` full):
- `keys: uint64[capacity, key_words]` the game's key (one word, or a pair);
- `meta: uint8[capacity]` 0 for an empty slot, else `n_actions | player << 7`;
- `offsets: uint32[capacity]` where the slot's actions start in the value arrays.
Values (append-only, so an offset never changes, not even when the slots are rehashed):
- `regrets`, `strategy: dtype[value_capacity]` regret sums and reach-weighted strategy sums,
  indexed by `offset + action`; `dtype` is float64 (default) or float32 (large games).

Memory per info set with a actions: 13 bytes per slot / load factor + 2 a value words, the
value arrays up to a quarter larger than used. For Setback (float32, a ~ 2.6, load between
0.375 and 0.75) that is about 38 to 61 bytes including slack.

Growth doubles the slots and rehashes every key, or enlarges the value arrays, always by copying
into new arrays before the old ones are dropped, so no value is ever lost. A growth that would
take `memory_bytes()` over `max_bytes` raises `TableFullError` instead.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cfr.errors import TableFullError

PLAYER_BIT = 0x80
ACTIONS_MASK = 0x7F
MAX_LOAD = 0.75
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always", _nrt=False)
def mix64(x):
    """Murmur3's 64-bit finalizer: a bijective mix of all 64 bits."""
    x ^= x >> np.uint64(33)
    x *= np.uint64(0xFF51AFD7ED558CCD)
    x ^= x >> np.uint64(33)
    x *= np.uint64(0xC4CEB9FE1A85EC53)
    x ^= x >> np.uint64(33)
    return x


@njit(cache=True, inline="always", _nrt=False)
def key_hash(key, key_words):
    """Hash of a key's first `key_words` words: mix64(k0), or mix64(k0 ^ mix64(k1 + golden))."""
    h = key[0]
    if key_words > 1:
        h ^= mix64(key[1] + _GOLDEN)
    return mix64(h)


@njit(cache=True, _nrt=False)
def find_slot(keys, meta, key):
    """The slot holding `key`, or the empty slot where it would go (linear probing).

    `key` is a `uint64` row of at least `key_words` words; the caller tells the two cases apart
    by `meta[slot]` (0: empty).
    """
    mask = np.uint64(keys.shape[0] - 1)
    kw = keys.shape[1]
    slot = np.int64(key_hash(key, kw) & mask)
    k0 = key[0]
    if kw == 1:
        while meta[slot] != 0:
            if keys[slot, 0] == k0:
                return slot
            slot = np.int64((np.uint64(slot) + np.uint64(1)) & mask)
        return slot
    k1 = key[1]
    while meta[slot] != 0:
        if keys[slot, 0] == k0 and keys[slot, 1] == k1:
            return slot
        slot = np.int64((np.uint64(slot) + np.uint64(1)) & mask)
    return slot


@njit(cache=True, _nrt=False)
def find_offset(keys, meta, offsets, key):
    """The value offset of `key`, or -1 if the table does not hold it."""
    slot = find_slot(keys, meta, key)
    if meta[slot] == 0:
        return np.int64(-1)
    return np.int64(offsets[slot])


@njit(cache=True, _nrt=False)
def rehash(keys, meta, offsets, new_keys, new_meta, new_offsets):
    """Reinsert every full slot of the old arrays into the (empty, larger) new arrays."""
    kw = keys.shape[1]
    for slot in range(keys.shape[0]):
        if meta[slot] != 0:
            target = find_slot(new_keys, new_meta, keys[slot])
            for w in range(kw):
                new_keys[target, w] = keys[slot, w]
            new_meta[target] = meta[slot]
            new_offsets[target] = offsets[slot]


class InfoSetTable:
    """Regret and strategy sums per info set, in flat arrays (see the module docstring)."""

    def __init__(
        self,
        key_words: int = 1,
        dtype=np.float64,
        capacity: int = 1024,
        value_capacity: int | None = None,
        max_bytes: int | None = None,
    ):
        if key_words not in (1, 2):
            raise ValueError("key_words must be 1 or 2")
        dtype = np.dtype(dtype)
        if dtype not in (np.dtype(np.float64), np.dtype(np.float32)):
            raise ValueError("dtype must be float64 or float32")
        capacity = 1 << max(4, int(capacity - 1).bit_length())
        self.key_words = key_words
        self.dtype = dtype
        self.max_bytes = max_bytes
        self.count = 0  # full slots (info sets)
        self.n_values = 0  # used entries of the value arrays
        self.keys = np.zeros((capacity, key_words), dtype=np.uint64)
        self.meta = np.zeros(capacity, dtype=np.uint8)
        self.offsets = np.zeros(capacity, dtype=np.uint32)
        vcap = value_capacity if value_capacity is not None else 3 * capacity
        self.regrets = np.zeros(vcap, dtype=dtype)
        self.strategy = np.zeros(vcap, dtype=dtype)
        self._check_cap(self.memory_bytes())

    # ---- sizes -------------------------------------------------------------------------
    @property
    def capacity(self) -> int:
        """Number of slots."""
        return self.keys.shape[0]

    @property
    def value_capacity(self) -> int:
        """Length of the regret and strategy arrays."""
        return self.regrets.shape[0]

    @property
    def max_count(self) -> int:
        """Info sets the slots can hold before they must grow."""
        return int(self.capacity * MAX_LOAD)

    def __len__(self) -> int:
        return self.count

    def memory_bytes(self) -> int:
        """Bytes held by the table's arrays."""
        return sum(a.nbytes for a in (self.keys, self.meta, self.offsets, self.regrets, self.strategy))

    def _bytes_with(self, capacity: int, value_capacity: int) -> int:
        per_slot = 8 * self.key_words + 1 + 4
        return capacity * per_slot + 2 * value_capacity * self.dtype.itemsize

    def _check_cap(self, needed: int) -> None:
        if self.max_bytes is not None and needed > self.max_bytes:
            raise TableFullError(
                f"info-set table would need {needed / 2**20:.2f} MiB (holding {self.count:,} "
                f"info sets), over its memory cap of {self.max_bytes / 2**20:.2f} MiB"
            )

    # ---- growth ------------------------------------------------------------------------
    def grow_slots(self) -> None:
        """Double the slots and rehash every key (values stay where they are)."""
        new_cap = 2 * self.capacity
        self._check_cap(self._bytes_with(new_cap, self.value_capacity))
        keys = np.zeros((new_cap, self.key_words), dtype=np.uint64)
        meta = np.zeros(new_cap, dtype=np.uint8)
        offsets = np.zeros(new_cap, dtype=np.uint32)
        rehash(self.keys, self.meta, self.offsets, keys, meta, offsets)
        self.keys, self.meta, self.offsets = keys, meta, offsets

    def grow_values(self, needed: int) -> None:
        """Enlarge the value arrays to hold at least `needed` entries (by at least a quarter:
        the slack stays small, and bytes per info set stay under 64 however full the slots)."""
        new_cap = max(needed, self.value_capacity + self.value_capacity // 4 + 16)
        if new_cap >= 2**32:
            raise TableFullError("info-set table value arrays would exceed 2**32 entries")
        self._check_cap(self._bytes_with(self.capacity, new_cap))
        for name in ("regrets", "strategy"):
            old = getattr(self, name)
            new = np.zeros(new_cap, dtype=self.dtype)
            new[: self.n_values] = old[: self.n_values]
            setattr(self, name, new)

    # ---- Python-side access (tests, export, debugging) --------------------------------
    def _key_row(self, key) -> np.ndarray:
        row = np.zeros(self.key_words, dtype=np.uint64)
        if np.isscalar(key):
            row[0] = key
        else:
            row[: len(key)] = key
        return row

    def offset(self, key) -> int:
        """The value offset of `key` (an int or a pair of ints), or -1 if absent."""
        return int(find_offset(self.keys, self.meta, self.offsets, self._key_row(key)))

    def insert(self, key, n_actions: int, player: int) -> int:
        """Add `key` with zeroed values if absent (growing as needed); return its offset."""
        row = self._key_row(key)
        off = int(find_offset(self.keys, self.meta, self.offsets, row))
        if off >= 0:
            return off
        if self.count + 1 > self.max_count:
            self.grow_slots()
        if self.n_values + n_actions > self.value_capacity:
            self.grow_values(self.n_values + n_actions)
        slot = int(find_slot(self.keys, self.meta, row))
        self.keys[slot] = row
        self.meta[slot] = n_actions | (player << 7)
        self.offsets[slot] = self.n_values
        off = self.n_values
        self.n_values += n_actions
        self.count += 1
        return off

    def entries(self):
        """Yield (key tuple, player, n_actions, offset) for every info set, in slot order."""
        for slot in np.flatnonzero(self.meta):
            m = int(self.meta[slot])
            yield (
                tuple(int(k) for k in self.keys[slot]),
                m >> 7,
                m & ACTIONS_MASK,
                int(self.offsets[slot]),
            )

    def copy(self) -> "InfoSetTable":
        """An independent copy (same capacities and contents)."""
        other = InfoSetTable.__new__(InfoSetTable)
        other.__dict__.update(self.__dict__)
        for name in ("keys", "meta", "offsets", "regrets", "strategy"):
            setattr(other, name, getattr(self, name).copy())
        return other

    def same_contents(self, other: "InfoSetTable") -> bool:
        """True when both tables hold the same keys, layout and values, bit for bit."""
        n = self.n_values
        return (
            self.dtype == other.dtype
            and self.count == other.count
            and n == other.n_values
            and np.array_equal(self.keys, other.keys)
            and np.array_equal(self.meta, other.meta)
            and np.array_equal(self.offsets, other.offsets)
            and self.regrets[:n].tobytes() == other.regrets[:n].tobytes()
            and self.strategy[:n].tobytes() == other.strategy[:n].tobytes()
        )
