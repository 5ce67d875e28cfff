"""Playing Berliner Macke and Volle Lotte to win: the exact win tables and
what reads them; the same module names as Tutto's (``tutto.win``) for the
same jobs, a job Macke has no code for left out (no ``params``, ``seat``,
``bot_kernel`` or ``reference``).

One job per module; importing this package loads none of them (the numba
kernels compile and load only when a module that needs them is imported).
The map, module -> its job -> what it is read with:

``programme``
    numba: one turn played to win with general leaves (``turn_value``) and
    where a turn of fixed decisions ends (``turn_outcomes``, ``move_mass``);
    both solvers use it. Read with ``macke.solver`` (the turn's DP).
``kernel2``
    numba: the two-player kernels (leaves, the last turn, the greedy sweep the
    planner reads a turn from, the points game). Read with ``solve2``.
``solve2``
    the two-player game: its setup for one rule set (``WinSetup``), the last
    turn, the points game, the two-player solution's type; its docstring has
    the mathematics. Read with ``kernel2`` and ``programme``.
``kernel_n``
    numba: the N-player solver's kernels (a turn with the mover's
    preferences, the end phase's stages, a sweep over the states). Read with
    ``solve_n``.
``solve_n``
    the win solver, 2 to 4 players (``solve_macke_win_n``), and the
    two-player table read from it (``solve_macke_win``). Read with
    ``kernel_n`` and ``solve2``.
``table``
    the win tables' policy files, two players and N (write, load, check;
    the rule fields they depend on are ``rules.WIN_FIELDS``; where a table is
    kept: ``default_win_file``,
    ``default_win_file_n``). Read with ``solve2`` and ``solve_n``.
``planner``
    decisions inside a turn from a two-player table (``WinPlanner``,
    ``two_player_scores``). Read with ``table``.
``report``
    the win table's report pages (heat map, bank thresholds). Read with
    ``table``.

Read them in this order: ``solve2`` (the docstring: scores, the floor, the
end of the game, policy iteration), ``programme``, ``kernel2``, then
``solve_n`` (the reduction to the mover, the end phase) and ``kernel_n``;
then ``table``, ``planner`` and ``report``. The layers: ``programme``
imports no other module here; the kernels build on it; ``solve2`` on them;
``table`` on ``solve2``; ``solve_n`` on ``solve2`` and ``table``;
``planner`` on ``table``; nothing here imports ``report``.
"""
