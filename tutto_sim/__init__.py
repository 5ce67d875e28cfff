"""tutto-sim: strategy analysis for Tutto, Berliner Macke and Volle Lotte."""

__version__ = "0.1.0"
