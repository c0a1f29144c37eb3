"""BLAKE3 of huge files and of many files on a Dask cluster, exactly equal to ``b3sum``.

A BLAKE3 hash is a tree: a file cut into parts of ``part_size`` bytes (a power of two) is
hashed part by part on the workers, each task reading only its own byte range and sending back
the part's 32-byte chaining value, and the chaining values are merged into the file's hash.
The content never passes through the client.

- ``hash_file(path)``: the hash of one file, as bytes.
- ``hash_files(paths)``: many files at once, ``{path: hex}``; small files are batched into one
  task and hashed with ``arborhash.hash_many``, large ones split as in ``hash_file``.
- ``hash_tree(root)``: a directory tree, ``(manifest, digest)``, in the manifest format of
  ``arbor sum --manifest`` (see docs/dask.md).

Paths may be local, shared (NFS) or, for ``hash_file`` and ``hash_files``, any fsspec URL the
workers can read (``s3://``, ``gs://``), when fsspec and the filesystem's package are installed.
A worker that dies is replaced and its tasks rerun by Dask; a file whose size or modification
time changes while it is hashed raises ``FileChangedError``, naming the path and byte range.

Install with ``pip install "arborhash[dask]"`` (from a clone: ``pip install "./python[dask]"``).
"""

import os
import stat
import threading
import warnings

try:
    import distributed
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        'arborhash.dask needs Dask: pip install "arborhash[dask]" (or "./python[dask]")'
    ) from e

from . import blake3, hash_many, hazmat

__all__ = ["FileChangedError", "hash_file", "hash_files", "hash_tree"]

#: The default part size: 64 MiB, 16,384 tasks a TiB.
PART_SIZE = 64 * 2**20
#: Bytes read at a time inside a task.
_READ_SIZE = 4 * 2**20
#: Most chaining values one merge task takes when merging on the workers (a power of two).
_MERGE_FAN_IN = 64
#: Small files go into one task until it holds this many files (or ``part_size`` bytes).
_BATCH_FILES = 4096
#: Paths stat'ed by one task.
_STAT_BATCH = 1024


class FileChangedError(OSError):
    """A file's size or modification time changed while it was being hashed."""


def _client(client):
    if client is not None:
        return client
    try:
        return distributed.get_client()
    except ValueError:
        raise RuntimeError(
            "arborhash.dask needs a Dask client: pass client=..., or start one first, e.g.\n"
            "    from dask.distributed import Client, LocalCluster\n"
            "    client = Client(LocalCluster())"
        ) from None


def _check_part_size(part_size):
    if (
        not isinstance(part_size, int)
        or part_size < hazmat.CHUNK_LEN
        or part_size & (part_size - 1)
    ):
        raise ValueError(f"part_size must be a power of two of at least 1024, not {part_size!r}")


def _mode(key, derive_key_context):
    mode = {}
    if key is not None:
        mode["key"] = bytes(key)
    if derive_key_context is not None:
        mode["derive_key_context"] = derive_key_context
    blake3(**mode)  # the blake3 class's checks: a 32-byte key, not both
    return mode


# ---- on the workers -------------------------------------------------------------------------


def _is_url(path):
    return isinstance(path, str) and "://" in path


def _url_fs(path):
    try:
        import fsspec
    except ImportError as e:
        raise ImportError(f"{path}: URLs need fsspec (pip install fsspec and s3fs/gcsfs)") from e
    return fsspec.core.url_to_fs(path)


def _version(path):
    """The file's (size, modification stamp), which must not change while it is hashed."""
    if _is_url(path):
        fs, p = _url_fs(path)
        info = fs.info(p)
        stamp = next(
            (info[k] for k in ("mtime", "LastModified", "ETag", "created") if k in info), None
        )
        return info["size"], str(stamp)
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise OSError(f"{os.fsdecode(path)}: not a regular file")
    return st.st_size, st.st_mtime_ns


def _versions(paths):
    return [_version(p) for p in paths]


_buffers = threading.local()


def _buffer():
    """This thread's read buffer, kept from task to task: Dask's nanny sets
    ``MALLOC_TRIM_THRESHOLD_``, so a buffer freed after each task goes back to the system and the
    next one costs a page fault per 4 KiB (python/benchmarks/dask_bench.py, "one part task")."""
    if (buffer := getattr(_buffers, "buffer", None)) is None:
        buffer = _buffers.buffer = memoryview(bytearray(_READ_SIZE))
    return buffer


def _open(path):
    if _is_url(path):
        fs, p = _url_fs(path)
        return fs.open(p, "rb")
    return open(path, "rb", buffering=0)


def _changed(path, start, end, version, now):
    return FileChangedError(
        f"{os.fsdecode(path)}: bytes {start}-{end}: the file changed while it was hashed "
        f"(size and modification time were {version}, now {now})"
    )


