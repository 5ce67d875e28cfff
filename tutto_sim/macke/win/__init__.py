"""Playing Berliner Macke and Volle Lotte to win: the exact win tables and
what reads them; the same module names as Tutto's (``tutto.win``) for the
same jobs, a job Macke has no code for left out (no ``params``, ``seat``,
``bot_kernel`` or ``reference``).

One job per module; importing this package loads none of them (the numba
kernels compile and load only when a module that needs them is imported).

======================  ===================================================  ==============================
module                  its job                                              read with
======================  ===================================================  ==============================
``programme``           numba: one turn played to win with general leaves    ``macke.solver`` (the turn DP)
                        (``turn_value``) and where a turn of fixed
                        decisions ends (``turn_outcomes``, ``move_mass``);
                        both solvers use it
``kernel2``             numba: the two-player solver's own kernels (leaves,  ``solve2``
                        the last turn, a sweep over the pairs of scores)
``solve2``              the two-player solver (``solve_macke_win``) and the  ``kernel2``, ``programme``
                        setup of one rule set (``WinSetup``): the
                        mathematics, in its docstring
``kernel_n``            numba: the N-player solver's kernels (a turn with    ``solve_n``
                        the mover's preferences, the end phase's stages,
                        a sweep over the states)
``solve_n``             the N-player solver, 2 to 4 players                  ``kernel_n``, ``solve2``
                        (``solve_macke_win_n``)
``table``               the win tables' policy files, two players and N      ``solve2``, ``solve_n``
                        (write, load, check; ``WIN_FIELDS``, where a table
                        is kept: ``default_win_file``, ``default_win_file_n``)
``planner``             decisions inside a turn from a two-player table      ``table``
                        (``WinPlanner``, ``two_player_scores``)
``report``              the win table's report pages (heat map, bank         ``table``
                        thresholds)
======================  ===================================================  ==============================

Read them in this order: ``solve2`` (the docstring: scores, the floor, the
end of the game, policy iteration), ``programme``, ``kernel2``, then
``solve_n`` (the reduction to the mover, the end phase) and ``kernel_n``;
then ``table``, ``planner`` and ``report``. The layers: ``programme``
imports no other module here; the kernels build on it; ``solve2`` on them,
``table`` on ``solve2``; ``solve_n`` on ``solve2`` and ``table``; ``planner`` on ``table``;
nothing here imports ``report``.
"""
