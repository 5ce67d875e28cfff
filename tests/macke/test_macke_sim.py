"""The numba Macke kernel plays the reference engine's turns exactly, its Monte
Carlo agrees with exact values, and the batch runner and the search are
reproducible (seed, chunks, threads)."""

import numba
import numpy as np
import pytest

import tutto_sim.macke.turns as sim_macke
from tutto_sim.core.rng import Stream
from tutto_sim.macke.reference import play_turn, threshold_policy_value
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.optimize import EVAL_START, optimize_macke
from tutto_sim.macke.turns import run_macke_policies
from tutto_sim.macke.threshold import MackeThresholdPolicy
from tutto_sim.macke.turn_kernel import END_MACKE, END_WIN, NEVER, MackeKernelData, simulate_turns

RULE_SETS = [
    MackeRules(),
    MackeRules.preset("instant-win"),
    MackeRules.preset("jackpot", throws=2),
    MackeRules.preset("ones-and-fives"),
    MackeRules.preset("volle-lotte"),
    MackeRules.preset("volle-lotte", six_of_kind="one-triple", bust="zero"),
    MackeRules(bust="zero", min_score=500, throws=4),
    MackeRules(min_score=0, throws=1),
    MackeRules.preset("instant-win", win_value=0, min_score=350),
]


def _ids(r):
    return f"{r.variant}-t{r.throws}-m{r.min_score}-{r.bust}-{r.six_of_kind}"


def _table(rules):
    """A threshold table that differs by throws and dice left."""
    return tuple(tuple(100 * ((3 * t + d) % 8) for d in range(rules.n_dice))
                 for t in range(rules.throws))


def _policies(rules):
    P = MackeThresholdPolicy
    return {
        "300": P.simple(rules, 300),
        "first": P.simple(rules, 0),
        "table": P(rules, _table(rules), 600),
        "never-1000": P(rules, None, 1000),
        "never": P.simple(rules, None),
    }


def _kernel(rules, policy, seed, n):
    kd = MackeKernelData(rules)
    out = simulate_turns(policy.to_array(), np.uint64(seed), 0, n, 97, *kd.args())
    out[:, :2] *= 50  # units of 50 -> points
    return out


def _reference(rules, policy, seed, n):
    rows = []
    for i in range(n):
        t = play_turn(rules, policy, Stream(seed, i))
        end = END_WIN if t.won else END_MACKE if t.macke else 0
        rows.append((t.result, t.turn_total, t.throws, t.clears, end))
    return np.array(rows, dtype=np.int64)


@pytest.mark.parametrize("rules", RULE_SETS, ids=_ids)
def test_kernel_plays_the_reference_turns(rules):
    for name, policy in _policies(rules).items():
        k = _kernel(rules, policy, 17, 500)
        r = _reference(rules, policy, 17, 500)
        bad = np.flatnonzero((k != r).any(axis=1))
        assert bad.size == 0, f"{name}: turns {bad[:5]} differ: kernel {k[bad[:3]]} reference {r[bad[:3]]}"


def test_rare_events_are_played_alike():
    # many turns of one policy in the variants with rare throws (five 1s)
    for rules in (MackeRules.preset("instant-win"), MackeRules.preset("jackpot")):
        policy = MackeThresholdPolicy.simple(rules, 300)
        k = _kernel(rules, policy, 3, 60_000)
        hits = np.flatnonzero((k[:, 4] == END_WIN) | (k[:, 0] >= 5000))[:40]
        assert hits.size > 0
        for i in hits:
            t = play_turn(rules, policy, Stream(3, int(i)))
            assert (t.result, t.turn_total, t.throws) == tuple(k[i, :3])


EXACT_CASES = [
    (MackeRules(), "300"), (MackeRules(), "table"), (MackeRules(), "never-1000"),
    (MackeRules.preset("jackpot", throws=2), "300"),
    (MackeRules.preset("instant-win"), "table"),
    (MackeRules.preset("ones-and-fives"), "never-1000"),
    (MackeRules.preset("volle-lotte"), "300"),
    (MackeRules(bust="zero", min_score=500, throws=4), "table"),
]


@pytest.mark.parametrize("rules,name", EXACT_CASES, ids=lambda x: x if isinstance(x, str) else _ids(x))
def test_monte_carlo_matches_exact_value(rules, name):
    policy = _policies(rules)[name]
    exact = threshold_policy_value(rules, policy)
    batch = run_macke_policies([policy], 4, 1_000_000, rules)
    ev = batch.ev(0)
    assert ev.contains(exact, slack=ev.ci95), (ev, exact)  # within 2 half-widths (~4 sigma)
    assert batch.sums[0, 2:5].sum() == batch.n  # > 0, < 0, == 0 partition the turns


