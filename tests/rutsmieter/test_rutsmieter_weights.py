"""The ``weights:FILE`` bot: its features by hand, its policy file's checks
(one line each, exit 2 on the command line), and its games."""

import json
from pathlib import Path

import pytest
from conftest import run_cli as run

from tutto_sim.core.policyfile import PolicyFileError
from tutto_sim.rutsmieter.policy import (
    FEATURES,
    FEATURES_V1,
    WeightsPolicy,
    load_weights_policy,
    move_features,
)
from tutto_sim.rutsmieter.reference import Board, Move, legal_moves, play_game
from tutto_sim.rutsmieter.rules import RutsmieterRules

WEIGHTS = (1.0, 30.0, -4.0, 0.5, 8.0, 6.0, -2.0)
#: WEIGHTS as the policy has them: the other features weigh 0.
PADDED = WEIGHTS + (0.0,) * (len(FEATURES) - len(WEIGHTS))


def _v1(features):
    """The first seven features (the version-1 evaluator's) by name."""
    return dict(zip(FEATURES_V1, features))


def test_features_by_hand():
    # 4 players; player 1 sits at seat 1 (start square 10), its piece at own 2 = ring 12
    board = Board((0, 1, 2, 3), [[8, 38, -1, -1], [-1, 2, -1, -1], [-1] * 4, [-1] * 4])
    rules = RutsmieterRules(must_capture=False)
    moves = {m.piece: m for m in legal_moves(board, 0, 2, rules)}
    assert set(moves) == {0, 1}
    # piece 0: 8 -> 10, player 1's start square with player 1's pieces in the house
    # (a threat); player 1's piece on ring 12 is 2 squares ahead
    f = _v1(move_features(board, 0, moves[0]))
    assert f == {"progress": 2, "capture": 0, "danger_behind": 1, "danger_ahead": 1,
                 "leave_house": 0, "enter_goal": 0, "block_start": 0}
    f = _v1(move_features(board, 0, moves[1]))  # 38 -> 40
    assert f == {"progress": 2, "capture": 0, "danger_behind": 0, "danger_ahead": 0,
                 "leave_house": 0, "enter_goal": 1, "block_start": 0}
    six = {m.piece: m for m in legal_moves(board, 0, 6, RutsmieterRules(must_leave_house=False))}
    f = _v1(move_features(board, 0, six[2]))  # piece 2 leaves the house
    assert f == {"progress": 1, "capture": 0, "danger_behind": 0, "danger_ahead": 0,
                 "leave_house": 1, "enter_goal": 0, "block_start": 1}


def test_position_features_by_hand():
    """The features of the position after a move, counted square by square."""
    # 4 players at seats 0-3 (start squares 0, 10, 20, 30). Player 0 walks 5 -> 9
    # (ring 9); it has a piece in the house and two in the goal lane (41, 43).
    # Player 1: own 0 = ring 10. Player 2: own 3 = ring 23, own 20 = ring 0, 40.
    board = Board((0, 1, 2, 3), [[5, -1, 41, 43], [0, -1, -1, -1], [3, 20, -1, 40], [-1] * 4])
    f = dict(zip(FEATURES, move_features(board, 0, Move(0, 5, 9, None))))
    # ring 9 is own 39 of player 1, 29 of player 2 (pieces at 3, 20: 26 and 9
    # behind), 19 of player 3: nobody can reach it, and no start square is 1-6 behind it
    assert (f["risk_progress"], f["start_danger"], f["next_danger"], f["own_threatened"]) == (0, 0, 0, 0)
    assert f["danger_ahead"] == 1  # player 1's piece on ring 10
    assert f["goal_loose"] == 1  # 41 can still move up (42 is free); 43 cannot
    assert (f["own_progress"], f["own_goal"], f["own_house"]) == (10 + 0 + 42 + 44, 2, 1)
    # opponents' progress, each piece counted as position + 1: 1; 4 + 21 + 0 + 41; 0
    assert (f["opp_progress"], f["lead_progress"], f["lead_goal"], f["opp_house"]) == (67, 66, 1, 8)
    # player 0 threatens player 1's piece (1 behind it: 1 x (0 + 1)) and player 2's on
    # ring 0, player 0's start square, with a player-0 piece in the house (1 x (20 + 1))
    assert f["opp_risk"] == 1 + 21
    assert (f["capture_progress"], f["capture_leader"]) == (0, 0)


