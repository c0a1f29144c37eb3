"""One BLAKE3 tree built in parts by Rust, Go, C and Python: each language hashes its own part
at its own offset, others merge the parts, and the root must be the hash of the whole input.
C takes two turns: its one-call subtree function, and its incremental hasher fed in pieces.
The other languages' programs (`subtree cv|parent|root`, see arborhash/examples/subtree.rs) are
named by ARBORHASH_SUBTREE_RUST, ARBORHASH_SUBTREE_GO and ARBORHASH_SUBTREE_C, which
scripts/test-python.sh builds and sets."""

import os
import subprocess

import blake3
import pytest

from arborhash import hazmat

PROGRAMS = {
    "rust": "ARBORHASH_SUBTREE_RUST",
    "go": "ARBORHASH_SUBTREE_GO",
    "c": "ARBORHASH_SUBTREE_C",
}


class Program:
    """A language's subtree command."""

    def __init__(self, name):
        self.name = name
        self.path = os.environ.get(PROGRAMS[name])
        assert self.path, f"{PROGRAMS[name]} must name the {name} subtree program"

    def run(self, *args):
        out = subprocess.run([self.path, *map(str, args)], capture_output=True, check=True)
        return bytes.fromhex(out.stdout.decode().strip())

    def cv(self, path, data, offset, length):
        return self.run("cv", path, offset, length)

    def parent(self, left, right):
        return self.run("parent", left.hex(), right.hex())

    def root(self, left, right, length):
        return self.run("root", left.hex(), right.hex(), length)


class CInPieces(Program):
    """The C command's arborhash_blake3_subtree_hasher, fed the part in pieces."""

    def __init__(self):
        super().__init__("c")
        self.name = "c-pieces"

    def cv(self, path, data, offset, length):
        return self.run("cv-pieces", path, offset, length)


class Python:
    name = "python"

    def cv(self, path, data, offset, length):
        return hazmat.hash_subtree(data[offset : offset + length], offset)

    def parent(self, left, right):
        return hazmat.merge_subtrees_non_root(left, right)

    def root(self, left, right, length):
        return hazmat.merge_subtrees_root_xof(left, right, length)


def languages():
    return [Program("rust"), Program("go"), Program("c"), CInPieces(), Python()]


def four_parts(n):
    """The root's two children, each split into its own two children: (offset, length) x 4."""
    left = hazmat.left_subtree_len(n)
    right = n - left
    right_left = hazmat.left_subtree_len(right)
    return [
        (0, left // 2),
        (left // 2, left // 2),
        (left, right_left),
        (left + right_left, right - right_left),
    ]


@pytest.mark.parametrize("n", [5 * 1024 + 1, 3 * 1024 * 1024 + 12345])
def test_one_tree_across_languages(tmp_path, n):
    data = bytes((i * 7 + 3) % 256 for i in range(n))
    path = tmp_path / "input"
    path.write_bytes(data)
    want = blake3.blake3(data).digest(length=100)
    langs = languages()
    # Each rotation gives every language another part and another merge (four parts, so one
    # language rests each turn).
    for turn in range(len(langs)):
        order = langs[turn:] + langs[:turn]
        cvs = [
            lang.cv(path, data, off, length)
            for lang, (off, length) in zip(order[:4], four_parts(n), strict=True)
        ]
        left = order[1].parent(cvs[0], cvs[1])
        right = order[2].parent(cvs[2], cvs[3])
        got = order[3].root(left, right, 100)
        names = [lang.name for lang in order]
        assert got == want, f"parts by {names}, merged by {names[1:]}"


def test_every_language_rejects_a_misplaced_subtree(tmp_path):
    path = tmp_path / "input"
    path.write_bytes(bytes(4096))
    for lang in languages()[:4]:
        with pytest.raises(subprocess.CalledProcessError):
            lang.cv(path, None, 1000, 1024)
    with pytest.raises(hazmat.SubtreeError):
        Python().cv(path, bytes(4096), 1000, 1024)
