"""Game-independent machinery: seeded streams, statistics and CIs, the block
runner, the tournament engine, policy-file checks, report scaffolding, the
command-line helpers and the game registry. Imports no game."""
