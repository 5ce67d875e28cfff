"""Berliner Macke and its 6-dice variant Volle Lotte (docs/macke.md).

Data flows one way: ``rules`` -> ``tables`` -> (``solver`` | ``turn_kernel``,
``table_kernel``) -> ``threshold``, ``policy`` -> ``sim``, ``exact_sim``;
``game``, ``game_kernel``, ``bots`` -> ``report*`` and ``cli``.
``reference`` and ``scoring`` are the readable twins of the kernels.
"""
