"""The optimal Macke policy as decision arrays, cut where nothing changes any more.

Part of the solver layer. :func:`decision_arrays` reads a
:class:`~tutto_sim.macke.solver.MackeSolution`, whose decision arrays have
one row per locked total ``T0`` (units of 50) below the solver's cap:

- ``keep[T0, tl, slot]``: the keep (index into the throw's legal keeps) at a
  throw with ``tl`` throws left in the series, counting that throw; ``slot``
  names the set-aside state and the throw (``macke.solver.slot_layout``);
- ``ret[T0, tl, u]`` (``tl < L``): the units kept set aside before the
  throw (index into the state's sub-states; 0 = return nothing);
- ``bank[T0, tl', u']``: after setting aside, ``tl'`` throws left, bank?
- ``clear_bank[T]``: after a clear at turn total ``T``, bank?

It normalises the entries no turn can reach (the first throw of a series
with units set aside; a bank decision with nothing or everything set aside)
and cuts the locked rows at ``t_max``, the smallest total from which no
decision changes up to the cap, and the clear decisions likewise, so that a
policy file stays small and exact: a total above the last row uses the last
row. Ties were broken by the solver (the first best keep in table order;
banking; returning nothing).
"""

from __future__ import annotations

import numpy as np

from tutto_sim.macke.solver import MackeDecisions, MackeSolution, keep_template, slot_layout, throw_tables


def _last_change(rows: np.ndarray) -> int:
    """Smallest t with rows[t:] all equal to rows[t] (axis 0 is the total)."""
    if len(rows) < 2:
        return 0
    same = np.all((rows[1:] == rows[:-1]).reshape(len(rows) - 1, -1), axis=1)
    changed = np.nonzero(~same)[0]
    return 0 if len(changed) == 0 else int(changed[-1]) + 1


def decision_arrays(sol: MackeSolution) -> MackeDecisions:
    """Every decision of the optimal policy ``sol``, normalised and cut.

    The returned arrays have ``t_max + 1`` locked rows (``keep.shape[0]``)
    and ``clear_bank`` stops at the first total from which it never changes.
    """
    m = sol.tables
    n_all, n_throws = sol.rules.n_dice, sol.rules.throws
    d = sol.decisions
    off, _ = slot_layout(m)
    first = slice(off[m.empty], off[m.empty] + len(throw_tables(sol.rules).ids(n_all)))
    template = keep_template(m)
    keep = np.empty_like(d.keep)
    keep[:] = template
    keep[:, 1:n_throws] = d.keep[:, 1:n_throws]
    keep[:, n_throws, first] = d.keep[:, n_throws, first]  # a series starts with nothing aside
    ret = np.zeros_like(d.ret)
    ret[:, 1:n_throws] = d.ret[:, 1:n_throws]
    bank = np.zeros_like(d.bank)
    bank[:, 1:n_throws] = d.bank[:, 1:n_throws]
    bank[:, :, (m.state_dice == 0) | (m.state_dice == n_all)] = False
    t_max = max(_last_change(keep), _last_change(ret), _last_change(bank))
    clear = d.clear_bank
    if not clear[-1]:
        raise ValueError("the optimal policy still starts a new series at the cap; "
                         "solve with a larger cap_units")
    cut = slice(0, t_max + 1)
    return MackeDecisions(sol.rules, np.ascontiguousarray(keep[cut]),
                          np.ascontiguousarray(ret[cut]), np.ascontiguousarray(bank[cut]),
                          np.ascontiguousarray(clear[:_last_change(clear) + 1]))
