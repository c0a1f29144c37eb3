"""Arguments at and past their limits, and the peers' rules for positions, keywords and None:
each call ends as the peer's does (the same exception type, or the same digest), and nothing
panics or aborts the process. The peers: the running interpreter's hashlib for BLAKE2 and the
blake3 package for BLAKE3."""

import hashlib
import importlib.metadata
import inspect
import sys

import blake3 as peer_blake3
import pytest

import arborhash
from arborhash import hazmat

PAIRS = [(arborhash.blake2b, hashlib.blake2b), (arborhash.blake2s, hashlib.blake2s)]
I32 = 2**31
U64 = 2**64


def outcome(call):
    """The digest `call()` gives, or the type of the exception it raises (never a
    BaseException such as PyO3's PanicException, which is not an Exception)."""
    try:
        return call().digest()
    except Exception as e:
        return type(e)


# (positional arguments, keyword arguments) of hashlib's BLAKE2 constructors.
BLAKE2_CALLS = [
    ((), {"data": b"abc"}),
    ((), {"string": b"abc"}),
    ((), {"data": b"a", "string": b"b"}),
    ((b"a",), {"data": b"b"}),
    ((b"a",), {"string": b"b"}),
    ((b"a", b"b"), {}),
    ((None,), {}),
    ((), {"data": None}),
    ((), {"string": None}),
    (("str",), {}),
    ((), {"foo": 1}),
    ((), {"key": None}),
    ((), {"salt": None}),
    ((), {"person": None}),
    ((), {"digest_size": None}),
    ((), {"fanout": None}),
    ((), {"depth": None}),
    ((), {"leaf_size": None}),
    ((), {"node_offset": None}),
    ((), {"node_depth": None}),
    ((), {"inner_size": None}),
    ((), {"last_node": None}),
    ((), {"usedforsecurity": None}),
    ((), {"digest_size": 1.0}),
    ((), {"leaf_size": 1.0}),
    ((), {"key": "str"}),
] + [
    ((b"abc",), {name: value})
    for name in ("digest_size", "fanout", "depth", "node_depth", "inner_size")
    for value in (0, 1, 255, 256, I32 - 1, I32, -I32, -I32 - 1, 2**100, -(2**100))
] + [
    ((b"abc",), {name: value})
    for name in ("leaf_size", "node_offset")
    for value in (
        0, 2**32 - 1, 2**32, 2**48 - 1, 2**48, U64 - 1, U64, 2**200, -1, -(2**200)
    )
]  # fmt: skip


@pytest.mark.parametrize("ours, theirs", PAIRS, ids=["blake2b", "blake2s"])
@pytest.mark.parametrize("args, kwargs", BLAKE2_CALLS, ids=repr)
def test_blake2_calls_as_hashlib(ours, theirs, args, kwargs):
    want = outcome(lambda: theirs(*args, **kwargs))
    assert outcome(lambda: ours(*args, **kwargs)) == want


@pytest.mark.parametrize("ours, theirs", PAIRS, ids=["blake2b", "blake2s"])
def test_blake2_update_as_hashlib(ours, theirs):
    for call in (lambda h: h.update(data=b"x"), lambda h: h.update(None), lambda h: h.update()):
        with pytest.raises(TypeError):
            call(theirs())
        with pytest.raises(TypeError):
            call(ours())


@pytest.mark.skipif(sys.version_info >= (3, 14), reason="3.14's hashlib has another signature")
@pytest.mark.parametrize("ours, theirs", PAIRS, ids=["blake2b", "blake2s"])
def test_blake2_signatures_as_hashlib(ours, theirs):
    assert inspect.signature(ours) == inspect.signature(theirs)
    assert inspect.signature(ours.update) == inspect.signature(theirs.update)


def test_blake3_signatures_as_the_package():
    for name in ("update", "update_mmap", "digest", "hexdigest", "copy", "reset"):
        ours, theirs = getattr(arborhash.blake3, name), getattr(peer_blake3.blake3, name)
        assert inspect.signature(ours) == inspect.signature(theirs), name
    assert inspect.signature(arborhash.blake3) == inspect.signature(peer_blake3.blake3)


def test_positional_only_data():
    for cls in (arborhash.blake3, arborhash.blake2bp, arborhash.blake2sp, arborhash.tz):
        with pytest.raises(TypeError):
            cls(data=b"")
        with pytest.raises(TypeError):
            cls().update(data=b"")
    for cls in (arborhash.blake2bp, arborhash.blake2sp, arborhash.tz):
        with pytest.raises(TypeError):
            cls(None)


# Lengths of BLAKE3 output, beside those the blake3 package's suite tries.
LENGTHS = [0, 1, 32, 65, sys.maxsize // 2, sys.maxsize // 2 + 1, sys.maxsize, sys.maxsize + 1,
           2**40, 2**64 - 1, 2**64, -1]  # fmt: skip


