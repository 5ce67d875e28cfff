"""A first run says once on stderr that numba compiles; a run from the cache says nothing.

Each check runs in a fresh process with its own ``NUMBA_CACHE_DIR`` (a temp
dir): the first run must compile (nothing is cached there), the second run
with the same dir loads every kernel from it and must not say a word.
"""

import os
import pty
import subprocess
import sys
import textwrap

LINE = "tutto-sim: compiling "
TAIL = "; later runs reuse the cache"


def _env(cache_dir):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir))
    env.pop("NUMBA_DISABLE_JIT", None)
    return env


def test_one_line_on_a_cache_miss_none_on_a_hit(tmp_path):
    """A module with two kernels, one calling the other, two signatures: one
    line naming the module's ``COMPILING``, and none once they are cached."""
    (tmp_path / "kmod.py").write_text(textwrap.dedent('''
        from numba import njit
        COMPILING = "the test kernels"
        COMPILE_SECONDS = 3

        @njit(cache=True)
        def inner(x):
            return x + 1

        @njit(cache=True)
        def outer(x):
            return inner(x) * 2
        '''))
    script = textwrap.dedent('''
        import sys
        from tutto_sim.core import jit
        jit.announce_compiles(True)
        import kmod
        print(kmod.outer(1), kmod.outer(1.5), kmod.inner(2))
        jit.announce_compiles(False)
        print(kmod.outer(1j))
        ''')
    env = _env(tmp_path / "cache")
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])

    def run():
        return subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                              text=True, check=True)

    first = run()
    assert first.stdout.split() == ["4", "5.0", "3", "(2+2j)"]
    want = LINE + "the test kernels once (about 3 s)" + TAIL
    assert first.stderr.splitlines() == [want], first.stderr
    second = run()
    assert second.stdout == first.stdout
    assert second.stderr == "", second.stderr


def _cli_with_terminal_stderr(args, cache_dir):
    """``tutto-sim ARGS`` with stderr on a pseudo-terminal (as in a shell) and
    stdout on a pipe: (stdout, stderr)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "tutto_sim.cli", *args], env=_env(cache_dir),
                            stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    out = proc.stdout.read().decode()
    proc.wait()
    os.close(master)
    assert proc.returncode == 0
    return out, b"".join(chunks).decode().replace("\r\n", "\n")


def test_cli_first_run_says_it_once_warm_run_not(tmp_path):
    cache = tmp_path / "cache"
    args = ["solve", "--game", "rutsmieter", "--solo", "--json"]
    out1, err1 = _cli_with_terminal_stderr(args, cache)
    lines = [ln for ln in err1.splitlines() if ln.startswith(LINE)]
    assert len(lines) == 1 and lines[0].endswith(TAIL), err1
    assert "compiling" not in out1 and out1.lstrip().startswith("{")
    out2, err2 = _cli_with_terminal_stderr(args, cache)
    assert "compiling" not in err2, err2
    assert out2 == out1


def test_cli_says_nothing_when_stderr_is_not_a_terminal(tmp_path):
    args = ["solve", "--game", "rutsmieter", "--solo", "--json"]
    res = subprocess.run([sys.executable, "-m", "tutto_sim.cli", *args],
                         env=_env(tmp_path / "cache"), capture_output=True, text=True)
    assert res.returncode == 0
    assert "compiling" not in res.stderr and "compiling" not in res.stdout
    assert list((tmp_path / "cache").rglob("*.nbi")), "the run compiled nothing: no test"
