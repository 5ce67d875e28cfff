"""Playing Tutto to win: the exact win tables and everything that reads them.

One job per module; importing this package loads none of them (the numba
kernels compile and load only when a module that needs them is imported).
The map, module -> its job -> what it is read with:

``programme``
    numba: one turn played to win, layer by layer (``turn_programme``,
    ``one_layer``), who loses to a Plus/Minus Tutto, a two-player leaf, the
    EV table's turn outcomes; every solver and planner runs it.
    Read with ``params`` (what it reads).
``params``
    one turn's parameters from the rules (throw classes, keep slots, the EV
    table's outcomes) and the kernels' scratch. Read with ``programme``.
``kernel2``
    numba: the two-player table's reader kernels (a state's value, seat 1's
    last turn). Read with ``solve2``.
``solve2``
    the two-player table (``solve_win``: the N-player solver at N = 2, its
    table, last turn and figures as the two-player file keeps them); its
    docstring has the mathematics of playing to win. Read with ``kernel2``,
    ``programme`` and ``solve_n``.
``kernel_n``
    numba: the N-player solver's kernels (states, leaves, links, a level's
    linear system). Read with ``solve_n``.
``solve_n``
    the N-player solver, 2 to 4 players (``solve_win_n``: checkpoints, the
    cluster) and ``winopt`` valued exactly (``value_winopt``). Read with
    ``kernel_n`` and ``solve2``.
``table``
    the win tables' policy files, two players and N (write, load, check;
    the rule fields they depend on are ``rules.WIN_FIELDS``; where a table is
    kept: ``default_win_file``). Read with
    ``solve2`` and ``solve_n``.
``planner``
    decisions inside a turn from a table (``TurnPlanner``, ``WinPlanner``,
    ``WinPlannerN``, ``TurnProgramme``, ``turn_start``). Read with ``table``.
``seat``
    which two-player state a seat at a table of three or more plays to win by
    (``two_player_state``). Read with ``planner`` and ``bot_kernel``.
``bot_kernel``
    numba: the ``winopt`` bot in the game kernel (its decisions precomputed
    from a table). Read with ``planner``.
``reference``
    the plain-Python reference solver the fast ones are tested against (small
    targets). Read with ``solve2`` and ``solve_n``.
``report``
    the win table's report pages (heat map, bank thresholds, table sizes).
    Read with ``table``.

Read them in this order: ``solve2`` (the docstring: states, leaves, the order
of solving), ``programme`` and ``params`` (one turn), ``kernel2``, then
``solve_n`` (what changes at a table of N) and ``kernel_n``; then ``table``,
``planner``, ``seat`` and ``bot_kernel`` (how a table is played); ``reference``
and ``report`` last. The layers: ``programme`` and ``seat`` import no other
module here; ``params`` and the kernels build on them; the solvers on those;
``table`` on ``planner``; nothing here imports ``bot_kernel`` or ``report``.
"""
