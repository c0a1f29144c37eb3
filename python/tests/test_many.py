"""hash_many against one-by-one hashing."""

import pytest

import arborhash

NAMES = sorted(arborhash.algorithms_available)


def messages(rng, count=300):
    lengths = [0, 1, 64, 65, 1023, 1024, 1025, 4096, 4097, 8192, 40000]
    return [rng.randbytes(rng.choice(lengths + [rng.randrange(20000)])) for _ in range(count)]


@pytest.mark.parametrize("name", NAMES)
def test_against_one_by_one(name, rng):
    msgs = messages(rng)
    assert arborhash.hash_many(msgs, name) == [arborhash.new(name, m).digest() for m in msgs]
    assert arborhash.hash_many([], name) == []


def test_equal_lengths_fill_lanes(rng):
    msgs = [rng.randbytes(4096) for _ in range(1000)]
    assert arborhash.hash_many(msgs) == [arborhash.blake3(m).digest() for m in msgs]


@pytest.mark.parametrize("name", ["blake2b", "blake2s", "blake2bp", "blake2sp"])
def test_blake2_parameters(name, rng):
    cls = getattr(arborhash, name)
    msgs = messages(rng, 100)
    for size in (1, 17, cls.MAX_DIGEST_SIZE):
        key = rng.randbytes(rng.randint(0, cls.MAX_KEY_SIZE))
        got = arborhash.hash_many(msgs, name, digest_size=size, key=key)
        assert got == [cls(m, digest_size=size, key=key).digest() for m in msgs]
    with pytest.raises(ValueError, match="digest_size.*must be between"):
        arborhash.hash_many(msgs, name, digest_size=0)
    with pytest.raises(ValueError, match="maximum key length"):
        arborhash.hash_many(msgs, name, key=bytes(cls.MAX_KEY_SIZE + 1))


def test_blake3_keyed_and_errors(rng):
    msgs = messages(rng, 100)
    key = rng.randbytes(32)
    assert arborhash.hash_many(msgs, key=key) == [
        arborhash.blake3(m, key=key).digest() for m in msgs
    ]
    with pytest.raises(ValueError, match="32-byte key"):
        arborhash.hash_many(msgs, key=b"short")
    assert arborhash.hash_many(msgs, digest_size=64) == [
        arborhash.blake3(m).digest(64) for m in msgs
    ]
    with pytest.raises(ValueError, match="unsupported hash type"):
        arborhash.hash_many(msgs, "md5")
    with pytest.raises(TypeError):
        arborhash.hash_many([b"ok", "str"])
    with pytest.raises(BufferError):
        arborhash.hash_many([memoryview(b"abcd")[::2]])
    # Any iterable of buffers.
    assert arborhash.hash_many(iter([b"a", bytearray(b"b")])) == [
        arborhash.blake3(b"a").digest(),
        arborhash.blake3(b"b").digest(),
    ]
