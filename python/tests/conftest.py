import json
import os
import random
from pathlib import Path

import pytest

# The shared known-answer vectors live next to the repository (../shared/testvectors), or where
# ARBORHASH_TESTVECTORS points.
VECTORS = Path(
    os.environ.get(
        "ARBORHASH_TESTVECTORS",
        Path(__file__).resolve().parents[2].parent / "shared" / "testvectors",
    )
)


def load_vectors(name):
    path = VECTORS / name
    if not path.exists():
        pytest.skip(f"{path} not found (set ARBORHASH_TESTVECTORS to the shared test vectors)")
    with open(path) as f:
        return json.load(f)


@pytest.fixture
def rng():
    """A random generator with a fixed seed, so that failures reproduce."""
    return random.Random(2026_11_26)


def mod251(n):
    return bytes(i % 251 for i in range(n))