def test_capture_and_danger_features_by_hand():
    # 3 players (seats 0, 1, 2). Player 0's piece at 12 (ring 12) throws 3 and
    # captures player 2's piece at own 35 (ring 15); player 2 leads (progress 36 + 30).
    board = Board((0, 1, 2), [[12, 30, -1, -1], [6, -1, -1, -1], [35, 30, -1, -1]])
    rules = RutsmieterRules(players=3, must_capture=True)
    (m,) = legal_moves(board, 0, 3, rules)
    f = dict(zip(FEATURES, move_features(board, 0, m)))
    assert (f["capture"], f["capture_progress"], f["capture_leader"]) == (1, 36, 1)
    # after it: ring 15 is own 5 of player 1, whose piece at own 6 is past it; player 1
    # has pieces in the house and its start (ring 10) is 5 behind ring 15: one start
    # danger; player 1 throws next and threatens it that way only: next_danger 1
    # (a start-square threat counts only on the start square itself, so 0 here)
    assert f["start_danger"] == 1
    # player 2's piece at own 30 = ring 10: 5 behind ring 15 -> a threat (player 2
    # throws after player 1). Player 0's piece at 30 = ring 30 = own 10 of player 2:
    # player 2's piece at own 30 is not behind it (no walk past own 39), nothing else.
    assert f["danger_behind"] == 1 and f["next_danger"] == 0
    assert f["risk_progress"] == 1 * (15 + 1) and f["own_threatened"] == 1


def test_features_capture_and_danger_behind():
    # 2 players at seats 0 and 2; player 1's piece at own 33 = ring 13
    board = Board((0, 2), [[10, -1, -1, -1], [33, -1, -1, -1]])
    (m,) = legal_moves(board, 0, 3, RutsmieterRules(players=2))
    f = dict(zip(FEATURES, move_features(board, 0, m)))
    assert f["capture"] == 1 and f["progress"] == 3
    # player 1 has nothing on the ring after the capture: no threat
    assert f["danger_behind"] == 0 and f["danger_ahead"] == 0
    # a player-1 piece 4 squares behind ring 13 (own 29 = ring 9) threatens it
    board = Board((0, 2), [[10, -1, -1, -1], [33, 29, -1, -1]])
    (m,) = legal_moves(board, 0, 3, RutsmieterRules(players=2))
    assert dict(zip(FEATURES, move_features(board, 0, m)))["danger_behind"] == 1


def test_zero_weights_play_like_first():
    """All weights 0: every move scores 0 and the tie goes to the piece furthest
    along, which is the ``first`` bot."""
    zero = WeightsPolicy((0.0,) * len(FEATURES)).bot()
    for i in range(5):
        rules = RutsmieterRules(players=(2, 3, 4)[i % 3], must_capture=bool(i % 2))
        n = rules.players
        a = play_game([zero] * n, rules, 9, i)
        b = play_game(["first"] * n, rules, 9, i)
        assert a.log == b.log and a.places == b.places


def _write(tmp_path, rules=RutsmieterRules(), weights=WEIGHTS, name="w.json"):
    return WeightsPolicy(weights, rules).write(tmp_path / name)


def test_round_trip(tmp_path):
    path = _write(tmp_path)
    pol = load_weights_policy(path, RutsmieterRules())
    assert pol.weights == PADDED
    # the table size may differ, the house rules may not
    assert load_weights_policy(path, RutsmieterRules(players=2)).weights == PADDED
    with pytest.raises(PolicyFileError, match="made for other rules: must_capture=False"):
        load_weights_policy(path, RutsmieterRules(must_capture=False))


