"""``open_pdn`` reads gzip, bzip2, xz and zstd files (told by their first
bytes), guessing the encoding of what they decompress to; the core never
imports the optional packages."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from draughts import pdn

ROOT = Path(__file__).resolve().parents[2]
TEXT = (
    '[Event "Cannes é"]\n[Result "2-0"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n\n'
    '[Event "B"]\n1. 31-27 * [Event "C"] 1. 33-29 18-22 *\n'
)

OFFSETS = [0, TEXT.encode().index(b'[Event "B"]'), TEXT.encode().index(b'[Event "C"]')]


def zstd_compress(data: bytes) -> bytes:
    zstandard = pytest.importorskip("zstandard", reason="zstandard is not installed")
    compressed: bytes = zstandard.ZstdCompressor().compress(data)
    return compressed


COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    ".gz": gzip.compress,
    ".bz2": bz2.compress,
    ".xz": lzma.compress,
    ".zst": zstd_compress,
}


def games(handle: io.TextIOBase | object) -> list[str]:
    out = []
    while (game := pdn.read_game(handle)) is not None:  # type: ignore[call-overload]
        out.append(str(game))
    return out


def plain_games() -> list[str]:
    return games(io.StringIO(TEXT))


@pytest.mark.parametrize("suffix", sorted(COMPRESSORS))
@pytest.mark.parametrize("encoding", ["utf-8", "cp1252", "utf-8-sig"])
def test_compressed_files_read_as_the_plain_file(
    tmp_path: Path, suffix: str, encoding: str
) -> None:
    path = tmp_path / f"games.pdn{suffix}"
    path.write_bytes(COMPRESSORS[suffix](TEXT.encode(encoding)))
    with pdn.open_pdn(path) as handle:
        assert games(handle) == plain_games()
    # Told by the bytes, not the name.
    other = tmp_path / "games.pdn"
    other.write_bytes(path.read_bytes())
    with pdn.open_pdn(str(other)) as handle:
        first = pdn.read_game(handle)
        assert first is not None and first.headers["Event"] == "Cannes é"


@pytest.mark.parametrize("suffix", sorted(COMPRESSORS))
def test_binary_handles_and_pipes(suffix: str) -> None:
    data = COMPRESSORS[suffix](TEXT.encode("cp1252"))

    class Pipe(io.RawIOBase):
        """Cannot seek, and gives a few bytes at a time."""

        def __init__(self) -> None:
            self.data = data

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
            part, self.data = self.data[:5], self.data[5:]
            buffer[: len(part)] = part
            return len(part)

    for source in (io.BytesIO(data), io.BufferedReader(Pipe())):
        with pdn.open_pdn(source) as handle:
            assert games(handle) == plain_games()
    with pdn.open_pdn(io.BufferedReader(Pipe())) as handle:
        assert [s.number for s in pdn.scan_starts(handle)] == [1, 2, 3]


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz"])
def test_seeking_in_compressed_files(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"games.pdn{suffix}"
    path.write_bytes(COMPRESSORS[suffix](TEXT.encode()))
    with pdn.open_pdn(path) as handle:
        starts = list(pdn.scan_starts(handle))
        # Offsets are into the decompressed bytes.
        assert [s.offset for s in starts] == OFFSETS
        read = []
        for start in reversed(starts):
            pdn.seek_game(handle, start)
            game = pdn.read_game(handle)
            assert game is not None
            read.append(str(game))
        assert read[::-1] == plain_games()


def test_zstd_files_scan_but_do_not_seek(tmp_path: Path) -> None:
    path = tmp_path / "games.pdn.zst"
    path.write_bytes(zstd_compress(TEXT.encode()))
    with pdn.open_pdn(path) as handle:
        assert [s.offset for s in pdn.scan_starts(handle)] == OFFSETS
    with pdn.open_pdn(path) as handle:
        assert not handle.seekable()


def test_zstd_without_zstandard_names_the_file_and_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "games.pdn.zst"
    # The zstd frame magic number, then anything: it is never decompressed.
    path.write_bytes(b"\x28\xb5\x2f\xfd" + b"\0" * 20)
    monkeypatch.setitem(sys.modules, "zstandard", None)  # import fails
    with pytest.raises(ModuleNotFoundError) as raised:
        pdn.open_pdn(path)
    message = str(raised.value)
    assert str(path) in message and "pip install zstandard" in message


def test_a_corrupt_compressed_file_raises_an_os_error(tmp_path: Path) -> None:
    path = tmp_path / "games.pdn.gz"
    path.write_bytes(gzip.compress(TEXT.encode())[:30])
    with pytest.raises((OSError, EOFError)), pdn.open_pdn(path) as handle:
        games(handle)


def test_the_core_does_not_import_the_extras() -> None:
    code = (
        "import sys, draughts, draughts.pdn\n"
        "import draughts.pdn.record, draughts._cli, draughts.dask\n"
        "extras = {'dask', 'distributed', 'zstandard'} & set(sys.modules)\n"
        "print(sorted(extras))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
