"""Checkpoints of a long solve: each finished part kept on disk, a stopped run resumed.

Game-independent. A solve that runs for hours (levels of equal score sum,
one after the other) saves each part it finishes: a few named arrays. A run
stopped at any moment (Ctrl-C, a crash, the machine switched off) loses at
most the part it was working on; the next run with ``--resume`` loads the
parts saved and goes on from there.

The folder holds ``manifest.json`` and one file per part,
``part-000001.npz``, ``part-000002.npz``, ... (numbered in the order saved;
the caller's part names are free text and never become file names). An
``.npz`` keeps every array's bytes, dtype and shape exactly: float64 stays
float64, bit for bit. The manifest holds

- the *key*: a JSON object that says which solve this is (every setting that
  changes the figures and the solver's format), with its SHA-256;
- one entry per complete part, in the order saved: its name, file, SHA-256,
  size in bytes, the arrays' names, dtypes and shapes, and a small ``info``
  object of the caller's.

A part is saved in two steps, each written to a temporary file, flushed to
disk (``fsync``) and renamed over its place (a rename is atomic): first the
part's file, then the manifest that lists it. Whatever stops the run, the
manifest on disk is the old one or the new one, never half of either; a part
whose file was written but whose manifest was not is simply not listed and
is done again. A write that fails (a full disk) leaves the previous manifest
and every part it lists as they were, and says so in one line
(:class:`CheckpointError`).

What is refused, each in one line naming the folder: a checkpoint found when
the run did not ask to resume (it would be lost); a checkpoint of another
solve (the first fields of the key that differ, ``target 5000, not 6000``);
a manifest that is not one (not JSON, another format or version, a key that
does not match its SHA-256); a listed part whose file is missing, of another
size, or whose SHA-256 or arrays differ from the manifest's.

The manifest is rewritten with every part, so it stays small (about 220
bytes a part: no figures in it); loading reads each part's file once.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
from pathlib import Path

import numpy as np

from tutto_sim.core.cli import UserError, atomic_write, plural, prepare_dir
from tutto_sim.core.policyfile import fields_sha256

#: What ``manifest.json`` says it is, and the version of its layout.
FORMAT = "tutto-sim checkpoint"
VERSION = 1
MANIFEST = "manifest.json"
#: Key fields named when a checkpoint is of another solve (the rest counted).
SHOWN_FIELDS = 3
#: Seconds of work a solve keeps in memory before saving it as a part (:class:`Steps`).
EVERY = 20.0

_PART_FILE = re.compile(r"part-(\d{6})\.npz")


class CheckpointError(UserError):
    """A checkpoint that must not be used, or could not be saved: one line."""


def plain_key(key: dict) -> dict:
    """``key`` as plain JSON (tuples become lists, objects with ``to_dict()``
    their dict), so that it compares equal to itself read back."""
    def plain(value):
        if hasattr(value, "to_dict"):
            return value.to_dict()
        raise TypeError(f"checkpoint key: a {type(value).__name__} is not JSON")

    if not isinstance(key, dict):
        raise TypeError("checkpoint key: must be a dict")
    return json.loads(json.dumps(key, default=plain, allow_nan=False))


def _flat(d: dict, path: tuple = ()) -> dict:
    """Nested dicts as ``{("rules", "end"): value, ...}``, in their order."""
    out = {}
    for k, v in d.items():
        if isinstance(v, dict) and v:
            out.update(_flat(v, path + (k,)))
        else:
            out[path + (k,)] = v
    return out


_MISSING = object()


def _words(value) -> str:
    if value is _MISSING:
        return "(none)"
    return value if isinstance(value, str) else json.dumps(value)


def key_difference(stored: dict, wanted: dict) -> str:
    """The first fields in which ``stored`` (a checkpoint's key) differs from
    ``wanted`` (this run's), in ``wanted``'s order: ``target 5000, not 6000``.

    >>> key_difference({"players": 3, "target": 5000}, {"players": 3, "target": 6000})
    'target 5000, not 6000'
    """
    old, new = _flat(stored), _flat(wanted)
    fields = list(new) + [k for k in old if k not in new]
    differ = [f for f in fields if old.get(f, _MISSING) != new.get(f, _MISSING)]
    shown = [f"{' '.join(f)} {_words(old.get(f, _MISSING))}, not {_words(new.get(f, _MISSING))}"
             for f in differ[:SHOWN_FIELDS]]
    more = len(differ) - SHOWN_FIELDS
    return "; ".join(shown) + (f" (and {plural(more, 'field')} more)" if more > 0 else "")


def _sync_folder(folder: Path) -> None:
    """Make the renames in ``folder`` durable (where the system allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_synced(data: bytes | memoryview):
    """A ``write(tmp)`` for :func:`core.cli.atomic_write` that flushes to disk."""
    def write(tmp: Path) -> None:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    return write


def _array_specs(arrays: dict) -> list:
    return [[name, a.dtype.str, list(a.shape)] for name, a in arrays.items()]


#: The file a running solve holds locked (one solve a checkpoint at a time).
LOCK = ".lock"


_HELD: dict[str, int] = {}  # folder -> the locked file of this process


def _lock(folder: Path) -> int:
    """Lock ``folder`` for this process (held until the process ends, however it
    ends, or the checkpoint is removed); one line if another process holds it."""
    import fcntl

    where = str(folder.resolve())
    if where in _HELD:
        return _HELD[where]
    fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise CheckpointError(f"checkpoint {folder} is in use by another solve running now; "
                              f"wait for it to finish or stop it first") from None
    _HELD[where] = fd
    return fd


def _unlock(folder: Path) -> None:
    fd = _HELD.pop(str(folder.resolve()), None)
    if fd is not None:
        (folder / LOCK).unlink(missing_ok=True)
        os.close(fd)


class Checkpoint:
    """The parts of one solve saved so far in ``folder`` (:meth:`open` it).

    ``parts`` lists the names of the complete parts in the order saved;
    ``resumed`` says whether saved parts were found to continue from
    (``open(resume=True)`` on an empty folder starts with no parts and
    ``resumed`` False: the caller may say there was nothing to resume).
    """

    def __init__(self, folder: Path, key: dict, what: str, entries: list[dict], resumed: bool):
        self.folder = Path(folder)
        self.key = key
        self.what = what
        self.resumed = resumed
        self._entries = entries
        self._by_name = {e["name"]: e for e in entries}

    # -- opening ---------------------------------------------------------------------

    @classmethod
    def open(cls, folder: Path, key: dict, resume: bool, what: str = "this solve") -> "Checkpoint":
        """The checkpoint of the solve ``key`` in ``folder`` (created if needed).

        Without ``resume`` a folder must hold no checkpoint with parts in it;
        with it, the checkpoint found is continued (none found: no parts yet).
        Every refusal is one :class:`CheckpointError` line.
        """
        folder = Path(folder)
        key = plain_key(key)
        try:
            prepare_dir(folder, "checkpoint")
        except UserError as e:
            raise CheckpointError(str(e)) from None
        held = str(folder.resolve()) in _HELD
        _lock(folder)
        try:
            return cls._open_locked(folder, key, resume, what)
        except BaseException:
            if not held:
                _unlock(folder)
            raise

    @classmethod
    def _open_locked(cls, folder: Path, key: dict, resume: bool, what: str) -> "Checkpoint":
        if not (folder / MANIFEST).exists():
            fresh = cls(folder, key, what, [], resumed=False)
            fresh._clear_leftovers()
            return fresh
        doc = cls._read_manifest(folder)
        if doc["key"] != key:
            raise CheckpointError(f"checkpoint {folder} is of another solve: "
                                  f"{key_difference(doc['key'], key)}; remove {folder} to start "
                                  f"{what} there, or give another folder")
        found = cls(folder, key, what, doc["parts"], resumed=resume and bool(doc["parts"]))
        if not resume and found.parts:
            raise CheckpointError(f"{folder} holds a checkpoint of {what} ({found.summary()}); "
                                  f"add --resume to continue it, or remove {folder} to start again")
        found._check_files()
        found._clear_leftovers()
        return found

    @staticmethod
    def _read_manifest(folder: Path) -> dict:
        """The manifest, checked: one line on what is wrong with it."""
        def damaged(why: str) -> CheckpointError:
            return CheckpointError(f"checkpoint {folder}: {MANIFEST} {why}; remove {folder} "
                                   f"to start again")

        try:
            doc = json.loads((folder / MANIFEST).read_bytes().decode("utf-8"))
        except OSError as e:
            raise CheckpointError(f"checkpoint {folder}: cannot read {MANIFEST} "
                                  f"({e.strerror or e})") from None
        except (UnicodeDecodeError, ValueError) as e:
            raise damaged(f"is not valid JSON ({str(e).splitlines()[0]})") from None
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise damaged("is not a checkpoint of tutto-sim")
        if doc.get("version") != VERSION:
            raise damaged(f"is of version {doc.get('version')!r}; this program reads version {VERSION}")
        if not isinstance(doc.get("key"), dict) or doc.get("key_sha256") != fields_sha256(doc, ("key",)):
            raise damaged("is damaged (its key does not match its SHA-256)")
        parts = doc.get("parts")
        if not isinstance(parts, list):
            raise damaged("is damaged (no list of parts)")
        names = set()
        for i, e in enumerate(parts, 1):
            if not (isinstance(e, dict) and isinstance(e.get("name"), str)
                    and e.get("file") == f"part-{i:06d}.npz"
                    and isinstance(e.get("sha256"), str) and re.fullmatch(r"[0-9a-f]{64}", e["sha256"])
                    and type(e.get("bytes")) is int and isinstance(e.get("arrays"), list)
                    and all(isinstance(a, list) and len(a) == 3 and isinstance(a[0], str)
                            and isinstance(a[1], str) and isinstance(a[2], list)
                            and all(type(n) is int and n >= 0 for n in a[2]) for a in e["arrays"])
                    and isinstance(e.get("info", {}), dict)) or e["name"] in names:
                raise damaged(f"is damaged (part {i} is not a valid entry)")
            names.add(e["name"])
        return doc

    def _check_files(self) -> None:
        """Every listed part's file is there, of its size and SHA-256 (read once
        more on load): a damaged checkpoint is refused before any work."""
        for e in self._entries:
            path = self.folder / e["file"]
            try:
                size = path.stat().st_size
            except OSError:
                raise self._bad_part(e, "is missing") from None
            if size != e["bytes"]:
                raise self._bad_part(e, f"has {size:,} bytes, not {e['bytes']:,}")
            digest = hashlib.sha256()
            try:
                with open(path, "rb") as f:
                    for block in iter(lambda: f.read(1 << 20), b""):
                        digest.update(block)
            except OSError as err:
                raise self._bad_part(e, f"cannot be read ({err.strerror or err})") from None
            if digest.hexdigest() != e["sha256"]:
                raise self._bad_part(e, "is damaged (its SHA-256 differs from the manifest's)")

    def _clear_leftovers(self) -> None:
        """Remove what a stopped save left: temporary files, a part never listed."""
        for path in self.folder.iterdir():
            m = _PART_FILE.fullmatch(path.name)
            if (m and int(m.group(1)) > len(self._entries)) or (
                    path.name.startswith((".part-", f".{MANIFEST}.")) and path.name.endswith(".partial")):
                path.unlink(missing_ok=True)

    def _bad_part(self, e: dict, why: str) -> CheckpointError:
        return CheckpointError(f"checkpoint {self.folder}: part {e['name']!r} ({e['file']}) {why}; "
                               f"remove {self.folder} to start again")

    # -- reading ---------------------------------------------------------------------

    @property
    def parts(self) -> list[str]:
        """The names of the complete parts, in the order saved."""
        return [e["name"] for e in self._entries]

    def has(self, name: str) -> bool:
        return name in self._by_name

    def info(self, name: str) -> dict:
        """The ``info`` saved with part ``name``."""
        return dict(self._by_name[name].get("info", {}))

    def load(self, name: str) -> dict[str, np.ndarray]:
        """The arrays of part ``name``, exactly as saved; its file's SHA-256,
        size and arrays checked against the manifest (one line if they differ)."""
        e = self._by_name[name]
        try:
            data = (self.folder / e["file"]).read_bytes()
        except FileNotFoundError:
            raise self._bad_part(e, "is missing") from None
        except OSError as err:
            raise self._bad_part(e, f"cannot be read ({err.strerror or err})") from None
        if len(data) != e["bytes"]:
            raise self._bad_part(e, f"has {len(data):,} bytes, not {e['bytes']:,}")
        if hashlib.sha256(data).hexdigest() != e["sha256"]:
            raise self._bad_part(e, "is damaged (its SHA-256 differs from the manifest's)")
        names = [a[0] for a in e["arrays"]]
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as npz:
                if npz.files != [f"arr_{i}" for i in range(len(names))]:
                    raise ValueError("other arrays")
                arrays = {n: npz[f"arr_{i}"] for i, n in enumerate(names)}
        except Exception:  # noqa: BLE001 (a file that matched its SHA-256 and still fails to parse)
            raise self._bad_part(e, "does not hold the arrays the manifest lists") from None
        if _array_specs(arrays) != e["arrays"]:
            raise self._bad_part(e, "holds other arrays than the manifest lists")
        return arrays

    def summary(self) -> str:
        """``37 parts done, the last 'sweep 1 level 4'``, or ``no parts done``."""
        if not self._entries:
            return "no parts done"
        return f"{plural(len(self._entries), 'part')} done, the last {self._entries[-1]['name']!r}"

    # -- writing ---------------------------------------------------------------------

    def save(self, name: str, arrays: dict[str, np.ndarray], info: dict | None = None) -> None:
        """Save part ``name`` (its arrays and a small JSON ``info``): its file,
        then the manifest listing it, each written aside, flushed and renamed.
        A failed write leaves the checkpoint as it was (:class:`CheckpointError`)."""
        if not isinstance(name, str):
            raise TypeError(f"checkpoint: a part's name is text, not {type(name).__name__}")
        if name in self._by_name:
            raise ValueError(f"checkpoint: part {name!r} is already saved")
        arrays = {str(k): np.asarray(v) for k, v in arrays.items()}
        if any(a.dtype.hasobject for a in arrays.values()):
            raise TypeError("checkpoint: arrays of Python objects cannot be saved")
        info = json.loads(json.dumps(info or {}, allow_nan=False))
        buf = io.BytesIO()
        np.savez(buf, *arrays.values())  # arr_0, arr_1, ...: the names are the manifest's
        data = buf.getbuffer()  # no copy: a part may be large
        entry = {"name": name, "file": f"part-{len(self._entries) + 1:06d}.npz",
                 "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data),
                 "arrays": _array_specs(arrays), "info": info}
        entries = self._entries + [entry]
        try:
            atomic_write(self.folder / entry["file"], _write_synced(data))
            _sync_folder(self.folder)
            atomic_write(self.folder / MANIFEST, _write_synced(self._manifest_bytes(entries)))
            _sync_folder(self.folder)
        except OSError as e:
            kept = self.summary() if self._entries else "nothing saved before"
            raise CheckpointError(f"checkpoint {self.folder}: could not save part {name!r} "
                                  f"({e.strerror or e}); the checkpoint is kept as it was "
                                  f"({kept})") from None
        self._entries = entries
        self._by_name[name] = entry

    def _manifest_bytes(self, entries: list[dict]) -> bytes:
        doc = {"format": FORMAT, "version": VERSION, "what": self.what, "key": self.key}
        doc["key_sha256"] = fields_sha256(doc, ("key",))
        doc["parts"] = entries
        # one line per part: small, and a reader can follow it with a text viewer
        head = json.dumps({k: v for k, v in doc.items() if k != "parts"}, ensure_ascii=True)
        lines = ",\n".join(json.dumps(e, ensure_ascii=True, separators=(",", ":")) for e in entries)
        return (head[:-1] + ', "parts": [\n' + lines + "\n]}\n").encode()

    def close(self) -> None:
        """Let another process open the checkpoint (the lock also ends with the process)."""
        _unlock(self.folder)

    def remove(self) -> None:
        """Remove the checkpoint (after the final result is safely written): the
        manifest first, so a stop half-way leaves no manifest listing lost parts;
        then the parts; then the folder if nothing else is in it."""
        (self.folder / MANIFEST).unlink(missing_ok=True)
        _sync_folder(self.folder)
        for e in self._entries:
            (self.folder / e["file"]).unlink(missing_ok=True)
        self._entries = []
        self._by_name = {}
        _unlock(self.folder)
        if self.folder.is_dir():
            self._clear_leftovers()
            try:
                self.folder.rmdir()
            except OSError:
                pass  # the folder holds files of someone else's: they stay


class Steps:
    """The finished steps of a solve (a level, a part of the end of the round),
    grouped into checkpoint parts.

    A step's arrays are kept in memory and saved as one part with the steps
    before it once ``every`` seconds (:data:`EVERY`) have passed since the last part (and at
    :meth:`flush`, which a solve calls however it stops): a solve of many
    small steps does not spend its time writing, and a stop loses at most the
    step it was working on. ``ck`` None: nothing is kept (``get`` finds
    nothing, ``done`` forgets); a part that cannot be saved (a full disk) is
    said once on stderr, and the solve goes on keeping nothing. A resumed solve asks :meth:`get` for each step
    in the order it does them and takes the arrays saved instead of doing it.
    """

    def __init__(self, ck: "Checkpoint | None", every: float | None = None, clock=None):
        import time

        self.ck = ck
        # seconds of work between parts: TUTTO_SIM_CHECKPOINT_EVERY (0: every step)
        self.every = every if every is not None else float(
            os.environ.get("TUTTO_SIM_CHECKPOINT_EVERY", EVERY))
        self.clock = clock or time.monotonic
        self._last = self.clock()
        self._pending: list[tuple[str, dict, dict]] = []
        self._where: dict[str, str] = {}  # step -> part holding it
        self._part_name: str | None = None
        self._part: dict = {}
        if ck is not None:
            for part in ck.parts:
                for name in ck.info(part).get("steps", []):
                    self._where[name] = part
        self.resumed_steps = len(self._where)

    def get(self, name: str) -> tuple[dict, dict] | None:
        """``(arrays, info)`` of step ``name`` from the saved parts, or None."""
        part = self._where.get(name)
        if part is None or self.ck is None:
            return None
        if part != self._part_name:
            arrays = self.ck.load(part)
            steps = self.ck.info(part)["steps"]
            infos = self.ck.info(part).get("infos", [{}] * len(steps))
            self._part = {}
            for i, (step, info) in enumerate(zip(steps, infos)):
                prefix = f"{i}:"
                self._part[step] = ({k[len(prefix):]: v for k, v in arrays.items()
                                     if k.startswith(prefix)}, info)
            self._part_name = part
        return self._part[name]

    def done(self, name: str, arrays: dict, info: dict | None = None) -> None:
        """Step ``name`` is finished with these arrays (copied)."""
        if self.ck is None:
            return
        self._pending.append((name, {k: np.array(v, copy=True) for k, v in arrays.items()},
                              info or {}))
        if self.clock() - self._last >= self.every:
            self.flush()

    def flush(self) -> None:
        """Save the steps not saved yet as one part."""
        if self.ck is None or not self._pending:
            self._last = self.clock()
            return
        arrays = {f"{i}:{k}": v for i, (_, a, _) in enumerate(self._pending) for k, v in a.items()}
        steps = [name for name, _, _ in self._pending]
        info = {"steps": steps, "infos": [i for _, _, i in self._pending]}
        try:
            self.ck.save(steps[-1], arrays, info)
        except CheckpointError as e:
            # a full disk: the solve goes on, its result is what matters (and is rescued)
            from tutto_sim.core.cli import err

            err.print(f"{e}; the solve goes on without keeping its work", markup=False,
                      highlight=False, soft_wrap=True)
            self.ck = None
            self._pending = []
            return
        for name in steps:
            self._where[name] = steps[-1]
        self._pending = []
        self._last = self.clock()