def test_first_scoring_throw_exact_by_enumeration():
    """"Bank after the first scoring throw": by hand over the 6**5 first throws
    (tables-free: the reference scorer), against the kernel's Monte Carlo."""
    from itertools import product

    from tutto_sim.macke.scoring import best_keep

    rules = MackeRules()
    outcomes = [best_keep(d, rules) for d in product(range(1, 7), repeat=5)]
    values = np.array([0 if b is None else rules.result(b[1]) for b in outcomes], dtype=float)
    exact = values.mean()
    p_pos = (values > 0).mean()
    p_zero = (values == 0).mean()
    batch = run_macke_policies(MackeThresholdPolicy.simple(rules, 0), 8, 1_000_000, rules)
    assert batch.ev().contains(exact, slack=batch.ev().ci95)
    assert batch.p_positive().contains(p_pos, slack=batch.p_positive().ci95)
    assert batch.p_zero().contains(p_zero, slack=batch.p_zero().ci95)
    assert batch.mean_throws() == 1.0


def test_same_numbers_on_1_and_2_threads_and_any_chunking(monkeypatch):
    rules = MackeRules.preset("volle-lotte")
    pols = list(_policies(rules).values())
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = run_macke_policies(pols, 5, 300_000, rules)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = run_macke_policies(pols, 5, 300_000, rules)
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(one.sums, two.sums)
    monkeypatch.setattr(sim_macke, "CHUNK_WORK", 50_000)
    chunked = run_macke_policies(pols, 5, 300_000, rules)
    assert np.array_equal(one.sums, chunked.sums)
    first = run_macke_policies(pols, 5, 120_000, rules)
    rest = run_macke_policies(pols, 5, 180_000, rules, start=120_000)
    assert np.array_equal(one.sums, first.sums + rest.sums)
    # common random numbers: a policy twice in a batch gives the same sums
    twice = run_macke_policies([pols[0], pols[0]], 5, 50_000, rules)
    assert np.array_equal(twice.sums[0], twice.sums[1])


def test_ctrl_c_keeps_finished_chunks(monkeypatch):
    monkeypatch.setattr(sim_macke, "CHUNK_WORK", sim_macke.BLOCK)
    calls = []

    def progress(n):
        calls.append(n)
        if len(calls) == 2:
            raise KeyboardInterrupt

    res = run_macke_policies(MackeThresholdPolicy(), 1, 10 * sim_macke.BLOCK, progress=progress)
    assert res.interrupted and res.n == 2 * sim_macke.BLOCK
    calls.clear()
    with pytest.raises(KeyboardInterrupt):
        run_macke_policies(MackeThresholdPolicy(), 1, 10 * sim_macke.BLOCK,
                           progress=progress, catch_interrupt=False)


def test_optimize_finds_the_search_best_and_evaluates_on_fresh_turns():
    rules = MackeRules()
    phases = []

    def phase(label, total):
        phases.append((label, total))
        return lambda n: None

    res = optimize_macke(rules, turns=200_000, seed=3, search_turns=100_000, phase=phase)
    j = res.to_json()
    for key in ("ev", "ci95", "turns", "seed", "bank_at", "p_positive", "p_negative", "p_zero"):
        assert key in j
    assert j["turns"] == 200_000 and j["seed"] == 3
    assert abs(j["p_positive"] + j["p_negative"] + j["p_zero"] - 1) < 1e-12
    # the best K on the search turns is the one chosen
    best_k = max(res.search, key=lambda k: (res.search[k].mean, -(k if k is not None else 1 << 40)))
    assert res.bank_at == best_k
    assert res.search_clear[res.bank_at_clear].mean == max(e.mean for e in res.search_clear.values())
    # the evaluation is a plain batch on the fresh streams from 2**40
    again = run_macke_policies(res.policy, 3, 200_000, rules, start=EVAL_START)
    assert again.ev().mean == res.ev.mean
    # and it estimates the policy's exact value
    if res.bank_at_clear is not None:
        assert res.exact_ev == threshold_policy_value(rules, res.policy)
        assert res.ev.contains(res.exact_ev, slack=res.ev.ci95)
    assert set(res.baselines) == {"bank at ≥ 300", "bank at the first chance"}
    assert [p[0] for p in phases][-1] == "evaluate on fresh turns"
    assert 250 <= res.bank_at <= 400  # the search's optimum is near the minimum


def test_policy_array_and_validation():
    rules = MackeRules()
    p = MackeThresholdPolicy(rules, _table(rules), None)
    a = p.to_array()
    assert a.shape == (7, 7) and (a[:, 0] == NEVER).all()
    assert a[2, 3] == _table(rules)[2][3] // 50
    assert MackeThresholdPolicy.from_array(rules, a) == p
    assert MackeThresholdPolicy.first_chance(MackeRules(min_score=500)).bank_at == 500
    with pytest.raises(ValueError, match="multiples of 50"):
        MackeThresholdPolicy(rules, 275)
    with pytest.raises(ValueError, match="shape"):
        MackeThresholdPolicy(rules, ((300,) * 5,) * 2)
    with pytest.raises(ValueError, match="other rules"):
        run_macke_policies([MackeThresholdPolicy(MackeRules(throws=2))], 1, 10, rules)