@pytest.mark.parametrize("length", LENGTHS)
@pytest.mark.parametrize("method", ["digest", "hexdigest"])
def test_blake3_output_lengths_as_the_package(method, length):
    def run(cls):
        try:
            return getattr(cls(b"abc"), method)(length)
        except Exception as e:
            return type(e)

    assert run(arborhash.blake3) == run(peer_blake3.blake3)


@pytest.mark.parametrize("seek", [0, 63, 2**64 - 65, 2**64 - 1, 2**64, -1])
def test_blake3_seek_as_the_package(seek):
    def run(cls):
        try:
            return cls(b"abc").digest(100, seek=seek)
        except Exception as e:
            return type(e)

    assert run(arborhash.blake3) == run(peer_blake3.blake3)


def test_blake3_max_threads():
    data = bytes(range(256)) * 8192
    want = arborhash.blake3(data).digest()
    # Above the number of cores means one thread a core (the pool is not made that large).
    for n in (1, 2, 3, arborhash.blake3.AUTO, 2**40, 2**63 - 1):
        assert arborhash.blake3(data, max_threads=n).digest() == want, n
    for n in (0, -2, -(2**63)):
        with pytest.raises(ValueError):
            arborhash.blake3(max_threads=n)
    for n in (2**63, -(2**63) - 1):
        with pytest.raises(OverflowError):
            arborhash.blake3(max_threads=n)


def test_version():
    assert arborhash.__version__ == importlib.metadata.version("arborhash")


@pytest.mark.parametrize("size", [0, 1, 16, 31, 32, 33, 63, 64, 65, 100, 1000, 5000])
def test_hash_many_blake3_digest_size(rng, size):
    messages = [rng.randbytes(rng.choice([0, 1, 64, 1024, 1025, 5000])) for _ in range(20)]
    key = rng.randbytes(32)
    assert arborhash.hash_many(messages, digest_size=size) == [
        arborhash.blake3(m).digest(size) for m in messages
    ]
    assert arborhash.hash_many(messages, "blake3", digest_size=size, key=key) == [
        arborhash.blake3(m, key=key).digest(size) for m in messages
    ]


def test_hash_many_limits():
    assert arborhash.hash_many([]) == []
    assert arborhash.hash_many([], digest_size=2**40) == []
    for size, error in [
        (-1, OverflowError),
        (2**40, MemoryError),
        (sys.maxsize // 2, OverflowError),  # four of them overflow isize
        (sys.maxsize + 1, OverflowError),
        (2**64, OverflowError),
    ]:
        with pytest.raises(error):
            arborhash.hash_many([b"a"] * 4, digest_size=size)
    for name in ("blake2b", "blake2s", "blake2bp", "blake2sp"):
        for size, error in [(0, ValueError), (65, ValueError), (I32, OverflowError),
                            (-I32 - 1, OverflowError), (2**64, OverflowError)]:  # fmt: skip
            with pytest.raises(error):
                arborhash.hash_many([b"a"], name, digest_size=size)
    with pytest.raises(ValueError):
        arborhash.hash_many([b"a"], "tz", digest_size=64)


def test_hazmat_limits():
    cv = hazmat.hash_subtree(bytes(1024), 0)
    assert len(hazmat.merge_subtrees_root_xof(cv, cv, 0)) == 0
    for length, error in [(2**40, MemoryError), (sys.maxsize + 1, OverflowError),
                          (2**64, OverflowError), (-1, OverflowError)]:  # fmt: skip
        with pytest.raises(error):
            hazmat.merge_subtrees_root_xof(cv, cv, length)
    last = hazmat.merge_subtrees_root_xof(cv, cv, 64, seek=2**64 - 64)
    assert len(last) == 64
    with pytest.raises(OverflowError):
        hazmat.merge_subtrees_root_xof(cv, cv, 1, seek=2**64)
    top = U64 - 1024
    assert hazmat.max_subtree_len(top) == 1024
    assert len(hazmat.hash_subtree(bytes(1024), top)) == 32
    with pytest.raises(hazmat.SubtreeError):
        hazmat.hash_subtree(bytes(1025), top)
    with pytest.raises(hazmat.SubtreeError):
        hazmat.hash_subtree(b"x", U64 - 1)
    h = hazmat.subtree_hasher(top)
    h.update(bytes(2000))
    with pytest.raises(hazmat.SubtreeError):
        hazmat.finalize_subtree(h)
    assert hazmat.left_subtree_len(U64 - 1) == 2**63
    for f in (hazmat.left_subtree_len, hazmat.max_subtree_len, hazmat.subtree_hasher):
        for value in (U64, -1):
            with pytest.raises(OverflowError):
                f(value)
    with pytest.raises(ValueError):
        hazmat.left_subtree_len(0)
