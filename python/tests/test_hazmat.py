"""arborhash.hazmat: subtrees merged into whole-input hashes of the blake3 package, and the
crate's checks."""

import blake3 as peer
import pytest

from arborhash import blake3, hazmat
from conftest import mod251

CHUNK = hazmat.CHUNK_LEN
KEY = bytes(range(32))
MODES = [{}, {"key": KEY}, {"derive_key_context": "arborhash hazmat tests"}]


def root_hash(data, mode):
    """The hash of `data` from its root's two children, each split again down to chunks."""
    if len(data) <= CHUNK:
        return blake3(data, **mode).digest()
    split = hazmat.left_subtree_len(len(data))
    left = split_cv(data[:split], 0, mode)
    right = split_cv(data[split:], split, mode)
    return hazmat.merge_subtrees_root(left, right, **mode)


def split_cv(data, offset, mode):
    """The chaining value of a subtree, itself split into two merged halves when it can be."""
    if len(data) <= CHUNK:
        return hazmat.hash_subtree(data, offset, **mode)
    split = hazmat.left_subtree_len(len(data))
    left = split_cv(data[:split], offset, mode)
    right = split_cv(data[split:], offset + split, mode)
    merged = hazmat.merge_subtrees_non_root(left, right, **mode)
    assert merged == hazmat.hash_subtree(data, offset, **mode)
    return merged


@pytest.mark.parametrize("mode", MODES, ids=["hash", "keyed", "derive_key"])
def test_split_and_merge_equals_whole(mode):
    data = mod251(40 * CHUNK)
    for n in [
        1025,
        1100,
        2048,
        2049,
        3 * CHUNK + 5,
        4 * CHUNK,
        4 * CHUNK + 1,
        31 * CHUNK + 7,
        40 * CHUNK,
    ]:
        assert root_hash(data[:n], mode) == peer.blake3(data[:n], **mode).digest()


@pytest.mark.parametrize("mode", MODES, ids=["hash", "keyed", "derive_key"])
def test_parts_of_a_power_of_two(mode, rng):
    """Equal parts of 2^k chunks merged level by level, as arborhash.dask does."""
    for part in (CHUNK, 2 * CHUNK, 8 * CHUNK):
        for n in (part + 1, 2 * part, 5 * part + 17, 8 * part):
            data = rng.randbytes(n)
            cvs = [hazmat.hash_subtree(data[i : i + part], i, **mode) for i in range(0, n, part)]
            while len(cvs) > 2:
                pairs = [cvs[i : i + 2] for i in range(0, len(cvs), 2)]
                cvs = [
                    hazmat.merge_subtrees_non_root(*p, **mode) if len(p) == 2 else p[0]
                    for p in pairs
                ]
            root = hazmat.merge_subtrees_root(*cvs, **mode)
            assert root == peer.blake3(data, **mode).digest()
            xof = hazmat.merge_subtrees_root_xof(*cvs, 100, seek=7, **mode)
            assert xof == peer.blake3(data, **mode).digest(100, seek=7)


def test_incremental_subtree_hasher(rng):
    data = rng.randbytes(8 * CHUNK)
    for offset in (0, 8 * CHUNK, 24 * CHUNK):
        h = hazmat.subtree_hasher(offset, key=KEY)
        for i in range(0, len(data), 999):
            h.update(data[i : i + 999])
        assert hazmat.finalize_subtree(h) == hazmat.hash_subtree(data, offset, key=KEY)


def test_checks_and_errors():
    assert hazmat.max_subtree_len(0) is None
    assert hazmat.max_subtree_len(CHUNK) == CHUNK
    assert hazmat.max_subtree_len(12 * CHUNK) == 4 * CHUNK
    with pytest.raises(hazmat.SubtreeError, match="not a multiple of the chunk length"):
        hazmat.max_subtree_len(5)
    assert hazmat.left_subtree_len(1025) == 1024
    assert hazmat.left_subtree_len(4 * CHUNK) == 2 * CHUNK
    assert hazmat.left_subtree_len(4 * CHUNK + 1) == 4 * CHUNK
    with pytest.raises(ValueError, match="must exceed CHUNK_LEN"):
        hazmat.left_subtree_len(1024)
    assert issubclass(hazmat.SubtreeError, ValueError)
    with pytest.raises(hazmat.SubtreeError, match="not a multiple of the chunk length"):
        hazmat.hash_subtree(b"x", 5)
    with pytest.raises(hazmat.SubtreeError, match="at least one byte"):
        hazmat.hash_subtree(b"", 0)
    with pytest.raises(hazmat.SubtreeError, match="holds at most 1024 bytes, not 1025"):
        hazmat.hash_subtree(bytes(1025), 1024)
    with pytest.raises(hazmat.SubtreeError):
        hazmat.subtree_hasher(100)
    h = hazmat.subtree_hasher(CHUNK)
    h.update(bytes(CHUNK + 1))
    with pytest.raises(hazmat.SubtreeError):
        hazmat.finalize_subtree(h)
    with pytest.raises(ValueError, match="has no digest"):
        h.digest()
    with pytest.raises(ValueError, match="not a subtree hasher"):
        hazmat.finalize_subtree(blake3())
    with pytest.raises(ValueError, match="32 bytes"):
        hazmat.merge_subtrees_root(bytes(31), bytes(32))
    with pytest.raises(ValueError, match="at the same time"):
        hazmat.hash_subtree(b"x", key=KEY, derive_key_context="c")