def _read(path, start, end, version, sink):
    """Feeds bytes ``start``-``end`` of ``path`` to ``sink`` piece by piece; errors name the path
    and the byte range, and so does a change of the file's size or modification time."""
    version = tuple(version)  # a list after some serializations
    try:
        if (now := _version(path)) != version:
            raise _changed(path, start, end, version, now)
        view = _buffer()
        with _open(path) as f:
            f.seek(start)
            at = start
            while at < end:
                n = f.readinto(view[: min(len(view), end - at)])
                if not n:
                    raise _changed(path, start, end, version, _version(path))
                sink(view[:n])
                at += n
        if (now := _version(path)) != version:
            raise _changed(path, start, end, version, now)
    except FileChangedError:
        raise
    except OSError as e:
        raise OSError(f"{os.fsdecode(path)}: bytes {start}-{end}: {e}") from e


def _hash_part(path, start, end, version, mode):
    """The chaining value of bytes ``start``-``end`` of ``path``, a subtree of its BLAKE3 tree."""
    hasher = hazmat.subtree_hasher(start, **mode)
    _read(path, start, end, version, hasher.update)
    return hazmat.finalize_subtree(hasher)


def _hash_small(files, mode):
    """The hashes of several small files ``(path, version)``, read whole and hashed with
    ``hash_many`` (one call, the SIMD lanes filled across files)."""
    contents = []
    for path, version in files:
        data = bytearray()
        _read(path, 0, version[0], version, data.extend)
        contents.append(data)
    if "derive_key_context" in mode:
        return [blake3(c, **mode).digest() for c in contents]
    return hash_many(contents, key=mode.get("key"))


def _merge(cvs, mode, root):
    """Merges the chaining values of consecutive equal power-of-two parts (the last may be
    shorter) level by level, as BLAKE3's tree pairs them; ``root``: into the hash."""
    cvs = list(cvs)
    while len(cvs) > 2 or (len(cvs) == 2 and not root):
        pairs = [cvs[i : i + 2] for i in range(0, len(cvs), 2)]
        cvs = [hazmat.merge_subtrees_non_root(*p, **mode) if len(p) == 2 else p[0] for p in pairs]
    return hazmat.merge_subtrees_root(*cvs, **mode) if root else cvs[0]


def _walk(root):
    """Every regular file below ``root``: ``(relative path bytes, version)`` and the
    warnings for what is skipped (symbolic links, special files)."""
    root = os.fsencode(root)
    entries, skipped = [], []
    stack = [b""]
    while stack:
        rel_dir = stack.pop()
        directory = os.path.join(root, rel_dir) if rel_dir else root
        try:
            with os.scandir(directory) as it:
                found = list(it)
        except OSError as e:
            raise OSError(f"{os.fsdecode(directory)}: {e.strerror or e}") from e
        for entry in found:
            rel = rel_dir + b"/" + entry.name if rel_dir else entry.name
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError as e:
                raise OSError(f"{os.fsdecode(entry.path)}: {e.strerror or e}") from e
            if stat.S_ISLNK(st.st_mode):
                skipped.append(f"{os.fsdecode(entry.path)}: symbolic link, not followed")
            elif stat.S_ISDIR(st.st_mode):
                stack.append(rel)
            elif stat.S_ISREG(st.st_mode):
                entries.append((rel, (st.st_size, st.st_mtime_ns)))
            else:
                skipped.append(f"{os.fsdecode(entry.path)}: not a regular file, skipped")
    return entries, skipped


# ---- on the client --------------------------------------------------------------------------


def _submit(client, files, part_size, mode, merge):
    """Submits the tasks hashing ``files`` (``(path, version)``); returns a function that
    waits for them and gives the digests (bytes) in order."""
    parts = {}  # file index -> futures of its parts' chaining values
    whole = {}  # file index -> (future of a batch, index in the batch)
    batch, batch_bytes, batches = [], 0, []

    def flush():
        nonlocal batch, batch_bytes
        if batch:
            future = client.submit(_hash_small, [files[i] for i in batch], mode, pure=False)
            batches.append(future)
            for j, i in enumerate(batch):
                whole[i] = (future, j)
        batch, batch_bytes = [], 0

    for i, (path, version) in enumerate(files):
        size = version[0]
        if size <= part_size:
            if batch_bytes + size > part_size:
                flush()
            batch.append(i)
            batch_bytes += size
            if len(batch) >= _BATCH_FILES:
                flush()
        else:
            starts = range(0, size, part_size)
            parts[i] = client.map(
                _hash_part,
                [path] * len(starts),
                starts,
                [min(s + part_size, size) for s in starts],
                [version] * len(starts),
                [mode] * len(starts),
                pure=False,
            )
    flush()

    def merge_on_workers(futures):
        while len(futures) > _MERGE_FAN_IN:
            futures = [
                client.submit(_merge, futures[i : i + _MERGE_FAN_IN], mode, False, pure=False)
                for i in range(0, len(futures), _MERGE_FAN_IN)
            ]
        return client.submit(_merge, futures, mode, True, pure=False)

    if merge == "workers":
        roots = {i: merge_on_workers(futures) for i, futures in parts.items()}
    elif merge != "client":
        raise ValueError(f"merge must be 'client' or 'workers', not {merge!r}")

    def results():
        # One gather for all the futures: each call waits for a round trip to the scheduler.
        done = roots if merge == "workers" else parts
        batch_values, done_values = client.gather([batches, list(done.values())])
        digests = [None] * len(files)
        batch_results = dict(zip(batches, batch_values, strict=True))
        for i, (future, j) in whole.items():
            digests[i] = batch_results[future][j]
        for i, value in zip(done, done_values, strict=True):
            digests[i] = value if merge == "workers" else _merge(value, mode, True)
        return digests

    return results


