"""The only layer with @njit: random streams, throw sampling, turn simulation."""
