"""The strategy advisor in a real browser: Playwright drives Debian's chromium.

``tutto-sim advisor`` builds the page into a temporary folder; the tests open
``index.html`` from disk (``file://``, the way a player opens a downloaded
page) and once from a local ``http.server``, enter situations of every game
through the form (typing, choosing, clicking, the Enter key), read the advice
and compare it with the Python answers: the same policy files read by the
Python loaders (``tutto.policy.load_policy``, ``macke.policy.load_macke_policy``,
``rutsmieter.policy.load_weights_policy``, ``tutto.win.table.load_win_table``)
and the Python reference's legal moves, on seeded random situations. A
damaged policy file is refused in the page with the reason Python gives.

The browser is ``/usr/bin/chromium`` (``scripts/test_deps.sh`` installs it when missing);
``playwright install`` is never run. Without it the tests fail, they do not skip.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import http.server
import json
import random
import re
import threading
from pathlib import Path

import pytest
from conftest import run_cli

from tutto_sim.cli import main as cli_main
from tutto_sim.core.bots import POLICY_DIR
from tutto_sim.dice.scoring import POINT_UNIT

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: Situations per game entered through the form.
N = 30
WIN_TARGET = 300
#: Win tables made by the solver, kept with the node tests of the reader.
DATA = Path(__file__).parent / "data"
MACKE_WINS = {"macke": "macke-win-500.json", "volle-lotte": "volle-lotte-win-300.json"}


# ---- the site, the browser ------------------------------------------------------------
@pytest.fixture(scope="module")
def win_file() -> Path:
    """A Tutto win table to 300 (``tutto-sim solve --objective win --target 300``,
    kept with the node tests of the reader); the command checks it with Python."""
    return DATA / f"tutto-win-{WIN_TARGET}.json"


@pytest.fixture(scope="module")
def house_rules(tmp_path_factory) -> Path:
    """The shipped Rutsmieter weights under the other house rules (no obligation to
    leave the house or to capture, no jumping in the goal lane): given with --policy."""
    from tutto_sim.rutsmieter.policy import WeightsPolicy, load_weights_policy
    from tutto_sim.rutsmieter.rules import RutsmieterRules

    weights = load_weights_policy(POLICY_DIR / "rutsmieter-default.json").weights
    rules = RutsmieterRules(players=2, must_leave_house=False, must_capture=False, goal_no_jump=True)
    return WeightsPolicy(weights, rules).write(tmp_path_factory.mktemp("ruts") / "rutsmieter-house.json")


@pytest.fixture(scope="module")
def table_weights(tmp_path_factory) -> Path:
    """A Rutsmieter file of every feature with a weight set of its own at 2 and at 4
    players (the node tests' random one; 3 players play its one ``weights``)."""
    from test_policy_js import _ruts_table_file

    return _ruts_table_file(tmp_path_factory.mktemp("ruts-tables") / "rutsmieter-tables.json")


@pytest.fixture(scope="module")
def x2_card(tmp_path_factory) -> Path:
    """A legal Tutto table under x2_scope=card (the node tests' small random one):
    the x2 decisions depend on the card's own points."""
    from test_policy_js import _x2_card_file

    return _x2_card_file(tmp_path_factory.mktemp("x2") / "tutto-x2-card.json")


@pytest.fixture(scope="module")
def site(tmp_path_factory, win_file, house_rules, x2_card, table_weights) -> Path:
    out = tmp_path_factory.mktemp("site") / "advisor"
    with pytest.raises(SystemExit) as done:
        cli_main(["advisor", "--out", str(out), "--win-table", str(win_file), "--policy", str(house_rules),
                  "--policy", str(x2_card), "--policy", str(table_weights),
                  *[a for f in MACKE_WINS.values() for a in ("--win-table", str(DATA / f))]])
        raise SystemExit(0)
    assert done.value.code == 0
    return out


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    assert CHROMIUM.exists(), ("Debian's chromium is missing: scripts/test_deps.sh installs it "
                               "(apt-get install -y chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@contextlib.contextmanager
def phone(browser):
    """A fresh page 360 px wide (a phone); no script error may happen in it."""
    context = browser.new_context(viewport={"width": 360, "height": 780})
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield pg
    finally:
        context.close()
    assert errors == [], errors


def open_page(pg, url: str, game: str):
    """Open the page on ``game`` (``?game=``: no other table is checked first)."""
    pg.goto(f"{url}?game={game}")
    pg.wait_for_function("document.body.dataset.table !== undefined", timeout=30_000)
    if pg.input_value("#game") != game:
        pg.select_option("#game", game)
    pg.wait_for_function(f"(document.body.dataset.table || '').length && "
                         f"document.getElementById('game').value === {json.dumps(game)}", timeout=30_000)


_SET = """values => {
    for (const [id, v] of Object.entries(values)) {
        const e = document.getElementById(id);
        e.value = v;
        e.dispatchEvent(new Event(e.tagName === 'SELECT' ? 'change' : 'input', {bubbles: true}));
        if (e.value !== String(v)) throw new Error(`#${id} cannot take ${v}`);
    }
    return Number(document.body.dataset.answered || '0');
}"""
_READ = """before => {
    if (Number(document.body.dataset.answered || '0') <= before) return false;
    const b = document.getElementById('advice-body');
    const data = {};
    for (const a of b.attributes) if (a.name.startsWith('data-')) data[a.name.slice(5)] = a.value;
    const err = document.getElementById('error');
    return {data, text: b.innerText, error: err.hidden ? '' : err.innerText};
}"""


def ask(pg, form: str, values: dict | None = None, enter: str | None = None) -> dict:
    """Set the form's fields (``values``: id -> value, in order, each with its
    change event), submit it (the button, or Enter in field ``enter``) and
    return the advice's data attributes, its text and the error shown."""
    before = pg.evaluate(_SET, values or {})
    if enter:
        pg.press(f"#{enter}", "Enter")
    else:
        pg.click(f"#{form}-form button[type=submit]")
    return pg.wait_for_function(_READ, arg=before).json_value()


@functools.lru_cache(maxsize=None)
def tutto_policy():
    """The shipped Tutto table as the Python loader reads it (loaded once)."""
    from tutto_sim.tutto.policy import load_policy

    return load_policy(POLICY_DIR / "tutto-default.json")


# ---- Tutto -----------------------------------------------------------------------------
def tutto_expected(pol, t, card: str, total: int, dice: str) -> dict:
    """What the page must say, from the Python loader's arrays (docs/rules.md for the rewards)."""
    from tutto_sim.tutto.cards import Card
    from tutto_sim.tutto.policy import best_keep_dice

    c = {x.cli_name: x for x in Card}[card]
    row = lambda T: min(T // POINT_UNIT, pol.t_max)  # noqa: E731
    ms = t.multiset_of([int(x) for x in dice])
    k = int(pol.keep[c, row(total), ms])
    if k == 0:
        return {"keep": "niete", "answer": "niete"}
    units = int(t.best_pts[ms, k])
    name = "".join(sorted(dice))
    out = {"keep": f"{k}:{best_keep_dice(name, k, units, pol.rules.scoring)}"}
    kept = units * POINT_UNIT
    left = len(dice) - k
    bankable = card.startswith("bonus") or card == "x2"
    if left == 0:
        out["bank"] = "tutto"
        after = {"x2": 2 * (total + kept), "plusminus": total + 1000}.get(
            card, total + kept + (int(card[5:]) if card.startswith("bonus") else 0))
        if bankable or card == "plusminus":
            out["draw"] = "true" if pol.draw[row(after)] else "false"
    elif bankable:
        out["bank"] = "bank" if pol.bank[c, left, row(total + kept)] else "on"
        out["win-bank-at"] = total + kept  # the turn total a bank would write down
    else:
        out["bank"] = "on"
    out["answer"] = out["bank"]
    return out


@functools.lru_cache(maxsize=None)
def win_advisor(path: Path):
    """tutto.human.WinAdvisor on a win table (its planner gives the decisions)."""
    from tutto_sim.tutto.human import WinAdvisor
    from tutto_sim.tutto.win.table import load_win_table

    return WinAdvisor(load_win_table(path))


def win_view(seat: int, own: int, other: int, last: bool = False):
    from types import SimpleNamespace

    return SimpleNamespace(seat=seat, last_round=last, scores=(own, other) if seat == 0 else (other, own))


def win_throw_expected(adv, view, pm: int, card: str, total: int, cp: int, dice: str) -> dict:
    """The win table's advice for a throw from Python: WinPlanner's keep and then its bank or
    throw on (Bonus, x2) or bank or draw (after their Tutto), WinAdvisor's chances."""
    from tutto_sim.tutto.api import BANK, BANK_OR_DRAW, BANK_OR_THROW, DRAW, KEEP, THROW, Decision, Keep
    from tutto_sim.tutto.cards import Card

    pl, c = adv.planner, {x.cli_name: x for x in Card}[card]
    throw = [int(x) for x in dice]
    ms = pl.tables.multiset_of(throw)
    best = {k: int(pl.best_pts[ms, k]) * POINT_UNIT for k in range(1, len(dice) + 1) if pl.best_pts[ms, k] >= 0}
    if not best or card == "fireworks":
        return {}
    keeps = tuple(Keep((0,) * k, v) for k, v in best.items())
    k = pl.keep_dice(view, c, total, cp, len(dice), throw, pm)
    out = {"win-keep": str(k), "win-chances": adv.chances(Decision(KEEP, keeps, view, c, total, cp, len(dice),
                                                                    tuple(throw), plusminus_tuttos=pm))}
    left, t2, cp2 = len(dice) - k, total + best[k], cp + best[k]
    if card.startswith("bonus") or card == "x2":
        if left:
            b = pl.banks(view, c, t2, cp2, left, pm)
            d = Decision(BANK_OR_THROW, (BANK, THROW), view, c, t2, cp2, left, plusminus_tuttos=pm)
            out["win-then"] = "bank" if b else "on"
        else:
            after = (t2 + cp2 if pl.x2_card else 2 * t2) if card == "x2" else t2 + c.bonus
            b = pl.banks_after_tutto(view, after, pm)
            d = Decision(BANK_OR_DRAW, (BANK, DRAW), view, c, after, plusminus_tuttos=pm)
            out["win-then"] = "bank" if b else "draw"
        out["win-then-chances"] = adv.chances(d)
    return out


def same_win_advice(got: dict, want: dict) -> bool:
    """The page's data-win-* attributes equal Python's (chances within 1e-12)."""
    for key, v in want.items():
        if key.endswith("chances"):
            g = json.loads(got.get(key, "null"))
            if g is None or len(g) != len(v) or any((x is None) != (y is None) or (x is not None and abs(x - y) > 1e-12)
                                                     for x, y in zip(g, v)):
                return False
        elif got.get(key) != v:
            return False
    return all(k in want for k in got if k.startswith("win-") and k not in ("win-bank", "win-bust"))


def check_tutto_throws(site, win_file, page):
    from tutto_sim.dice.throws import build_tables
    from tutto_sim.tutto.win.table import load_win_table

    pol = tutto_policy()
    t = build_tables(pol.rules.scoring)
    win = load_win_table(win_file)
    n = WIN_TARGET // POINT_UNIT
    open_page(page, (site / "index.html").as_uri(), "tutto")
    assert page.input_value("#table") == "tutto-default"
    rng = random.Random(15)
    cards = ["bonus200", "bonus300", "bonus400", "bonus500", "bonus600", "x2", "plusminus",
             "cloverleaf", "fireworks"]
    seen = set()
    for i in range(N):
        card = cards[i % len(cards)] if i < len(cards) else rng.choice(cards)
        use_win = i % 3 == 0
        total = rng.randrange(0, 4 if use_win else 60) * POINT_UNIT
        dice = "".join(str(rng.randint(1, 6)) for _ in range(rng.choice([1, 2, 3, 4, 5, 6, 6, 6])))
        seat, own, other = rng.randint(0, 1), rng.randrange(n) * POINT_UNIT, rng.randrange(n) * POINT_UNIT
        values = {"tutto-card": card, "tutto-total": total, "tutto-dice": " ".join(dice),
                  "win-table": win_file.stem if use_win else ""}
        if use_win:
            values.update({"win-seat": seat, "win-own": own, "win-other": other})
        got = ask(page, "tutto", values)
        assert got["error"] == "", (card, total, dice, got)
        want = tutto_expected(pol, t, card, total, dice)
        for key in ("keep", "bank", "draw"):
            assert got["data"].get(key) == want.get(key), (card, total, dice, key, got, want)
        seen.add(want["answer"])
        if use_win:
            a, b = own // POINT_UNIT, other // POINT_UNIT
            assert float(got["data"]["win"]) == pytest.approx(float(win.W[seat, a, b]), abs=1e-12)
            assert float(got["data"]["win-bust"]) == pytest.approx(1 - float(win.W[1 - seat, b, a]), abs=1e-12)
            assert f"{100 * float(win.W[seat, a, b]):.1f}%" in got["text"]
            assert ("win-bank" in got["data"]) == ("win-bank-at" in want)
            if "win-bank-at" in want:
                ts = win.turn_start(seat, a, b)
                # totals past the programme's last (the target reached, the margin cap) share its value
                at = min(want["win-bank-at"] // POINT_UNIT, ts.tcap)
                assert float(got["data"]["win-bank"]) == pytest.approx(float(ts.bank[at]), abs=1e-12)
            wwant = win_throw_expected(win_advisor(win_file), win_view(seat, own, other), 0, card, total, 0, dice)
            assert same_win_advice(got["data"], wwant), (card, total, dice, got["data"], wwant)
            seen.add(f"win-{wwant.get('win-then')}")
            assert ("To win the game" in got["text"]) == bool(wwant)
            assert ("For the most points this turn" in got["text"])
        if want["answer"] == "bank":
            assert "Then bank" in got["text"]
    assert {"niete", "on", "bank", "tutto"} <= seen, seen  # the sample reaches each answer
    assert {"win-bank", "win-on"} <= seen, seen


def check_win_decisions(site, win_file, page):
    """With a win table and scores: the last turn of a round, Plus/Minus Tuttos pending, after a
    Tutto and the Straße: the win-optimal decision and each choice's chance as in Python."""
    from tutto_sim.tutto.api import BANK, BANK_OR_DRAW, DRAW, STREET, Decision, Keep
    from tutto_sim.tutto.cards import Card

    adv = win_advisor(win_file)
    pl = adv.planner
    open_page(page, (site / "index.html").as_uri(), "tutto")
    rng = random.Random(16)
    n = WIN_TARGET // POINT_UNIT
    seen = set()
    for i in range(24):
        last = i % 3 == 0
        seat = 1 if last else rng.randint(0, 1)
        own = rng.randrange(n) * POINT_UNIT
        other = (n + rng.randrange(20)) * POINT_UNIT if last else rng.randrange(n) * POINT_UNIT
        pm = rng.choice([0, 1, 2])
        total = 20 * pm * POINT_UNIT + rng.randrange(12) * POINT_UNIT
        view = win_view(seat, own, other, last)
        scores = {"win-table": win_file.stem, "win-seat": seat, "win-own": own, "win-other": other,
                  "win-last": "1" if last else "", "win-pm": pm}
        q = ["throw", "tutto", "street"][i % 3 if i % 6 < 3 else (i + 1) % 3]
        page.select_option("#tutto-question", q)
        if q == "throw":
            card = rng.choice(["bonus200", "bonus500", "x2", "plusminus", "cloverleaf"])
            dice = "".join(str(rng.randint(1, 6)) for _ in range(rng.randint(1, 6)))
            got = ask(page, "tutto", {**scores, "tutto-card": card, "tutto-total": total, "tutto-dice": dice})
            want = win_throw_expected(adv, view, pm, card, total, 0, dice)
        elif q == "tutto":
            got = ask(page, "tutto", {**scores, "tutto-after": total})
            d = Decision(BANK_OR_DRAW, (BANK, DRAW), view, Card.BONUS200, total, plusminus_tuttos=pm)
            want = {"win-draw": "false" if pl.banks_after_tutto(view, total, pm) else "true",
                    "win-chances": adv.chances(d)}
        else:
            have = rng.randint(0, 5)
            new = rng.randint(1, 6 - have)
            got = ask(page, "tutto", {**scores, "street-total": total, "street-aside": have, "street-new": new})
            d = Decision(STREET, tuple(Keep((0,) * x, 0) for x in range(1, new + 1)), view, Card.STREET, total,
                         dice=6 - have, street_numbers=tuple(range(1, have + 1)), plusminus_tuttos=pm)
            want = {"win-take": str(pl.street_take(view, total, have, new, pm)), "win-chances": adv.chances(d)}
        assert got["error"] == "", (q, scores, got)
        assert same_win_advice(got["data"], want), (q, scores, total, got["data"], want)
        assert "To win the game" in got["text"] or not want, got["text"]
        seen.add((q, last, pm > 0))
    assert len(seen) >= 8, seen
    # the last round needs the opponent at the target
    got = ask(page, "tutto", {"win-last": "1", "win-other": 250, "win-seat": 1})
    assert "in the last round the opponent has reached 300: the opponent's score must be at least that, not 250" in got["error"]
    got = ask(page, "tutto", {"win-last": "1", "win-other": 300, "win-seat": 0})
    assert "in the last round the second player throws last" in got["error"]
    page.evaluate(_SET, {"win-last": "", "win-pm": 0, "win-other": 0})


def check_after_a_tutto_and_street(site, page):
    pol = tutto_policy()
    open_page(page, (site / "index.html").as_uri(), "tutto")
    page.select_option("#tutto-question", "tutto")
    for total in (50, 300, 850, 900, 950, 2500, 9000):
        got = ask(page, "tutto", {"tutto-after": total})
        assert got["data"]["draw"] == ("true" if pol.draw[min(total // 50, pol.t_max)] else "false")
        assert ("Draw another card" in got["text"]) == (got["data"]["draw"] == "true")
    page.select_option("#tutto-question", "street")
    for m in range(6):
        for j in range(1, 7 - m):
            got = ask(page, "tutto", {"street-aside": m, "street-new": j})
            assert int(got["data"]["take"]) == int(pol.street_take[m, j]), (m, j)


def check_x2_by_card_points(site, page, file: Path):
    """Under x2_scope=card the page asks for the x2 card's points; its answers are
    the Python loader's x2 tables by card points."""
    from tutto_sim.dice.throws import build_tables
    from tutto_sim.tutto.policy import load_policy

    pol = load_policy(file)
    t = build_tables(pol.rules.scoring)
    parts = pol.keep_x2p.shape[0]
    row = lambda T: min(T // POINT_UNIT, pol.t_max)  # noqa: E731
    open_page(page, (site / "index.html").as_uri(), "tutto")
    page.select_option("#table", file.stem)
    page.wait_for_function(f"document.body.dataset.table === {json.dumps(file.stem)}")
    page.select_option("#tutto-card", "x2")
    assert page.is_visible("#tutto-card-points")
    rng = random.Random(11)
    seen = set()
    for _ in range(N):
        total, cp = rng.randrange(0, 16) * POINT_UNIT, rng.randrange(0, parts + 2) * POINT_UNIT
        dice = "".join(str(rng.randint(1, 6)) for _ in range(rng.randint(1, 6)))
        got = ask(page, "tutto", {"tutto-total": total, "tutto-card-points": cp, "tutto-dice": dice,
                                  "win-table": ""})
        assert got["error"] == "", got
        ms = t.multiset_of([int(x) for x in dice])
        k = int(pol.keep_x2p[min(cp // POINT_UNIT, parts - 1), row(total), ms])
        if k == 0:
            assert got["data"]["keep"] == "niete"
            continue
        assert int(got["data"]["keep"].split(":")[0]) == k, (total, cp, dice, got)
        kept = int(t.best_pts[ms, k]) * POINT_UNIT
        left = len(dice) - k
        if left == 0:  # x2 doubles only its own card's points: total + card points
            after = total + kept + cp + kept
            assert got["data"]["draw"] == ("true" if pol.draw[row(after)] else "false")
            seen.add("tutto")
        else:
            bank = pol.bank_x2p[min((cp + kept) // POINT_UNIT, parts - 1), left, row(total + kept)]
            assert got["data"]["bank"] == ("bank" if bank else "on"), (total, cp, dice, got)
            seen.add(got["data"]["bank"])
    assert {"bank", "on"} <= seen, seen


# ---- Berliner Macke, Volle Lotte --------------------------------------------------------------
def macke_words(m, s: int) -> str:
    parts = [m.types[u].name for u, c in enumerate(m.state_counts[s]) for _ in range(int(c))]
    return " + ".join(parts)


def check_macke_turns(site, page, game, file):
    from tutto_sim.macke.policy import load_macke_policy
    from tutto_sim.macke.api import TurnView
    from tutto_sim.macke.solver import throw_tables
    from tutto_sim.macke.win.table import load_win_table

    pol = load_macke_policy(POLICY_DIR / file)
    win = load_win_table(DATA / MACKE_WINS[game])
    scores = range(win.floor - 2 * POINT_UNIT, win.target, POINT_UNIT)  # below the floor too
    m, t = pol.tables, throw_tables(pol.rules)
    n_all, n_throws = pol.rules.n_dice, pol.rules.throws
    index = {tuple(c): s for s, c in enumerate(m.state_counts.tolist())}
    open_states = [s for s in range(len(m.state_dice)) if m.state_dice[s] < n_all]
    open_page(page, (site / "index.html").as_uri(), game)
    rng = random.Random(7)
    seen = set()
    for i in range(N):
        j = 1 + i % n_throws
        aside = m.empty if j == 1 else rng.choice(open_states)
        locked = 0 if rng.random() < 0.5 else rng.randrange(0, 50) * POINT_UNIT
        dice = "".join(str(rng.randint(1, 6)) for _ in range(n_all - int(m.state_dice[aside])))
        use_win = i % 3 == 0
        own, other = rng.choice(scores), rng.choice(scores)
        got = ask(page, "macke", {"macke-locked": locked, "macke-aside": macke_words(m, aside),
                                  "macke-throw": j, "macke-dice": dice,
                                  "macke-win-table": (DATA / MACKE_WINS[game]).stem if use_win else "",
                                  "macke-own": own, "macke-other": other},
                  enter="macke-dice" if i % 2 else None)  # the Enter key submits too
        assert got["error"] == "", (locked, aside, j, dice, got)
        if use_win:
            assert float(got["data"]["win"]) == win.win(own, other)
        else:
            assert "win" not in got["data"]
        ms = t.multiset_of([int(x) for x in dice])
        keeps = m.keep_states[m.keep_start[ms]:m.keep_start[ms + 1]].tolist()
        if not keeps:
            assert got["data"]["keep"] == "macke"
            seen.add("macke")
            continue
        k = pol.keep(TurnView(locked, aside, n_throws - j, j == 1), ms, keeps)
        assert int(got["data"]["keep"]) == k, (locked, aside, j, dice)
        now = index[tuple(int(a) + int(b) for a, b in zip(m.state_counts[aside], m.state_counts[k]))]
        total = locked + int(m.state_pts[now]) * POINT_UNIT
        assert int(got["data"]["total"]) == total
        if use_win:  # the turn ended now: added from the minimum score on, else subtracted
            banked = own + (total if total >= pol.rules.min_score else -total)
            assert ("win-bank" in got["data"]) == (banked < win.target)
            if banked < win.target:
                assert float(got["data"]["win-bank"]) == 1 - win.win(other, banked), (own, other, total)
                seen.add("win-bank")
        if m.state_dice[now] == n_all or j < n_throws:
            bank = pol.bank(TurnView(locked, now, n_throws - j, False))
            assert got["data"]["bank"] == ("bank" if bank else "on"), (locked, aside, j, dice)
            if not bank and m.state_dice[now] < n_all:
                back = pol.before_throw(TurnView(locked, now, n_throws - j, False))
                assert int(got["data"]["return"]) == back, (locked, now, j)
                seen.add("return" if back != now else "on")
            else:
                seen.add(got["data"]["bank"])
        else:
            assert got["data"]["bank"] == "end"
            seen.add("end")
    assert len(seen) >= 3, seen


# ---- Rutsmieter ------------------------------------------------------------------------------
def typed(board, player: int, viewer: int) -> str:
    """A player's pieces as the page takes them: H, the viewer's square count, G1-G4."""
    from tutto_sim.rutsmieter.rules import FIRST_GOAL, HOUSE, RING, SEAT_SPACING

    out = []
    for x in board.pieces[player]:
        if x == HOUSE:
            out.append("H")
        elif x >= FIRST_GOAL:
            out.append(f"G{x - FIRST_GOAL + 1}")
        else:
            out.append(str((board.ring_square(player, x) - SEAT_SPACING * board.seats[viewer]) % RING))
    return " ".join(out)


def check_rutsmieter_moves(site, page, file: Path):
    """Random positions at 2, 3 and 4 players (every third a 4-player table): the
    legal moves, the move of the file's weight set for the table's size, every
    move's score, and the words of why (the features that tell the two best apart)."""
    from tutto_sim.rutsmieter.policy import FEATURES, load_weights_policy, move_features
    from tutto_sim.rutsmieter.reference import Observation, legal_moves
    from tutto_sim.rutsmieter.web_cases import random_board
    from tutto_sim.rutsmieter.words import feature_value_words

    pol = load_weights_policy(file)
    open_page(page, (site / "index.html").as_uri(), "rutsmieter")
    if page.input_value("#table") != file.stem:
        page.select_option("#table", file.stem)
        page.wait_for_function(f"document.body.dataset.table === {json.dumps(file.stem)}")
    rng = random.Random(3)
    counts = []
    seen_why = set()
    differ = 0  # situations where these house rules allow other moves than the defaults
    for i in range(N):
        players = 2 + i % 3
        rules = dataclasses.replace(pol.rules, players=players)
        board = random_board(rng, rules.seats, on_ring=0.6)
        me, die = rng.randrange(players), rng.choice([1, 2, 3, 4, 5, 6, 6])
        values = {"ruts-players": players, "ruts-me": me, "ruts-die": die}
        values.update({f"ruts-p{p}": typed(board, p, me) for p in range(players)})
        got = ask(page, "rutsmieter", values)
        assert got["error"] == "", (board, me, die, got)
        moves = legal_moves(board, me, die, rules)
        differ += moves != legal_moves(board, me, die, type(rules)(players=players))
        assert int(got["data"]["moves"]) == len(moves), (board.pieces, me, die, got)
        counts.append(len(moves))
        if not moves:
            assert got["data"]["choice"] == "-1"
            continue
        table = pol.at(rules)
        best = table.choose(Observation(rules.seats, tuple(map(tuple, board.pieces)), me, die, tuple(moves)))
        mv = moves[best]
        assert got["data"]["choice"] == str(best)
        assert got["data"]["move"] == f"{mv.piece}:{mv.start}:{mv.end}"
        feats = [move_features(board, me, m) for m in moves]
        scores = [table.score(f) for f in feats]
        shown = [float(x) for x in got["data"]["scores"].split()]  # to 2 decimals
        assert len(shown) == len(scores) and all(abs(a - b) <= 0.0051 for a, b in zip(shown, scores)), \
            (got, scores)
        assert got["data"]["weights"] == (str(players) if players in dict(pol.by_players) else "all")
        if len(moves) > 1:  # the biggest part of the lead over the next best move, in words
            other = max((i for i in range(len(moves)) if i != best),
                        key=lambda i: (scores[i], moves[i].start, -i))
            parts = [(table.weights[k] * (feats[best][k] - feats[other][k]), k)
                     for k in range(len(FEATURES))]
            d, k = max(parts, key=lambda x: (abs(x[0]), -x[1]))
            why = got["data"]["why"]
            if d:
                words = feature_value_words(FEATURES[k], feats[best][k])
                said = re.search(re.escape(words) + r" \(([+−])([\d.]+)\)", why)
                assert said and said.group(1) == ("+" if d > 0 else "−"), (why, words, d)
                assert abs(float(said.group(2)) - abs(d)) <= 0.0051, (why, d)
                seen_why.add(FEATURES[k])
            else:
                assert why.startswith("Why: as good as"), why
    assert sum(c >= 2 for c in counts) >= N // 3, counts  # real choices, not only forced moves
    if pol.by_players:  # the position after the move speaks too
        assert seen_why - set(FEATURES[:7]), seen_why
    assert differ >= (3 if pol.rules != type(pol.rules)(players=pol.rules.players) else 0), differ


# ---- over http, refusals, errors, the screenshot -----------------------------------------
def check_static_http_server(site, page):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *a, **k: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        open_page(page, f"http://127.0.0.1:{server.server_port}/index.html", "tutto")
        page.fill("#tutto-dice", "1 1 5 5 3 4")  # typed, as a player would
        got = ask(page, "tutto")
        assert got["data"]["keep"] == "1:1" and got["data"]["bank"] == "on", got
        assert "Set aside 1 (100 points)." in got["text"]
    finally:
        server.shutdown()
        server.server_close()


def check_damaged_table_refused(site, tmp_path, page):
    """One decision flipped in the shipped Tutto table: the page refuses it with
    the reason Python gives for the same bytes."""
    import shutil

    from tutto_sim.core.policyfile import PolicyFileError
    from tutto_sim.tutto.policy import load_policy

    damaged = tmp_path / "advisor"
    shutil.copytree(site, damaged)
    text = (POLICY_DIR / "tutto-default.json").read_text()
    i = text.index('"draw":"') + len('"draw":"')
    bad = text[:i] + ("0" if text[i] == "1" else "1") + text[i + 1:]
    js = damaged / "policies" / "tutto-default.js"
    js.write_text(js.read_text().replace(json.dumps(text), json.dumps(bad), 1))
    assert json.dumps(bad) in js.read_text()
    (tmp_path / "tutto-default.json").write_text(bad)
    with pytest.raises(PolicyFileError) as python:
        load_policy(tmp_path / "tutto-default.json")
    assert "content hash does not match" in str(python.value)
    page.goto((damaged / "index.html").as_uri())
    page.wait_for_function("document.body.dataset.table === 'refused:tutto-default'", timeout=30_000)
    error = page.inner_text("#error")
    assert error.startswith("This table is refused: ")
    assert error.endswith(str(python.value).replace(str(tmp_path / "tutto-default.json"),
                                                    "policies/tutto-default.json")), error
    assert page.is_hidden("#tutto-form")
    page.select_option("#game", "rutsmieter")  # the other tables still work
    page.wait_for_function("document.body.dataset.table === 'rutsmieter-default'")


def check_bad_input_labels_phone_screenshot(site, tmp_path, page):
    from tutto_sim.dice.throws import build_tables

    pol = tutto_policy()
    open_page(page, (site / "index.html").as_uri(), "tutto")
    page.fill("#tutto-dice", "1 7 5")
    got = page.evaluate("document.body.dataset.answered || '0'")
    page.focus("#tutto-dice")
    page.keyboard.press("Enter")
    page.wait_for_function(f"Number(document.body.dataset.answered || '0') > {got}")
    assert page.is_visible("#error")
    assert "faces 1 to 6" in page.inner_text("#error")
    assert page.get_attribute("#error", "role") == "alert"
    unlabelled = page.evaluate("""() => [...document.querySelectorAll('input, select')]
        .filter(e => !(e.labels && e.labels.length)).map(e => e.id)""")
    assert unlabelled == []
    # a phone's width: nothing wider than the screen
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.fill("#tutto-dice", "1 1 1 5 2 3")
    got = ask(page, "tutto")
    assert got["data"]["keep"] == tutto_expected(pol, build_tables(pol.rules.scoring), "bonus200", 0, "111523")["keep"]
    shot = tmp_path / "advisor.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000


def test_the_page_answers_as_python(site, win_file, house_rules, x2_card, table_weights, browser,
                                    tmp_path):
    """Every check in one browser and one build of the page (the build and the
    Python loaders take most of the time; under pytest-xdist separate tests
    would each pay for them on both workers)."""
    with phone(browser) as page:
        check_tutto_throws(site, win_file, page)
        check_after_a_tutto_and_street(site, page)
    with phone(browser) as page:
        check_win_decisions(site, win_file, page)
    with phone(browser) as page:
        check_x2_by_card_points(site, page, x2_card)
    for game, file in (("macke", "macke-default.json"), ("volle-lotte", "volle-lotte-default.json")):
        with phone(browser) as page:
            check_macke_turns(site, page, game, file)
    for file in (POLICY_DIR / "rutsmieter-default.json", house_rules, table_weights):
        with phone(browser) as page:
            check_rutsmieter_moves(site, page, file)
    with phone(browser) as page:
        check_static_http_server(site, page)
    with phone(browser) as page:
        check_damaged_table_refused(site, tmp_path, page)
    with phone(browser) as page:
        check_bad_input_labels_phone_screenshot(site, tmp_path, page)


# ---- the command -------------------------------------------------------------------------
def test_advisor_command_refuses_bad_files_in_one_line(tmp_path, capsys, win_file):
    bad = tmp_path / "tutto-bad.json"
    bad.write_text((POLICY_DIR / "tutto-default.json").read_text()[:-200])
    cases = [
        (["--policy", str(bad)], "is damaged or truncated"),
        (["--policy", str(tmp_path / "missing.json")], "cannot read policy file"),
        (["--policy", str(win_file)], "a win table; give it with --win-table"),
        (["--win-table", str(POLICY_DIR / "rutsmieter-default.json")], "not a win table"),
    ]
    for extra, words in cases:
        code, out, err = run_cli(capsys, "advisor", "--out", str(tmp_path / "site"), *extra)
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1, (extra, err)
    (tmp_path / "file").write_text("x")
    code, out, err = run_cli(capsys, "advisor", "--out", str(tmp_path / "file"))
    assert code == 2 and "is a file" in err


def test_advisor_takes_the_win_tables_in_results(tmp_path, capsys, monkeypatch, win_file):
    """Without --win-table the page gets results/tutto-win-*.json; a damaged one
    found there is left out with a line that says why (it was not asked for)."""
    import tutto_sim.web.advisor as advisor

    monkeypatch.setattr(advisor, "shipped_policies", lambda: [])  # this test is about results/
    monkeypatch.chdir(tmp_path)
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / win_file.name).write_text(win_file.read_text())
    (tmp_path / "results" / "tutto-win-500.json").write_text(win_file.read_text()[:1000])
    code, out, err = run_cli(capsys, "advisor", "--out", "site")
    assert code == 0, err
    assert "left out results/tutto-win-500.json: " in err and "damaged or truncated" in err
    manifest = (tmp_path / "site" / "manifest.js").read_text()
    tables = json.loads(manifest.split("=", 1)[1].rstrip().rstrip(";"))["tables"]
    assert [(t["id"], t["kind"], t["target"]) for t in tables] == [(win_file.stem, "win", WIN_TARGET)]
    assert (tmp_path / "site" / "policies" / win_file.name).read_text() == win_file.read_text()