def test_weight_sets_by_table_size(tmp_path):
    """A file with a weight set per table size: each table plays its own, a
    table without one the file's main set; a set without all its features is refused."""
    sets = {n: tuple(float(n * 10 + i) for i in range(len(FEATURES))) for n in (2, 4)}
    path = WeightsPolicy(PADDED, RutsmieterRules(), by_players=tuple(sets.items())).write(
        tmp_path / "t.json")
    for n in (2, 3, 4):
        pol = load_weights_policy(path, RutsmieterRules(players=n))
        assert pol.weights == sets.get(n, PADDED) and pol.rules.players == n
    d = json.loads(path.read_text())
    del d["weights_by_players"]["4"]["opp_risk"]
    from tutto_sim.rutsmieter.policy import content_hash

    d["content_sha256"] = content_hash(d)
    path.write_text(json.dumps(d))
    with pytest.raises(PolicyFileError, match="every weight set needs the weights of its features"):
        load_weights_policy(path, RutsmieterRules(players=4))
    # the hash covers the sets: changing one is damage
    d = json.loads(WeightsPolicy(PADDED, by_players=tuple(sets.items())).write(tmp_path / "u.json")
                   .read_text())
    d["weights_by_players"]["2"]["capture"] = 99.0
    (tmp_path / "u.json").write_text(json.dumps(d))
    with pytest.raises(PolicyFileError, match="content hash does not match"):
        load_weights_policy(tmp_path / "u.json")


