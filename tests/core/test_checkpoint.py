"""Checkpoints of a long solve (issue 36, item 3): ``core.checkpoint``.

Each saved part comes back bit for bit and in order; a checkpoint is never
lost silently (no ``--resume``: refused) nor used for another solve (the key's
differing fields named); a damaged, truncated or missing part and a manifest
that is not one are refused in one line; a stop between the part's file and
the manifest, a full disk, or a process killed in the middle of saving leave
the previous manifest valid and every part it lists loadable."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from tutto_sim.core import checkpoint
from tutto_sim.core.checkpoint import LOCK, Checkpoint, CheckpointError
from tutto_sim.core.cli import UserError

KEY = {"game": "dice", "players": 3, "target": 6000, "rules": {"end": "round", "six": "two"},
       "start": [0, 0, 0], "format": 2}


def _arrays(seed: int) -> dict[str, np.ndarray]:
    """float64 with the awkward values (NaN payloads, -0.0, subnormals, inf),
    int64 extremes, bool, a 2-D Fortran-ordered array and an empty one."""
    rng = np.random.default_rng(seed)
    f = rng.random(1000) * 10.0 ** rng.integers(-300, 300, 1000)
    f[:6] = [np.nan, -0.0, 5e-324, -np.inf, np.inf, np.finfo(float).max]
    f[6] = np.frombuffer(np.uint64(0x7FF8_0000_DEAD_BEEF).tobytes(), np.float64)[0]  # a NaN payload
    return {"values": f,
            "counts": np.array([np.iinfo(np.int64).min, -1, 0, 1, np.iinfo(np.int64).max, seed]),
            "banks": rng.random(77) < 0.5,
            "table": np.asfortranarray(rng.random((13, 7)).astype(np.float32)),
            "empty": np.zeros((0, 4), np.int16)}


def _same(got: dict, want: dict) -> None:
    """Names in order, dtypes, shapes and every byte equal."""
    assert list(got) == list(want)
    for name in want:
        assert got[name].dtype == want[name].dtype, name
        assert got[name].shape == want[name].shape, name
        assert got[name].tobytes(order="A") == want[name].tobytes(order="A"), name


def _one_line(e: pytest.ExceptionInfo) -> str:
    text = str(e.value)
    assert "\n" not in text and "Traceback" not in text
    assert isinstance(e.value, UserError)  # main() prints it as "tutto-sim: error: ...", exit 2
    return text


def _saved(folder: Path, names=("level 0", "level 1", "level 2")) -> Checkpoint:
    ck = Checkpoint.open(folder, KEY, resume=False)
    for i, name in enumerate(names):
        ck.save(name, _arrays(i), info={"residual": 10.0 ** -i})
    return ck


# -- round trip, order -------------------------------------------------------------

def test_arrays_come_back_bit_for_bit_in_this_run_and_the_next(tmp_path):
    ck = _saved(tmp_path / "ck")
    for i in range(3):
        _same(ck.load(f"level {i}"), _arrays(i))
    again = Checkpoint.open(tmp_path / "ck", KEY, resume=True)
    assert again.resumed
    for i in range(3):
        _same(again.load(f"level {i}"), _arrays(i))
        assert again.info(f"level {i}") == {"residual": 10.0 ** -i}
    f = again.load("level 0")["values"]
    assert f.dtype == np.float64 and np.isnan(f[0]) and np.signbit(f[1]) and f[2] == 5e-324


def test_parts_keep_the_order_saved_across_a_reopen(tmp_path):
    names = ["sweep 2 level 9", "end 2 0-4096", "a", "sweep 1 level 10", "Ü / .. \\ : *"]
    ck = _saved(tmp_path / "ck", names)
    assert ck.parts == names
    again = Checkpoint.open(tmp_path / "ck", KEY, resume=True)
    assert again.parts == names
    assert again.has("a") and not again.has("b")
    assert again.summary() == "5 parts done, the last 'Ü / .. \\\\ : *'"
    # file names come from a counter, never from the caller's names
    assert sorted(p.name for p in (tmp_path / "ck").iterdir() if p.name != LOCK) == [
        "manifest.json", *(f"part-{i:06d}.npz" for i in range(1, 6))]
    _same(again.load("Ü / .. \\ : *"), _arrays(4))
    again.save("next", {"x": np.arange(3)})
    assert Checkpoint.open(tmp_path / "ck", KEY, resume=True).parts == [*names, "next"]


def test_a_part_is_saved_once(tmp_path):
    ck = _saved(tmp_path / "ck")
    with pytest.raises(ValueError, match="'level 1' is already saved"):
        ck.save("level 1", _arrays(9))
    _same(ck.load("level 1"), _arrays(1))


# -- opening: resume or not, whose checkpoint ------------------------------------------

def test_a_checkpoint_is_refused_without_resume(tmp_path):
    folder = tmp_path / "out" / "checkpoint"
    _saved(folder)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    with pytest.raises(CheckpointError) as e:
        Checkpoint.open(folder, KEY, resume=False, what="the win table")
    assert _one_line(e) == (f"{folder} holds a checkpoint of the win table (3 parts done, the last "
                            f"'level 2'); add --resume to continue it, or remove {folder} to start again")
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before  # nothing touched


def test_resume_with_nothing_saved_starts_empty(tmp_path):
    ck = Checkpoint.open(tmp_path / "new" / "ck", KEY, resume=True)
    assert (ck.parts, ck.resumed, ck.summary()) == ([], False, "no parts done")
    assert (tmp_path / "new" / "ck").is_dir()
    # a run stopped before its first part left nothing to protect: no refusal
    assert Checkpoint.open(tmp_path / "new" / "ck", KEY, resume=False).parts == []


def test_a_checkpoint_of_another_solve_names_the_fields_that_differ(tmp_path):
    folder = tmp_path / "ck"
    _saved(folder)
    other = {**KEY, "target": 5000}
    for resume in (True, False):
        with pytest.raises(CheckpointError) as e:
            Checkpoint.open(folder, other, resume=resume)
        assert _one_line(e) == (f"checkpoint {folder} is of another solve: target 6000, not 5000; "
                                f"remove {folder} to start this solve there, or give another folder")
    nested = {**KEY, "players": 4, "rules": {"end": "immediate", "six": "two"}}
    with pytest.raises(CheckpointError) as e:
        Checkpoint.open(folder, nested, resume=True)
    assert "another solve: players 3, not 4; rules end round, not immediate; remove" in _one_line(e)
    fewer = {k: v for k, v in KEY.items() if k != "format"}
    with pytest.raises(CheckpointError) as e:
        Checkpoint.open(folder, fewer, resume=True)
    assert "another solve: format 2, not (none); remove" in _one_line(e)
    # a tuple in the key is its list: the same solve
    assert Checkpoint.open(folder, {**KEY, "start": (0, 0, 0)}, resume=True).parts == [
        "level 0", "level 1", "level 2"]


def test_many_differing_fields_are_counted_not_all_listed():
    old = {f"f{i}": i for i in range(6)}
    new = {f"f{i}": i + 1 for i in range(6)}
    assert checkpoint.key_difference(old, new) == "f0 0, not 1; f1 1, not 2; f2 2, not 3 (and 3 fields more)"
    assert checkpoint.key_difference({"a": [1, 2], "b": "x"}, {"a": (1, 3), "b": "x"}) == "a [1, 2], not [1, 3]"


def test_a_folder_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "ck").write_text("not a folder")
    with pytest.raises(CheckpointError) as e:
        Checkpoint.open(tmp_path / "ck", KEY, resume=True)
    assert "cannot write there (is a file, not a folder)" in _one_line(e)


# -- damage ---------------------------------------------------------------------------

def test_a_part_with_one_byte_changed_is_refused(tmp_path):
    folder = tmp_path / "ck"
    _saved(folder)
    part = folder / "part-000002.npz"
    data = bytearray(part.read_bytes())
    data[len(data) // 2] ^= 0x01  # a bit in the array bytes: the file still parses
    part.write_bytes(bytes(data))
    message = (f"checkpoint {folder}: part 'level 1' (part-000002.npz) is damaged "
               f"(its SHA-256 differs from the manifest's); remove {folder} to start again")
    with pytest.raises(CheckpointError) as e:  # the size is right: found by its SHA-256 at once
        Checkpoint.open(folder, KEY, resume=True)
    assert _one_line(e) == message
    # damaged after it was opened: found on load
    part.write_bytes(bytes(data[:len(data) // 2]) + bytes([data[len(data) // 2] ^ 0x01])
                     + bytes(data[len(data) // 2 + 1:]))
    ck = Checkpoint.open(folder, KEY, resume=True)
    _same(ck.load("level 0"), _arrays(0))
    part.write_bytes(bytes(data))
    with pytest.raises(CheckpointError) as e:
        ck.load("level 1")
    assert _one_line(e) == message


@pytest.mark.parametrize("harm, why", [
    (lambda p: p.write_bytes(p.read_bytes()[:-10]), "has {n:,} bytes, not {m:,}"),
    (lambda p: p.unlink(), "is missing"),
])
def test_a_truncated_or_missing_part_is_refused(tmp_path, harm, why):
    folder = tmp_path / "ck"
    _saved(folder)
    part = folder / "part-000003.npz"
    m = part.stat().st_size
    harm(part)
    with pytest.raises(CheckpointError) as e:
        Checkpoint.open(folder, KEY, resume=True)
    assert _one_line(e) == (f"checkpoint {folder}: part 'level 2' (part-000003.npz) "
                            f"{why.format(n=m - 10, m=m)}; remove {folder} to start again")


def test_a_part_whose_arrays_differ_from_the_manifest_is_refused(tmp_path):
    """A part file swapped for another one (its manifest entry adjusted to match its
    bytes): the arrays are not those listed."""
    folder = tmp_path / "ck"
    _saved(folder)
    doc = json.loads((folder / "manifest.json").read_text())
    doc["parts"][0]["arrays"][0][1] = "<f4"  # says float32, the file holds float64
    (folder / "manifest.json").write_text(json.dumps(doc))
    with pytest.raises(CheckpointError) as e:
        Checkpoint.open(folder, KEY, resume=True).load("level 0")
    assert "part 'level 0' (part-000001.npz) holds other arrays than the manifest lists" in _one_line(e)


def _edit(doc: dict, **change) -> dict:
    return {**doc, **change}


@pytest.mark.parametrize("make, why", [
    (lambda doc: b"{\"format\": \"tutto-sim checkpoint\", ", "is not valid JSON ("),
    (lambda doc: b"\xff\xfe garbage", "is not valid JSON ("),
    (lambda doc: b"[1, 2]", "is not a checkpoint of tutto-sim;"),
    (lambda doc: json.dumps(_edit(doc, format="policy")).encode(), "is not a checkpoint of tutto-sim;"),
    (lambda doc: json.dumps(_edit(doc, version=99)).encode(),
     "is of version 99; this program reads version 1;"),
    (lambda doc: json.dumps(_edit(doc, key={**doc["key"], "target": 5000})).encode(),
     "is damaged (its key does not match its SHA-256);"),
    (lambda doc: json.dumps(_edit(doc, parts={"a": 1})).encode(), "is damaged (no list of parts);"),
    (lambda doc: json.dumps(_edit(doc, parts=doc["parts"][:1] + [{"name": "x"}])).encode(),
     "is damaged (part 2 is not a valid entry);"),
    (lambda doc: json.dumps(_edit(doc, parts=doc["parts"][::-1])).encode(),
     "is damaged (part 1 is not a valid entry);"),
])
def test_a_manifest_that_is_not_one_is_refused(tmp_path, make, why):
    folder = tmp_path / "ck"
    _saved(folder)
    doc = json.loads((folder / "manifest.json").read_text())
    (folder / "manifest.json").write_bytes(make(doc))
    for resume in (True, False):
        with pytest.raises(CheckpointError) as e:
            Checkpoint.open(folder, KEY, resume=resume)
        line = _one_line(e)
        assert line.startswith(f"checkpoint {folder}: manifest.json {why}"), line
        assert line.endswith(f"remove {folder} to start again")


# -- stops and failures in the middle of a save -----------------------------------------

def _manifest_replace_raises(monkeypatch, error: BaseException, part_too: bool = False):
    """``os.replace`` onto the manifest (and, with ``part_too``, onto a part) raises ``error``."""
    real = os.replace

    def replace(src, dst, *a, **k):
        name = Path(dst).name
        if name == "manifest.json" or (part_too and name.startswith("part-")):
            raise error
        return real(src, dst, *a, **k)

    monkeypatch.setattr(os, "replace", replace)


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_stop_between_the_part_and_the_manifest_leaves_the_part_unlisted(tmp_path, monkeypatch):
    folder = tmp_path / "ck"
    ck = _saved(folder)
    manifest = (folder / "manifest.json").read_bytes()
    with monkeypatch.context() as m:
        _manifest_replace_raises(m, KeyboardInterrupt())
        with pytest.raises(KeyboardInterrupt):
            ck.save("level 3", _arrays(3))
    assert (folder / "part-000004.npz").exists()  # the part's file was written ...
    assert (folder / "manifest.json").read_bytes() == manifest  # ... the manifest is the old one
    assert not [p for p in folder.iterdir() if p.name.endswith(".partial")]
    assert ck.parts == ["level 0", "level 1", "level 2"] and not ck.has("level 3")
    again = Checkpoint.open(folder, KEY, resume=True)
    assert again.parts == ["level 0", "level 1", "level 2"]
    assert not (folder / "part-000004.npz").exists()  # the unlisted file is cleared away
    again.save("level 3", _arrays(33))  # done again
    final = Checkpoint.open(folder, KEY, resume=True)
    assert final.parts == ["level 0", "level 1", "level 2", "level 3"]
    _same(final.load("level 3"), _arrays(33))
    _same(final.load("level 2"), _arrays(2))


@pytest.mark.parametrize("where", ["manifest", "part"])
def test_a_full_disk_keeps_the_checkpoint_as_it_was(tmp_path, monkeypatch, where):
    folder = tmp_path / "ck"
    ck = _saved(folder)
    before = _files(folder)
    with monkeypatch.context() as m:
        _manifest_replace_raises(m, OSError(errno.ENOSPC, "No space left on device"),
                                 part_too=where == "part")
        with pytest.raises(CheckpointError) as e:
            ck.save("level 3", _arrays(3))
    assert _one_line(e) == (f"checkpoint {folder}: could not save part 'level 3' (No space left on "
                            f"device); the checkpoint is kept as it was (3 parts done, the last 'level 2')")
    after = _files(folder)
    assert not [n for n in after if n.endswith(".partial")]
    assert after["manifest.json"] == before["manifest.json"]
    assert {n: b for n, b in after.items() if n != "part-000004.npz"} == before
    assert ck.parts == ["level 0", "level 1", "level 2"]
    ck.save("level 3", _arrays(3))  # space again: it goes on
    again = Checkpoint.open(folder, KEY, resume=True)
    assert again.parts == ["level 0", "level 1", "level 2", "level 3"]
    for i in range(4):
        _same(again.load(f"level {i}"), _arrays(i))


def test_a_failed_write_of_the_part_bytes_keeps_the_checkpoint(tmp_path, monkeypatch):
    """The disk fills while the part's bytes are written (not at the rename)."""
    folder = tmp_path / "ck"
    ck = _saved(folder)
    before = _files(folder)

    def write(data):
        def w(tmp):
            Path(tmp).write_bytes(data[: len(data) // 2])
            raise OSError(errno.ENOSPC, "No space left on device")
        return w

    monkeypatch.setattr(checkpoint, "_write_synced", write)
    with pytest.raises(CheckpointError) as e:
        ck.save("level 3", _arrays(3))
    assert _one_line(e).startswith(f"checkpoint {folder}: could not save part 'level 3' (No space left")
    assert _files(folder) == before
    assert Checkpoint.open(folder, KEY, resume=True).parts == ["level 0", "level 1", "level 2"]


SAVER = textwrap.dedent("""
    import sys
    import numpy as np
    from tutto_sim.core.checkpoint import Checkpoint
    ck = Checkpoint.open(sys.argv[1], {"solve": "killed"}, resume=True)
    i = len(ck.parts)
    while True:
        ck.save(f"level {i}", {"v": np.full(50_000, float(i)), "i": np.array([i])})
        print(f"saved {i}", flush=True)
        i += 1
""")


def test_a_process_killed_while_saving_leaves_every_listed_part_whole(tmp_path):
    """A real process saves parts as fast as it can and is killed (SIGKILL: no
    clean-up runs) three times at moments that fall in the middle of saves; each
    restart resumes, and every part listed loads with its own values."""
    folder = tmp_path / "ck"
    seen = 0
    for round_ in range(3):
        proc = subprocess.Popen([sys.executable, "-c", SAVER, str(folder)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        try:
            for _ in range(5 + 3 * round_):  # a few saves done, then killed during the next ones
                line = proc.stdout.readline()
                assert line.startswith("saved"), (line, proc.stderr.read() if proc.poll() is not None else "")
            time.sleep(0.003 * round_)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        ck = Checkpoint.open(folder, {"solve": "killed"}, resume=True)
        assert len(ck.parts) >= seen + 5 + 3 * round_
        assert ck.parts == [f"level {i}" for i in range(len(ck.parts))]
        # what the killed save left (a temporary file, an unlisted part) is cleared away
        assert sorted(p.name for p in folder.iterdir() if p.name != LOCK) == [
            "manifest.json", *(f"part-{i:06d}.npz" for i in range(1, len(ck.parts) + 1))]
        for i, name in enumerate(ck.parts):
            got = ck.load(name)
            assert got["v"].dtype == np.float64 and (got["v"] == i).all() and got["i"].tolist() == [i]
        seen = len(ck.parts)
        ck.close()  # the next round's process opens it


def test_remove_leaves_nothing(tmp_path):
    folder = tmp_path / "out" / "ck"
    ck = _saved(folder)
    (folder / ".part-000009.npz.x.partial").write_bytes(b"left by a killed run")
    ck.remove()
    assert not folder.exists() and (tmp_path / "out").is_dir()
    assert Checkpoint.open(folder, KEY, resume=False).parts == []


def test_remove_keeps_files_it_did_not_write(tmp_path):
    folder = tmp_path / "ck"
    ck = _saved(folder)
    (folder / "notes.txt").write_text("mine")
    ck.remove()
    assert _files(folder) == {"notes.txt": b"mine"}


def test_a_checkpoint_in_use_by_another_process_is_refused(tmp_path):
    """Two solves writing one checkpoint would mix their parts: the second is
    refused in one line while the first runs, and may go on once it has ended."""
    import subprocess
    import sys
    import textwrap

    folder = tmp_path / "ck"
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sys, time
        from tutto_sim.core.checkpoint import Checkpoint
        ck = Checkpoint.open({str(folder)!r}, {KEY!r}, resume=True)
        print("open", flush=True)
        sys.stdin.readline()
    """)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "open"
    with pytest.raises(CheckpointError) as e:
        Checkpoint.open(folder, KEY, resume=True)
    assert _one_line(e) == (f"checkpoint {folder} is in use by another solve running now; "
                            f"wait for it to finish or stop it first")
    holder.communicate("\n", timeout=60)
    ck = Checkpoint.open(folder, KEY, resume=True)  # the lock ends with its process
    ck.save("level 0", _arrays(0))
    ck.remove()
    assert not folder.exists()
