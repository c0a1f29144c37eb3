"""Buffer types, non-contiguous buffers, and threads hashing at once."""

import array
import mmap
import sys
import sysconfig
import threading

import numpy as np
import pytest

import arborhash

ALL = [getattr(arborhash, name) for name in sorted(arborhash.algorithms_available)]


def buffers(data):
    m = mmap.mmap(-1, len(data))
    m.write(data)
    return {
        "bytes": data,
        "bytearray": bytearray(data),
        "memoryview": memoryview(data),
        "memoryview slice": memoryview(b"xx" + data)[2:],
        "array": array.array("B", data),
        "array of int32": array.array("i", data[: len(data) // 4 * 4]),
        "numpy uint8": np.frombuffer(data, dtype=np.uint8),
        "numpy float64 2-d": np.frombuffer(data[: len(data) // 16 * 16], dtype=np.float64).reshape(
            -1, 2
        ),
        "mmap": m,
    }


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
def test_buffer_types(cls, rng):
    data = rng.randbytes(10_000)
    for kind, buf in buffers(data).items():
        expected = cls(bytes(memoryview(buf).cast("B"))).digest()
        assert cls(buf).digest() == expected, kind
        h = cls()
        h.update(buf)
        assert h.digest() == expected, kind


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
def test_rejected_buffers(cls):
    strided = memoryview(bytes(100))[::2]
    fortran = np.zeros((4, 4), dtype=np.uint8, order="F")
    for bad in (strided, fortran):
        with pytest.raises(BufferError):
            cls(bad)
        with pytest.raises(BufferError):
            cls().update(bad)
    with pytest.raises(TypeError):
        cls("str")
    with pytest.raises(TypeError):
        cls().update("str")


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
def test_threads_hash_at_once(cls, rng):
    data = [rng.randbytes(rng.choice([100, 3000, 300_000])) for _ in range(16)]
    expected = [cls(d).digest() for d in data]
    shared = cls()
    results = [None] * len(data)

    def work(i):
        h = cls()
        for _ in range(3):
            h = cls()
            for j in range(0, len(data[i]), 5000):
                h.update(data[i][j : j + 5000])
        results[i] = h.digest()
        shared.update(b"x" * 4096)  # one object updated by every thread at once

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(data))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == expected
    assert shared.digest() == cls(b"x" * 4096 * len(data)).digest()


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
def test_threads_share_one_object_with_short_updates(cls):
    # Updates this short keep the GIL, so only a free-threaded CPython runs them at once; every
    # one must land whole, in some order (all pieces are equal), while copies and digests of
    # the object are taken meanwhile.
    shared = cls()
    piece = b"y" * 100

    def work():
        for k in range(500):
            shared.update(piece)
            if k % 50 == 0:
                shared.copy().digest()

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert shared.digest() == cls(piece * 500 * len(threads)).digest()


@pytest.mark.skipif(
    not sysconfig.get_config_var("Py_GIL_DISABLED"), reason="needs a free-threaded CPython"
)
def test_free_threaded_interpreter_keeps_the_gil_off():
    # An extension that did not declare itself free-threading safe would have turned it on
    # when it was imported.
    assert not sys._is_gil_enabled()
