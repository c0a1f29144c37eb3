"""arborhash.blake3 against the blake3 package (the oracle) and the shared vectors."""

import blake3 as peer
import pytest

import arborhash
from conftest import load_vectors, mod251

CHUNK = 1024
# Lengths around block, chunk and subtree boundaries, and beyond the 1 MiB where updates
# with several threads split the input.
LENGTHS = sorted(
    {0, 1, 63, 64, 65}
    | {k * CHUNK + d for k in (1, 2, 3, 4, 5, 8, 16, 31, 32, 33, 64) for d in (-1, 0, 1)}
    | {1 << 20, (1 << 20) + 1, 3 * (1 << 20) + 12345}
)
KEY = bytes(range(32))
CONTEXT = "arborhash 2026-11-26 python tests"


def modes():
    return [{}, {"key": KEY}, {"derive_key_context": CONTEXT}]


@pytest.mark.parametrize("mode", modes(), ids=["hash", "keyed", "derive_key"])
def test_lengths_and_modes(mode):
    data = mod251(LENGTHS[-1])
    for n in LENGTHS:
        ours = arborhash.blake3(data[:n], **mode)
        theirs = peer.blake3(data[:n], **mode)
        assert ours.digest() == theirs.digest(), n
        assert ours.hexdigest() == theirs.hexdigest(), n


def test_random_lengths_splits_and_seek(rng):
    data = rng.randbytes(70_000)
    for _ in range(200):
        n = rng.randrange(len(data))
        mode = rng.choice(modes())
        ours = arborhash.blake3(**mode)
        at = 0
        while at < n:
            step = rng.choice([1, 7, 64, 1000, 1024, 5000, n])
            ours.update(data[at : at + step][: n - at])
            at = min(at + step, n)
        theirs = peer.blake3(data[:n], **mode)
        length = rng.choice([0, 1, 31, 32, 33, 64, 65, 200, 1500])
        seek = rng.choice([0, 1, 63, 64, 1000, 2**32 + 5, 2**64 - 1 - length])
        assert ours.digest(length, seek=seek) == theirs.digest(length, seek=seek)
        assert ours.hexdigest(length, seek=seek) == theirs.hexdigest(length, seek=seek)


def test_vectors():
    vectors = load_vectors("blake3.json")
    key = vectors["key"].encode()
    context = vectors["context_string"]
    for case in vectors["cases"]:
        data = mod251(case["input_len"])
        n = len(case["hash"]) // 2
        assert arborhash.blake3(data).hexdigest(n) == case["hash"]
        assert arborhash.blake3(data, key=key).hexdigest(n) == case["keyed_hash"]
        assert arborhash.blake3(data, derive_key_context=context).hexdigest(n) == case["derive_key"]


def test_update_chains_and_copy_and_reset():
    h = arborhash.blake3(b"foo", key=KEY)
    assert h.update(b"bar") is h
    h.update(b"baz").update(b"!")
    c = h.copy()
    assert c is not h
    c.update(b"more")
    assert h.digest() == peer.blake3(b"foobarbaz!", key=KEY).digest()
    assert c.digest() == peer.blake3(b"foobarbaz!more", key=KEY).digest()
    assert h.reset() is None
    assert h.digest() == peer.blake3(key=KEY).digest()
    h.update(b"x")
    assert h.digest() == peer.blake3(b"x", key=KEY).digest()


def test_attributes():
    for obj in (arborhash.blake3, arborhash.blake3()):
        assert obj.name == "blake3"
        assert obj.digest_size == 32
        assert obj.block_size == 64
        assert obj.key_size == 32
        assert obj.AUTO == peer.blake3.AUTO == -1


@pytest.mark.parametrize("threads", [1, 2, 3, arborhash.blake3.AUTO])
def test_max_threads(threads):
    data = mod251(5 * (1 << 20) + 777)
    assert arborhash.blake3(data, max_threads=threads).digest() == peer.blake3(data).digest()
    h = arborhash.blake3(key=KEY, max_threads=threads)
    h.update(data[:3]).update(data[3:])
    assert h.digest() == peer.blake3(data, key=KEY).digest()


def test_errors_match_the_package():
    cases = [
        {"max_threads": 0},
        {"max_threads": -2},
        {"key": b"x" * 31},
        {"key": b"x" * 33},
        {"key": KEY, "derive_key_context": "c"},
        {"derive_key_context": b"bytes"},
        {"key": "x" * 32},
    ]
    for kwargs in cases:
        with pytest.raises(Exception) as theirs:
            peer.blake3(**kwargs)
        with pytest.raises(theirs.type):
            arborhash.blake3(**kwargs)
    for bad in ("str", 5, None):
        with pytest.raises(TypeError):
            arborhash.blake3().update(bad)
    with pytest.raises(OverflowError):
        arborhash.blake3().digest(-1)
    with pytest.raises(OverflowError):
        arborhash.blake3().digest(seek=-1)
    with pytest.raises(TypeError):
        arborhash.blake3(data=b"positional only")


def test_update_mmap(tmp_path):
    for n in (0, 1, 16 * 1024 - 1, 16 * 1024, 3 * (1 << 20) + 5):
        path = tmp_path / f"f{n}"
        data = mod251(n)
        path.write_bytes(data)
        for threads in (1, arborhash.blake3.AUTO):
            h = arborhash.blake3(b"prefix", max_threads=threads)
            assert h.update_mmap(path) is h
            h.update_mmap(str(path))
            assert h.digest() == peer.blake3(b"prefix" + data + data).digest()
    with pytest.raises(FileNotFoundError):
        arborhash.blake3().update_mmap(tmp_path / "missing")
    with pytest.raises(IsADirectoryError):
        arborhash.blake3().update_mmap(tmp_path)


def test_hashers_reused_after_drop_start_clean():
    """Dropped default-mode hashers are reused; keyed, derive-key and subtree ones never."""
    from arborhash import hazmat

    data = mod251(20_000)
    for _ in range(3):
        for mode in modes():
            h = arborhash.blake3(data, **mode)
            h.update(b"tail")
            assert h.digest() == peer.blake3(data + b"tail", **mode).digest()
            del h
        s = hazmat.subtree_hasher(8 * CHUNK)
        s.update(data[: 8 * CHUNK])
        hazmat.finalize_subtree(s)
        del s
        for n in (4097, 8192, 20_000):
            assert arborhash.blake3(data[:n]).digest() == peer.blake3(data[:n]).digest()
