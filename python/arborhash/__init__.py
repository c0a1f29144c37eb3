"""Fast hash functions over the Rust crate arborhash.

- ``blake3``: the ``blake3`` package's hasher class (keyed and derive-key modes, extended
  output with ``digest(length, seek=...)``, ``update_mmap``, multi-threaded ``max_threads``);
- ``blake2b`` and ``blake2s``: ``hashlib.blake2b`` / ``hashlib.blake2s`` with every parameter;
- ``blake2bp`` and ``blake2sp``: the 4- and 8-way parallel BLAKE2 variants;
- ``tz``: the Tillich-Zémor homomorphic hash (not a secure hash; see its docstring);
- ``hash_many``: many messages in one call, across SIMD lanes, without the GIL;
- ``new`` and ``algorithms_available``, as in hashlib;
- ``arborhash.hazmat``: BLAKE3 subtrees, hashed apart and merged;
- ``arborhash.dask``: BLAKE3 of huge files and file trees on a Dask cluster (extra ``dask``).

Every function accepts any C-contiguous buffer (bytes, bytearray, memoryview, array, numpy
arrays, mmap objects); updates of 2 KiB or more release the GIL.
"""

from ._arborhash import __version__, blake2b, blake2bp, blake2s, blake2sp, blake3, hash_many, tz

__all__ = [
    "__version__",
    "algorithms_available",
    "blake2b",
    "blake2bp",
    "blake2s",
    "blake2sp",
    "blake3",
    "hash_many",
    "new",
    "tz",
]

_CONSTRUCTORS = {cls.name: cls for cls in (blake3, blake2b, blake2s, blake2bp, blake2sp, tz)}

#: The names ``new`` and ``hash_many`` accept.
algorithms_available = frozenset(_CONSTRUCTORS)


def new(name, data=b"", **kwargs):
    """A new hash object for the algorithm ``name`` (one of ``algorithms_available``), fed with
    ``data``; ``kwargs`` go to the algorithm's constructor."""
    try:
        constructor = _CONSTRUCTORS[name]
    except KeyError:
        raise ValueError(f"unsupported hash type {name}") from None
    return constructor(data, **kwargs)
