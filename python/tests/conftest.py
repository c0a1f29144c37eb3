import json
import random
from pathlib import Path

import pytest

# The published known-answer vectors, kept in the repository (testvectors/).
VECTORS = Path(__file__).resolve().parents[2] / "testvectors"


def load_vectors(name):
    with open(VECTORS / name) as f:
        return json.load(f)


@pytest.fixture
def rng():
    """A random generator with a fixed seed, so that failures reproduce."""
    return random.Random(2026_11_26)


def mod251(n):
    return bytes(i % 251 for i in range(n))
