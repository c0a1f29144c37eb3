"""Runs the interpreter's own hashlib tests (``test.test_hashlib``) with hashlib's BLAKE2 replaced
by arborhash's: hashlib takes ``blake2b`` and ``blake2s`` from the module ``_blake2``, so a module
of that name holding arborhash's classes is installed before hashlib is first imported.

Usage: ``python hashlib_suite.py``. Fails if the interpreter has no ``test.test_hashlib``
(Debian's interpreters ship it in ``libpython3.X-testsuite``), if a test fails, or if one is
skipped that is not listed below with its reason (docs/python.md lists them too).
"""

import sys
import types
import unittest

import arborhash

# Skipped tests that are not about BLAKE2, or whose input is not available here.
NOT_APPLICABLE = {
    "test_blake2b_vectors": "vectors downloaded from pythontest.net (the same keyed KATs are "
    "in testvectors/blake2-kat.json, checked by tests/test_blake2.py)",
    "test_blake2s_vectors": "as test_blake2b_vectors",
    "test_case_md5_huge": "MD5, with more memory than the machine has",
    "test_case_md5_uintmax": "MD5, with more memory than the machine has",
    "test_case_sha3_224_vector": "SHA-3, vectors downloaded from pythontest.net",
    "test_case_sha3_256_vector": "SHA-3, vectors downloaded from pythontest.net",
    "test_case_sha3_384_vector": "SHA-3, vectors downloaded from pythontest.net",
    "test_case_sha3_512_vector": "SHA-3, vectors downloaded from pythontest.net",
    "test_case_shake128_vector": "SHAKE, vectors downloaded from pythontest.net",
    "test_case_shake256_vector": "SHAKE, vectors downloaded from pythontest.net",
}

assert "hashlib" not in sys.modules, "hashlib was imported before its BLAKE2 was replaced"
_blake2 = types.ModuleType("_blake2", "arborhash's BLAKE2, in place of CPython's")
_blake2.blake2b = arborhash.blake2b
_blake2.blake2s = arborhash.blake2s
for cls in (arborhash.blake2b, arborhash.blake2s):
    for attr in ("MAX_DIGEST_SIZE", "MAX_KEY_SIZE", "PERSON_SIZE", "SALT_SIZE"):
        setattr(_blake2, f"{cls.name.upper()}_{attr}", getattr(cls, attr))
sys.modules["_blake2"] = _blake2

import hashlib  # noqa: E402

assert hashlib.blake2b is arborhash.blake2b and hashlib.blake2s is arborhash.blake2s
assert type(hashlib.new("blake2b")) is arborhash.blake2b

suite = unittest.defaultTestLoader.loadTestsFromName("test.test_hashlib")
result = unittest.TextTestRunner(verbosity=1).run(suite)
skipped = {test.id().rsplit(".", 1)[-1] for test, _ in result.skipped}
unexpected = sorted(skipped - NOT_APPLICABLE.keys())
for name in unexpected:
    print(f"skipped, and not listed as not applicable: {name}", file=sys.stderr)
print(
    f"test.test_hashlib on Python {sys.version.split()[0]}: {result.testsRun} run, "
    f"{len(result.failures) + len(result.errors)} failed, {len(skipped)} skipped: "
    + ", ".join(sorted(skipped))
)
sys.exit(0 if result.wasSuccessful() and not unexpected else 1)
