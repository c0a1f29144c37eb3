"""arborhash.blake2b / blake2s against hashlib (every parameter, the errors), and BLAKE2bp /
BLAKE2sp against the shared vectors."""

import hashlib

import pytest

import arborhash
from conftest import load_vectors

PAIRS = [(arborhash.blake2b, hashlib.blake2b), (arborhash.blake2s, hashlib.blake2s)]


def random_params(rng, cls):
    maxd = cls.MAX_DIGEST_SIZE
    params = {
        "digest_size": rng.randint(1, maxd),
        "key": rng.randbytes(rng.randint(0, maxd)),
        "salt": rng.randbytes(rng.randint(0, cls.SALT_SIZE)),
        "person": rng.randbytes(rng.randint(0, cls.PERSON_SIZE)),
        "fanout": rng.randint(0, 255),
        "depth": rng.randint(1, 255),
        "leaf_size": rng.randint(0, 2**32 - 1),
        "node_offset": rng.randint(0, 2**64 - 1 if maxd == 64 else 2**48 - 1),
        "node_depth": rng.randint(0, 255),
        "inner_size": rng.randint(0, maxd),
        "last_node": rng.random() < 0.5,
        "usedforsecurity": rng.random() < 0.5,
    }
    # Each parameter also left out now and then, for its default.
    return {k: v for k, v in params.items() if rng.random() < 0.8}


@pytest.mark.parametrize("ours, theirs", PAIRS, ids=["blake2b", "blake2s"])
def test_every_parameter_random(ours, theirs, rng):
    data = rng.randbytes(3000)
    for _ in range(300):
        params = random_params(rng, ours)
        n = rng.choice([0, 1, 63, 64, 65, 127, 128, 129, 256, 1000, 2048, 3000])
        a, b = ours(data[:n], **params), theirs(data[:n], **params)
        assert a.digest() == b.digest(), params
        assert a.hexdigest() == b.hexdigest()
        assert a.digest_size == b.digest_size
        split = rng.randint(0, n)
        c = ours(**params)
        c.update(data[:split])
        d = c.copy()
        c.update(data[split:n])
        assert c.digest() == b.digest()
        d.update(data[split:n])
        assert d.digest() == b.digest()


@pytest.mark.parametrize("ours, theirs", PAIRS, ids=["blake2b", "blake2s"])
def test_attributes(ours, theirs):
    for name in ("name", "block_size", "digest_size"):
        assert getattr(ours(), name) == getattr(theirs(), name)
    for name in ("MAX_DIGEST_SIZE", "MAX_KEY_SIZE", "SALT_SIZE", "PERSON_SIZE"):
        assert getattr(ours, name) == getattr(theirs, name)
    assert ours().update(b"x") is None


def out_of_range(maxd, salt):
    return [
        {"digest_size": 0},
        {"digest_size": -1},
        {"digest_size": maxd + 1},
        {"digest_size": 2**40},
        {"digest_size": 1.5},
        {"key": bytes(maxd + 1)},
        {"key": "str"},
        {"salt": bytes(salt + 1)},
        {"person": bytes(salt + 1)},
        {"fanout": -1},
        {"fanout": 256},
        {"depth": 0},
        {"depth": 256},
        {"leaf_size": -1},
        {"leaf_size": 2**32},
        {"node_offset": -1},
        {"node_offset": 2**48},
        {"node_offset": 2**64},
        {"node_depth": -1},
        {"node_depth": 256},
        {"inner_size": -1},
        {"inner_size": maxd + 1},
    ]


@pytest.mark.parametrize("ours, theirs", PAIRS, ids=["blake2b", "blake2s"])
def test_out_of_range_errors_match_hashlib(ours, theirs):
    for kwargs in out_of_range(ours.MAX_DIGEST_SIZE, ours.SALT_SIZE):
        try:
            theirs(**kwargs)
        except Exception as e:
            expected = e
        else:
            ours(**kwargs)  # accepted by hashlib (node_offset 2**48 for blake2b)
            continue
        with pytest.raises(type(expected)) as raised:
            ours(**kwargs)
        if isinstance(expected, ValueError):
            assert str(raised.value) == str(expected), kwargs
    with pytest.raises(TypeError):
        ours().update("str")


@pytest.mark.parametrize(
    "cls, name, maxd", [(arborhash.blake2bp, "blake2bp", 64), (arborhash.blake2sp, "blake2sp", 32)]
)
def test_parallel_variants_vectors(cls, name, maxd):
    cases = [c for c in load_vectors("blake2-kat.json") if c["hash"] == name]
    assert len(cases) == 512
    for case in cases:
        data = bytes.fromhex(case["in"])
        key = bytes.fromhex(case["key"])
        assert cls(data, key=key).hexdigest() == case["out"]
        h = cls(key=key)
        h.update(data[:100])
        h.copy().update(b"ignored")
        h.update(data[100:])
        assert h.hexdigest() == case["out"]
    assert cls.name == name and cls().digest_size == maxd
    assert len(cls(b"x", digest_size=5).digest()) == 5
    with pytest.raises(ValueError, match="digest_size.*must be between 1 and"):
        cls(digest_size=maxd + 1)
    with pytest.raises(ValueError, match="maximum key length is"):
        cls(key=bytes(maxd + 1))


def test_sequential_vectors():
    for case in load_vectors("blake2-kat.json"):
        cls = {"blake2b": arborhash.blake2b, "blake2s": arborhash.blake2s}.get(case["hash"])
        if cls:
            key = bytes.fromhex(case["key"])
            assert cls(bytes.fromhex(case["in"]), key=key).hexdigest() == case["out"]
