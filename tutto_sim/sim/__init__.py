"""Monte Carlo experiments: batches of turns, searches, confidence intervals."""