def _stat(client, paths):
    batches = [paths[i : i + _STAT_BATCH] for i in range(0, len(paths), _STAT_BATCH)]
    versions = client.gather(client.map(_versions, batches, pure=False))
    return [v for batch in versions for v in batch]


def _version_to_split(client, path):
    """The version of one file, to cut it into parts: read by the client itself when it sees
    the path as a regular file (a local or shared file system), which saves a round trip to a
    worker; by a worker otherwise (URLs, paths only the workers see). The part tasks compare it
    with what they see, so a client that sees another file under the path gets an error, never
    a wrong hash."""
    if not _is_url(path):
        try:
            return _version(path)
        except OSError:
            pass
    return _stat(client, [path])[0]


def hash_file(
    path,
    *,
    client=None,
    part_size=PART_SIZE,
    key=None,
    derive_key_context=None,
    merge="client",
):
    """The BLAKE3 hash (32 bytes) of the file at ``path``, hashed on the Dask cluster: equal to
    ``b3sum``'s (and to ``arborhash.blake3(...).digest()`` of the content, with ``key`` or
    ``derive_key_context`` as there).

    Each task reads and hashes bytes ``[i * part_size, (i + 1) * part_size)`` (``part_size``: a
    power of two of at least 1024) and returns 32 bytes; they are merged into the hash on the
    client (``merge="client"``) or by merge tasks on the workers (``merge="workers"``). ``path``
    is read by the workers: a local path they share with the client, an NFS path, or an fsspec
    URL. ``client``: the Dask client; by default the current one.
    """
    client = _client(client)
    _check_part_size(part_size)
    mode = _mode(key, derive_key_context)
    path = os.fspath(path)
    return _submit(client, [(path, _version_to_split(client, path))], part_size, mode, merge)()[0]


def hash_files(paths, *, client=None, part_size=PART_SIZE, key=None, derive_key_context=None):
    """The BLAKE3 hashes of many files, ``{path: hex digest}`` (keys: the paths as given, as
    ``os.fspath`` makes them). Files larger than ``part_size`` are split as in ``hash_file``;
    smaller ones are batched, up to ``part_size`` bytes or 4096 files a task, and hashed there
    with ``arborhash.hash_many``.
    """
    client = _client(client)
    _check_part_size(part_size)
    mode = _mode(key, derive_key_context)
    paths = [os.fspath(p) for p in paths]
    files = list(zip(paths, _stat(client, paths), strict=True))
    digests = _submit(client, files, part_size, mode, "client")()
    return {p: d.hex() for p, d in zip(paths, digests, strict=True)}


def _manifest_name(rel):
    """A manifest line's name, and whether it needed coreutils' escaping."""
    if not any(c in rel for c in (b"\\", b"\n", b"\r")):
        return rel, False
    return rel.replace(b"\\", b"\\\\").replace(b"\n", b"\\n").replace(b"\r", b"\\r"), True


def manifest_bytes(entries):
    """The manifest text of ``{relative path bytes: hex digest}``: sorted by the raw bytes of the
    path, one ``b3sum`` line each (``HEX  NAME``, escaped as coreutils does)."""
    lines = []
    for rel in sorted(entries):
        name, escaped = _manifest_name(rel)
        prefix = b"\\" if escaped else b""
        lines.append(prefix + entries[rel].encode() + b"  " + name + b"\n")
    return b"".join(lines)


def hash_tree(root, *, client=None, part_size=PART_SIZE):
    """Hashes every regular file below the directory ``root`` (local or shared, read by the
    workers) and returns ``(manifest, digest)``: ``manifest`` maps each file's path relative to
    ``root`` (``/``-separated, ``os.fsdecode``d) to its BLAKE3 hex digest, and ``digest`` is the
    BLAKE3 hex digest of the manifest's text, the same text as ``arbor sum --manifest ROOT``
    prints (a ``b3sum`` check list; see docs/dask.md). Symbolic links and special files are
    skipped with a warning.
    """
    client = _client(client)
    _check_part_size(part_size)
    entries, skipped = client.submit(_walk, os.fspath(root), pure=False).result()
    for message in skipped:
        warnings.warn(message, stacklevel=2)
    root_bytes = os.fsencode(root)
    files = [(os.path.join(root_bytes, rel), version) for rel, version in entries]
    digests = _submit(client, files, part_size, {}, "client")()
    by_name = {rel: d.hex() for (rel, _), d in zip(entries, digests, strict=True)}
    text = manifest_bytes(by_name)
    manifest = {os.fsdecode(rel): by_name[rel] for rel in sorted(by_name)}
    return manifest, blake3(text).hexdigest()
