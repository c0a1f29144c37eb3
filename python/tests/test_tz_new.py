"""arborhash.tz against the shared vectors; new() and algorithms_available."""

import hashlib

import blake3 as peer
import pytest

import arborhash
from conftest import load_vectors, mod251


def test_tz_vectors():
    vectors = load_vectors("tz.json")
    for case in vectors["cases"]:
        if "input" in case:
            data = bytes.fromhex(case["input"])
        else:
            data = mod251(case["input_len"])
        assert arborhash.tz(data).hexdigest() == case["hash"]
        h = arborhash.tz()
        for i in range(0, len(data), 777):
            h.update(data[i : i + 777])
        assert h.hexdigest() == case["hash"]
        assert h.copy().digest() == h.digest()
    assert arborhash.tz().digest_size == 64 and arborhash.tz.name == "tz"
    assert "NOT A SECURE HASH" in arborhash.tz.__doc__


def test_new():
    assert arborhash.algorithms_available == {
        "blake3",
        "blake2b",
        "blake2s",
        "blake2bp",
        "blake2sp",
        "tz",
    }
    assert arborhash.new("blake3", b"abc").digest() == peer.blake3(b"abc").digest()
    assert (
        arborhash.new("blake2s", b"abc", digest_size=7, key=b"k").digest()
        == hashlib.blake2s(b"abc", digest_size=7, key=b"k").digest()
    )
    for name in arborhash.algorithms_available:
        assert arborhash.new(name).name == name
    with pytest.raises(ValueError, match="unsupported hash type"):
        arborhash.new("md5")
