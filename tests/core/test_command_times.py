"""The times the README quotes are the measured ones, first run and warm side
by side (``scripts/time_commands.py`` and the file it writes).

A first run compiles numba's kernels (and a report solves the tables it keeps
in its folder), so a time measured warm is only half the story: every timed
command of the file is quoted in the README with both figures, as the file
has them, and the file says where and how they were measured."""

import json
import re
import runpy
from pathlib import Path

from tutto_sim.core.measured import MEASURED_DIR

ROOT = Path(__file__).resolve().parents[2]
TIMES = MEASURED_DIR / "command-times.json"


def seconds(x: float) -> str:
    """As the README writes a time: one decimal below 10 s, whole seconds above."""
    return f"{x:.1f}" if x < 10 else f"{round(x):,}"


def _times() -> dict:
    return json.loads(TIMES.read_text(encoding="utf-8"))


def test_every_command_the_script_times_is_in_the_file_with_both_runs():
    script = runpy.run_path(str(ROOT / "scripts" / "time_commands.py"), run_name="not_main")
    data = _times()
    assert data["format"] == "tutto-sim-command-times" and data["version"] == 1
    assert set(data["commands"]) == set(script["COMMANDS"])
    for key, entry in data["commands"].items():
        assert entry["command"] == "tutto-sim " + " ".join(script["COMMANDS"][key])
        for run in ("first", "warm"):
            assert entry[run]["wall_s"] > 0 and entry[run]["cpu_s"] > 0 and entry[run]["load"] >= 0
        assert re.fullmatch(r"\d{4}-\d\d-\d\d", entry["date"]) and "cores" in entry["machine"]
        # a first run compiles (or solves) what the warm run reuses: never faster by much
        assert entry["first"]["cpu_s"] > 0.9 * entry["warm"]["cpu_s"], key


def test_the_readme_quotes_each_time_first_run_and_warm_as_measured():
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    for key, entry in _times()["commands"].items():
        phrase = (f"{seconds(entry['warm']['wall_s'])} s warm, "
                  f"{seconds(entry['first']['wall_s'])} s on a first run")
        assert phrase in readme, (key, phrase)


def test_the_readme_names_the_script_and_the_machine():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "python scripts/time_commands.py" in readme
    machines = {e["machine"] for e in _times()["commands"].values()}
    assert len(machines) == 1
