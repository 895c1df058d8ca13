"""gsdk.spaces: the observation and action spaces of gsdk's environments. Gymnasium's spaces (Box, Dict, Discrete,
MultiDiscrete)
when Gymnasium is installed, so that wrappers and learners recognise them; else small local classes with the same
attributes (shape, dtype, n, low, high, sample(mask=None), contains, seed), since the registries gsdk builds from
have no Gymnasium."""

import numpy as np

try:  # gymnasium's spaces when it is there, so wrappers and learners recognise them
    from gymnasium.spaces import Box, Dict, Discrete, MultiDiscrete
except ImportError:  # pragma: no cover - depends on the interpreter
    Box = Dict = Discrete = MultiDiscrete = None


class _Space:
    """What the local spaces share: a numpy Generator for sample(), seeded by seed()."""

    def __init__(self, shape, dtype, seed=None):
        self.shape = shape
        self.dtype = np.dtype(dtype) if dtype is not None else None
        self.np_random = np.random.default_rng(seed)

    def seed(self, seed=None):
        """Reseeds sample()'s generator."""
        self.np_random = np.random.default_rng(seed)
        return [seed]

    def __contains__(self, x):
        return self.contains(x)


class LocalDiscrete(_Space):
    """gymnasium.spaces.Discrete's subset: the integers 0 .. n-1."""

    def __init__(self, n, seed=None):
        super().__init__((), np.int64, seed)
        self.n = int(n)

    def sample(self, mask=None):
        """A uniform integer; with an int8 mask of length n, uniform among the 1s (0 when none is, as gymnasium)."""
        if mask is None:
            return int(self.np_random.integers(self.n))
        allowed = np.flatnonzero(np.asarray(mask) == 1)
        return int(self.np_random.choice(allowed)) if allowed.size else 0

    def contains(self, x):
        """Whether x is an integer in 0 .. n-1."""
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
            if not (isinstance(x, np.ndarray) and x.shape == () and np.issubdtype(x.dtype, np.integer)):
                return False
        return 0 <= int(x) < self.n

    def __repr__(self):
        return f"Discrete({self.n})"


class LocalBox(_Space):
    """gymnasium.spaces.Box's subset: arrays of one shape and dtype between low and high."""

    def __init__(self, low, high, shape, dtype, seed=None):
        super().__init__(tuple(shape), dtype, seed)
        self.low = np.full(self.shape, low, dtype=self.dtype)
        self.high = np.full(self.shape, high, dtype=self.dtype)

    def sample(self, mask=None):
        """A uniform array (integer dtypes: every value in [low, high]; floats: normal where unbounded)."""
        if np.issubdtype(self.dtype, np.integer):
            return self.np_random.integers(self.low, self.high, endpoint=True, dtype=self.dtype)
        finite = np.isfinite(self.low) & np.isfinite(self.high)
        values = self.np_random.normal(size=self.shape)
        values[finite] = self.np_random.uniform(self.low[finite], self.high[finite])
        return values.astype(self.dtype)

    def contains(self, x):
        """Whether x is an array of this shape, of a dtype that casts to this one, within the bounds."""
        if not isinstance(x, np.ndarray):
            return False
        return (x.shape == self.shape and np.can_cast(x.dtype, self.dtype)
                and bool(np.all(x >= self.low)) and bool(np.all(x <= self.high)))

    def __repr__(self):
        return f"Box({self.shape}, {self.dtype})"


class LocalMultiDiscrete(_Space):
    """gymnasium.spaces.MultiDiscrete's subset: integer arrays with element i in 0 .. nvec[i]-1 (a vector
    environment's batched Discrete actions)."""

    def __init__(self, nvec, dtype=np.int64, seed=None):
        self.nvec = np.asarray(nvec, dtype=dtype)
        super().__init__(self.nvec.shape, dtype, seed)

    def sample(self, mask=None):
        """A uniform array; with a tuple of int8 masks, one per element, uniform among each mask's 1s."""
        if mask is None:
            return self.np_random.integers(0, self.nvec, dtype=self.dtype)
        picks = [self._pick(n, m) for n, m in zip(self.nvec.flat, mask)]
        return np.asarray(picks, dtype=self.dtype).reshape(self.shape)

    def _pick(self, n, mask):
        allowed = np.flatnonzero(np.asarray(mask) == 1)
        return int(self.np_random.choice(allowed)) if allowed.size else 0

    def contains(self, x):
        """Whether x is an integer array of nvec's shape with 0 <= x < nvec."""
        x = np.asarray(x)
        return (x.shape == self.shape and np.issubdtype(x.dtype, np.integer)
                and bool(np.all(x >= 0)) and bool(np.all(x < self.nvec)))

    def __repr__(self):
        return f"MultiDiscrete({self.nvec})"


class LocalDict(_Space):
    """gymnasium.spaces.Dict's subset: a dict of named spaces."""

    def __init__(self, spaces, seed=None):
        super().__init__(None, None, seed)
        self.spaces = dict(spaces)

    def __getitem__(self, key):
        return self.spaces[key]

    def seed(self, seed=None):
        """Reseeds every member's generator from seed."""
        seeds = np.random.SeedSequence(seed).spawn(len(self.spaces))
        for space, sub in zip(self.spaces.values(), seeds):
            space.seed(int(sub.generate_state(1)[0]))
        return [seed]

    def sample(self, mask=None):
        """A dict of each member's sample (mask: a dict of masks by key, as gymnasium's)."""
        return {key: space.sample(None if mask is None else mask.get(key)) for key, space in self.spaces.items()}

    def contains(self, x):
        """Whether x is a dict with exactly these keys, each value in its space."""
        return (isinstance(x, dict) and x.keys() == self.spaces.keys()
                and all(space.contains(x[key]) for key, space in self.spaces.items()))

    def __repr__(self):
        return f"Dict({self.spaces!r})"


if Box is None:
    Box, Dict, Discrete, MultiDiscrete = LocalBox, LocalDict, LocalDiscrete, LocalMultiDiscrete


def bounds(dtype):
    """A Box's bounds for the observation's dtype: the integer type's range, else unbounded."""
    if dtype == np.bool_:
        return 0, 1
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return info.min, info.max
    return -np.inf, np.inf
