import sys

if sys.version_info >= (3, 12):
    from collections.abc import Buffer
else:
    from typing_extensions import Buffer

from ._arborhash import blake3

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

CHUNK_LEN: int

class SubtreeError(ValueError): ...

def hash_subtree(
    data: Buffer,
    input_offset: int = 0,
    *,
    key: Buffer | None = None,
    derive_key_context: str | None = None,
) -> bytes: ...
def subtree_hasher(
    input_offset: int, *, key: Buffer | None = None, derive_key_context: str | None = None
) -> blake3: ...
def finalize_subtree(hasher: blake3) -> bytes: ...
def merge_subtrees_non_root(
    left_child: Buffer,
    right_child: Buffer,
    *,
    key: Buffer | None = None,
    derive_key_context: str | None = None,
) -> bytes: ...
def merge_subtrees_root(
    left_child: Buffer,
    right_child: Buffer,
    *,
    key: Buffer | None = None,
    derive_key_context: str | None = None,
) -> bytes: ...
def merge_subtrees_root_xof(
    left_child: Buffer,
    right_child: Buffer,
    length: int = 32,
    *,
    seek: int = 0,
    key: Buffer | None = None,
    derive_key_context: str | None = None,
) -> bytes: ...
def left_subtree_len(input_len: int) -> int: ...
def max_subtree_len(input_offset: int) -> int | None: ...
