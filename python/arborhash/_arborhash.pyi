"""Type stubs of the extension module; the classes are re-exported by ``arborhash``."""

import os
import sys
from collections.abc import Iterable
from typing import ClassVar, final

from typing_extensions import Self

if sys.version_info >= (3, 12):
    from collections.abc import Buffer
else:
    from typing_extensions import Buffer

from . import hazmat as hazmat

__all__ = [
    "__version__",
    "blake3",
    "blake2b",
    "blake2s",
    "blake2bp",
    "blake2sp",
    "tz",
    "hash_many",
    "hazmat",
]

__version__: str

@final
class blake3:
    """An incremental BLAKE3 hasher with the ``blake3`` package's interface."""

    name: ClassVar[str]
    digest_size: ClassVar[int]
    block_size: ClassVar[int]
    key_size: ClassVar[int]
    AUTO: ClassVar[int]
    def __new__(
        cls,
        data: Buffer | None = None,
        /,
        *,
        key: Buffer | None = None,
        derive_key_context: str | None = None,
        max_threads: int = 1,
        usedforsecurity: bool = True,
    ) -> Self: ...
    def update(self, data: Buffer, /) -> blake3: ...
    def update_mmap(self, path: str | os.PathLike[str]) -> blake3: ...
    def digest(self, length: int = 32, *, seek: int = 0) -> bytes: ...
    def hexdigest(self, length: int = 32, *, seek: int = 0) -> str: ...
    def copy(self) -> blake3: ...
    def reset(self) -> None: ...

class _Hash:
    name: ClassVar[str]
    block_size: ClassVar[int]
    @property
    def digest_size(self) -> int: ...
    def update(self, data: Buffer, /) -> None: ...
    def digest(self) -> bytes: ...
    def hexdigest(self) -> str: ...

@final
class blake2b(_Hash):
    """BLAKE2b with ``hashlib.blake2b``'s signature, limits and errors."""

    MAX_DIGEST_SIZE: ClassVar[int]
    MAX_KEY_SIZE: ClassVar[int]
    SALT_SIZE: ClassVar[int]
    PERSON_SIZE: ClassVar[int]
    if sys.version_info >= (3, 14):
        def __new__(
            cls,
            data: Buffer = b"",
            *,
            digest_size: int = 64,
            key: Buffer = b"",
            salt: Buffer = b"",
            person: Buffer = b"",
            fanout: int = 1,
            depth: int = 1,
            leaf_size: int = 0,
            node_offset: int = 0,
            node_depth: int = 0,
            inner_size: int = 0,
            last_node: bool = False,
            usedforsecurity: bool = True,
            string: Buffer | None = None,
        ) -> Self: ...
    else:
        def __new__(
            cls,
            data: Buffer = b"",
            /,
            *,
            digest_size: int = 64,
            key: Buffer = b"",
            salt: Buffer = b"",
            person: Buffer = b"",
            fanout: int = 1,
            depth: int = 1,
            leaf_size: int = 0,
            node_offset: int = 0,
            node_depth: int = 0,
            inner_size: int = 0,
            last_node: bool = False,
            usedforsecurity: bool = True,
        ) -> Self: ...
    def copy(self) -> blake2b: ...

@final
class blake2s(_Hash):
    """BLAKE2s with ``hashlib.blake2s``'s signature, limits and errors."""

    MAX_DIGEST_SIZE: ClassVar[int]
    MAX_KEY_SIZE: ClassVar[int]
    SALT_SIZE: ClassVar[int]
    PERSON_SIZE: ClassVar[int]
    if sys.version_info >= (3, 14):
        def __new__(
            cls,
            data: Buffer = b"",
            *,
            digest_size: int = 32,
            key: Buffer = b"",
            salt: Buffer = b"",
            person: Buffer = b"",
            fanout: int = 1,
            depth: int = 1,
            leaf_size: int = 0,
            node_offset: int = 0,
            node_depth: int = 0,
            inner_size: int = 0,
            last_node: bool = False,
            usedforsecurity: bool = True,
            string: Buffer | None = None,
        ) -> Self: ...
    else:
        def __new__(
            cls,
            data: Buffer = b"",
            /,
            *,
            digest_size: int = 32,
            key: Buffer = b"",
            salt: Buffer = b"",
            person: Buffer = b"",
            fanout: int = 1,
            depth: int = 1,
            leaf_size: int = 0,
            node_offset: int = 0,
            node_depth: int = 0,
            inner_size: int = 0,
            last_node: bool = False,
            usedforsecurity: bool = True,
        ) -> Self: ...
    def copy(self) -> blake2s: ...

@final
class blake2bp(_Hash):
    """BLAKE2bp: BLAKE2b over 4 leaves in SIMD lanes."""

    MAX_DIGEST_SIZE: ClassVar[int]
    MAX_KEY_SIZE: ClassVar[int]
    def __new__(
        cls,
        data: Buffer = b"",
        /,
        *,
        digest_size: int = 64,
        key: Buffer = b"",
        usedforsecurity: bool = True,
    ) -> Self: ...
    def copy(self) -> blake2bp: ...

@final
class blake2sp(_Hash):
    """BLAKE2sp: BLAKE2s over 8 leaves in SIMD lanes."""

    MAX_DIGEST_SIZE: ClassVar[int]
    MAX_KEY_SIZE: ClassVar[int]
    def __new__(
        cls,
        data: Buffer = b"",
        /,
        *,
        digest_size: int = 32,
        key: Buffer = b"",
        usedforsecurity: bool = True,
    ) -> Self: ...
    def copy(self) -> blake2sp: ...

@final
class tz(_Hash):
    """The Tillich-Zémor hash. NOT A SECURE HASH: see the docstring."""

    def __new__(cls, data: Buffer = b"", /) -> Self: ...
    def copy(self) -> tz: ...

def hash_many(
    messages: Iterable[Buffer],
    algorithm: str = "blake3",
    *,
    digest_size: int | None = None,
    key: Buffer | None = None,
) -> list[bytes]: ...
