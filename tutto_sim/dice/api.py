"""Decision kinds and actions that every push-your-luck dice game here shares:
set aside scoring dice (``KEEP``), then bank or throw on (``BANK_OR_THROW``).
Tutto adds the Straße and the draw after a Tutto, Macke the return of units and
the new series after a clear."""

# Decision kinds.
KEEP = "keep"  # set aside scoring dice from a throw (legal: the game's keeps)
BANK_OR_THROW = "bank-or-throw"  # after a keep with dice left (legal: BANK, THROW)

# Actions besides keeps.
BANK = "bank"
THROW = "throw"
