"""Playing Tutto to win: the exact win tables and everything that reads them.

One job per module; importing this package loads none of them (the numba
kernels compile and load only when a module that needs them is imported).

======================  ===================================================  ==============================
module                  its job                                              read with
======================  ===================================================  ==============================
``programme``           numba: one turn played to win, layer by layer        ``params`` (what it reads)
                        (``turn_programme``, ``one_layer``), who loses to a
                        Plus/Minus Tutto, a two-player leaf, the EV table's
                        turn outcomes; every solver and planner runs it
``params``              one turn's parameters from the rules (throw          ``programme``
                        classes, keep slots, the EV table's outcomes) and
                        the kernels' scratch
``kernel2``             numba: the two-player solver's own kernels (a        ``solve2``
                        state's value, seat 1's last turn, a level's pairs)
``solve2``              the two-player solver (``solve_win``): the           ``kernel2``, ``programme``
                        mathematics of playing to win, in its docstring
``kernel_n``            numba: the N-player solver's kernels (states,        ``solve_n``
                        leaves, links, a level's linear system)
``solve_n``             the N-player solver, 2 to 4 players                  ``kernel_n``, ``solve2``
                        (``solve_win_n``, checkpoints, the cluster) and
                        ``winopt`` valued exactly (``value_winopt``)
``table``               the win tables' policy files, two players and N      ``solve2``, ``solve_n``
                        (write, load, check; ``WIN_FIELDS``, where a table
                        is kept: ``default_win_file``)
``planner``             decisions inside a turn from a table                 ``table``
                        (``TurnPlanner``, ``WinPlanner``, ``WinPlannerN``,
                        ``TurnProgramme``, ``turn_start``)
``seat``                which two-player state a seat at a table of three    ``bot_kernel``, ``planner``
                        or more plays to win by (``two_player_state``)
``bot_kernel``          numba: the ``winopt`` bot in the game kernel (its    ``planner``
                        decisions precomputed from a table)
``reference``           the plain-Python reference solver the fast ones      ``solve2``, ``solve_n``
                        are tested against (small targets)
``report``              the win table's report pages (heat map, bank         ``table``
                        thresholds, table sizes)
======================  ===================================================  ==============================

Read them in this order: ``solve2`` (the docstring: states, leaves, the order
of solving), ``programme`` and ``params`` (one turn), ``kernel2``, then
``solve_n`` (what changes at a table of N) and ``kernel_n``; then ``table``,
``planner``, ``seat`` and ``bot_kernel`` (how a table is played); ``reference``
and ``report`` last. The layers: ``programme`` and ``seat`` import no other
module here; ``params`` and the kernels build on them; the solvers on those;
``table`` on ``planner``; nothing here imports ``bot_kernel`` or ``report``.
"""
