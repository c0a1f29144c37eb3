"""BLAKE3 subtrees: parts of one input hashed apart (on other threads, processes or machines)
and merged into exactly the hash of the whole, as in the Rust crate's ``blake3::hazmat``.

BLAKE3's tree is fixed by the input length: the left child of every parent holds the largest
power of two of whole 1024-byte chunks that leaves at least one byte for the right. A part can
be hashed on its own only if it is one of those subtrees: it starts at a multiple of
``CHUNK_LEN``, holds at most ``max_subtree_len(offset)`` bytes, and, unless it is the input's
last part, a power of two of whole chunks. Sibling chaining values merge with
``merge_subtrees_non_root``; the root's two children with ``merge_subtrees_root`` (or
``merge_subtrees_root_xof``). An input of at most one chunk has no subtrees: hash it with
``arborhash.blake3``.

Example::

    from arborhash import blake3, hazmat
    data = bytes(5000)
    split = hazmat.left_subtree_len(len(data))  # 4096
    left = hazmat.hash_subtree(data[:split], 0)
    right = hazmat.hash_subtree(data[split:], split)
    assert hazmat.merge_subtrees_root(left, right) == blake3(data).digest()

Invalid subtrees raise ``SubtreeError`` (a ``ValueError``). Mistakes that pass the checks
(merging subtrees that are not siblings, a short part that is not last) give a wrong hash,
never an error: test against whole-input hashes.
"""

from ._arborhash import hazmat as _hazmat

CHUNK_LEN = _hazmat.CHUNK_LEN
SubtreeError = _hazmat.SubtreeError
hash_subtree = _hazmat.hash_subtree
subtree_hasher = _hazmat.subtree_hasher
finalize_subtree = _hazmat.finalize_subtree
merge_subtrees_non_root = _hazmat.merge_subtrees_non_root
merge_subtrees_root = _hazmat.merge_subtrees_root
merge_subtrees_root_xof = _hazmat.merge_subtrees_root_xof
left_subtree_len = _hazmat.left_subtree_len
max_subtree_len = _hazmat.max_subtree_len

__all__ = [
    "CHUNK_LEN",
    "SubtreeError",
    "finalize_subtree",
    "hash_subtree",
    "left_subtree_len",
    "max_subtree_len",
    "merge_subtrees_non_root",
    "merge_subtrees_root",
    "merge_subtrees_root_xof",
    "subtree_hasher",
]
