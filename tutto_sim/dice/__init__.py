"""What the dice games share: scoring units (single 1s and 5s, triples),
the throw tables of 1-6 dice, the reference scorer and the bot actions of a
push-your-luck turn. Imports ``core`` at most, never a game."""
