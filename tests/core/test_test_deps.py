"""The README's test command installs what the tests need besides Python's packages
(Debian's chromium and node) through ``scripts/test_deps.sh``, the one script that
does, and ``.ci/run`` runs that very command. The script is run here with fake
``apt-get``, ``sudo`` and ``id`` first on PATH that record what they were asked."""

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "test_deps.sh"


def _readme_test_command():
    blocks = re.findall(r"```bash\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    return blocks[1].strip()


def test_the_readme_test_command_installs_the_browser_and_node_before_the_tests():
    steps = [s.strip() for s in _readme_test_command().split("&&")]
    assert "scripts/test_deps.sh" in steps
    assert steps.index("scripts/test_deps.sh") < steps.index("pytest")
    assert steps.index("pip install -e '.[test]'") < steps.index("scripts/test_deps.sh")


def test_ci_runs_the_readme_command_and_installs_nothing_itself():
    ci = (ROOT / ".ci" / "run").read_text()
    command = _readme_test_command().split("activate && ", 1)[1]
    assert command in ci.splitlines()
    code = [line for line in ci.splitlines() if not line.lstrip().startswith("#")]
    assert not any("apt-get" in line for line in code), "the browser and node come from scripts/test_deps.sh"
    assert os.access(SCRIPT, os.X_OK)


FAKE = """#!/bin/sh
echo "{name} $*" >> "{log}"
{body}
"""


def _run(tmp_path, *, uid=0, chromium=False, node=False, apt_fails=False):
    """Run the script with fake tools; (exit code, stderr, the recorded calls)."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    log = tmp_path / "calls.log"
    log.write_text("")
    fakes = {"apt-get": "exit 1" if apt_fails else "exit 0", "id": f"echo {uid}", "sudo": 'exec "$@"'}
    if node:
        fakes["fake-node"] = "exit 0"
    for name, body in fakes.items():
        (bin_ / name).write_text(FAKE.format(name=name, log=log, body=body))
        (bin_ / name).chmod(0o755)
    browser = tmp_path / "chromium"
    if chromium:
        browser.write_text("#!/bin/sh\n")
        browser.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_}:/usr/bin:/bin", "TUTTO_SIM_CHROMIUM": str(browser),
           "TUTTO_SIM_NODE": "fake-node" if node else "no-such-node-here"}
    run = subprocess.run(["bash", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60)
    return run.returncode, run.stderr, log.read_text().splitlines()


def test_as_root_it_installs_both_when_both_are_missing(tmp_path):
    code, err, calls = _run(tmp_path)
    assert code == 0, err
    assert calls == ["id -u", "apt-get update -qq", "apt-get install -y -qq chromium nodejs"]
    assert "installing chromium nodejs" in err


def test_not_root_it_asks_sudo_for_the_missing_one(tmp_path):
    code, err, calls = _run(tmp_path, uid=1000, node=True)
    assert code == 0, err
    assert calls == ["id -u",
                     "sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq",
                     "apt-get update -qq",
                     "sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium",
                     "apt-get install -y -qq chromium"]


def test_node_alone_is_missing(tmp_path):
    code, err, calls = _run(tmp_path, chromium=True)
    assert code == 0, err
    assert calls[-1] == "apt-get install -y -qq nodejs"


def test_with_both_there_it_does_nothing(tmp_path):
    code, err, calls = _run(tmp_path, chromium=True, node=True)
    assert (code, err, calls) == (0, "", [])


@pytest.mark.parametrize("uid", [0, 1000])
def test_a_failed_install_fails_the_command(tmp_path, uid):
    code, err, calls = _run(tmp_path, uid=uid, apt_fails=True)
    assert code != 0
    assert calls[-1] == "apt-get update -qq"