def _damage(path, how):
    raw = path.read_bytes()
    d = json.loads(raw)
    if how == "truncated":
        path.write_bytes(raw[: len(raw) // 2])
    elif how == "not-utf8":
        path.write_bytes(b"\xff\xfe" + raw)
    elif how == "changed":
        d["weights"]["capture"] = 31.0
        path.write_text(json.dumps(d))
    elif how == "other-game":
        d["game"] = "macke"
        path.write_text(json.dumps(d))
    elif how == "other-version":
        d["version"] = 2
        path.write_text(json.dumps(d))
    elif how == "schema":
        del d["weights"]["capture"]
        path.write_text(json.dumps(d))
    elif how == "rules-hash":
        d["rules"]["goal_no_jump"] = True
        from tutto_sim.rutsmieter.policy import content_hash

        d["content_sha256"] = content_hash(d)
        path.write_text(json.dumps(d))


@pytest.mark.parametrize("how,message", [
    ("truncated", "is damaged or truncated"),
    ("not-utf8", "is damaged or not a policy file (not UTF-8 text)"),
    ("changed", "was changed or damaged: its content hash does not match"),
    ("other-game", "is for game 'macke', not rutsmieter"),
    ("other-version", "has version 2; this tutto-sim reads version 1"),
    ("schema", "does not match the schema at weights"),
    ("rules-hash", "rules_sha256 does not match its rules"),
])
def test_unsound_files_are_refused_in_one_line(tmp_path, capsys, how, message):
    path = _write(tmp_path)
    _damage(path, how)
    with pytest.raises(PolicyFileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_weights_policy(path, RutsmieterRules())
    code, out, err = run(capsys, "tournament", "--game", "rutsmieter", "--players", "2",
                         "--bots", f"weights:{path},first", "--games", "4",
                         "--out-dir", str(tmp_path))
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and lines[0].startswith("tutto-sim: error: bot")


def test_other_rules_refused_on_the_command_line(tmp_path, capsys):
    path = _write(tmp_path)
    code, out, err = run(capsys, "tournament", "--game", "rutsmieter", "--players", "2",
                         "--bots", f"weights:{path},first", "--games", "4",
                         "--out-dir", str(tmp_path), "--goal-no-jump", "on")
    assert code == 2 and "made for other rules: goal_no_jump=True (file: False)" in err


def test_weights_bot_in_a_tournament_both_engines(tmp_path, capsys):
    path = _write(tmp_path, RutsmieterRules(players=3))
    outs = []
    for engine in ("kernel", "reference"):
        code, out, err = run(capsys, "tournament", "--game", "rutsmieter", "--players", "3",
                             "--bots", f"weights:{path},first,last", "--games", "36",
                             "--seed", "2", "--json", "--out-dir", str(tmp_path),
                             "--engine", engine)
        assert code == 0, err
        d = json.loads(out)
        assert d["engine"] == engine and d["games"] == 36
        assert set(d["bots"]) == {f"weights:{path}", "first", "last"}
        assert sum(d["seat_win_rates"]) == pytest.approx(1.0)
        outs.append({k: d[k] for k in ("bots", "seat_win_rates", "mean_turns", "mean_throws")})
    assert outs[0] == outs[1]


def test_kernel_plays_the_weights_bot_like_the_reference():
    """Random weights, every option: the kernel's games are the reference's."""
    import itertools

    import numpy as np

    from tutto_sim.rutsmieter import kernel as K
    from tutto_sim.rutsmieter.reference import STAT_NAMES

    rng = np.random.default_rng(3)
    options = list(itertools.product((False, True), repeat=4))
    for i in range(24):
        players = (2, 3, 4)[i % 3]
        rules = RutsmieterRules(players, *options[i % 16])
        # integer-ish and fractional weights, so that ties and near-ties both occur
        rows = [tuple(float(x) for x in rng.integers(-5, 6, len(FEATURES))),
                tuple(float(x) for x in rng.normal(0, 3, len(FEATURES)))]
        bots = [WeightsPolicy(rows[j % 2]).bot(f"w{j % 2}") for j in range(players)]
        ids = [K.BOT_WEIGHTS + j % 2 for j in range(players)]
        if i % 4 == 3:  # mixed with built-in bots
            bots[-1], ids[-1] = "aggressive", K.BOT_AGGRESSIVE
        rec = play_game(bots, rules, 500 + i, i)
        trace = np.full((rec.throws + 1, 4), -9, dtype=np.int64)
        w, t, u, places, stats = K.play_traced(500 + i, i, K.kernel_params(rules),
                                               K.kernel_offsets(players), np.array(ids), trace,
                                               wtab=np.array(rows))
        assert [tuple(r) for r in trace[:t].tolist()] == [tuple(x) for x in rec.log]
        assert (w, t, u) == (rec.winner, rec.throws, rec.turns)
        assert tuple(places) == rec.places
        assert stats.tolist() == [[s[k] for k in STAT_NAMES] for s in rec.stats]


def test_weights_spec_without_file(capsys, tmp_path):
    code, out, err = run(capsys, "tournament", "--game", "rutsmieter", "--players", "2",
                         "--bots", "weights,first", "--games", "3", "--out-dir", str(tmp_path))
    assert code == 2 and "weights needs a policy file, weights:FILE" in err


def test_weights_by_the_name_of_a_shipped_file_in_any_folder(tmp_path, monkeypatch):
    """``weights:rutsmieter-tuned-v1.json`` plays the shipped file from any folder (an
    installed package has no repository path); the path the saved ladders spell, from
    before the files moved into the package, finds it too; a file of that name in the
    folder comes first; a name that is neither is refused in one line."""
    from tutto_sim.core.bots import POLICY_DIR, BotSpecError
    from tutto_sim.rutsmieter.bots import parse_bot as parse
    from tutto_sim.rutsmieter.policy import weights_file

    monkeypatch.chdir(tmp_path)
    shipped = POLICY_DIR / "rutsmieter-tuned-v1.json"
    assert weights_file("rutsmieter-tuned-v1.json") == shipped
    saved_ladder = json.loads((POLICY_DIR.parent / "ladders" / "rutsmieter-2p.json").read_text())
    legacy = next(b for b in saved_ladder["ranking"] if b.startswith("weights:"))
    assert weights_file(legacy.removeprefix("weights:")) == shipped
    bot = parse("weights:rutsmieter-tuned-v1.json", RutsmieterRules())
    assert bot.policy.weights == load_weights_policy(shipped, RutsmieterRules()).weights
    (tmp_path / "rutsmieter-tuned-v1.json").write_text("{}")
    assert weights_file("rutsmieter-tuned-v1.json") == Path("rutsmieter-tuned-v1.json")
    with pytest.raises(BotSpecError, match=r"no-such-weights\.json"):
        parse("weights:no-such-weights.json", RutsmieterRules())


def test_the_report_names_a_shipped_weights_file_where_it_is(tmp_path, monkeypatch):
    """The saved ladders spell the first tuned weights by their path before the move into
    the package; the report's caption names the file where it is now."""
    from tutto_sim.rutsmieter.report_figures import bot_words

    monkeypatch.chdir(tmp_path)
    want = "the weights of tutto_sim/data/policies/rutsmieter-tuned-v1.json"
    assert bot_words("weights:data/policies/rutsmieter-tuned-v1.json") == want
    assert bot_words("weights:rutsmieter-tuned-v1.json") == want
    assert bot_words("weights:runs/opt2.json") == "the weights of runs/opt2.json"
