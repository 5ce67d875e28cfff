"""Tutto: 6 dice and a deck of 56 cards (docs/rules.md).

Data flows one way: ``rules``/``cards`` -> ``dice.throws`` -> (``solver`` |
``turn_kernel``, ``table_kernel``) -> ``threshold``, ``policy`` -> ``turns``,
``optimize``, ``validate``; ``game``, ``game_kernel``, ``bots``, ``human`` ->
``report*`` and ``cli``. ``reference`` is the readable twin of the kernels.
"""
