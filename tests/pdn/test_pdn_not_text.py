"""Input that is not text is refused with one error naming it; a path, bytes
or a binary handle given where a text handle is wanted get a TypeError that
says what to pass."""

from __future__ import annotations

import gzip
import io
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from draughts import pdn
from draughts._cli import main
from draughts.pdn import _native as pdn_native
from draughts.pdn._text import _CONTROL
from draughts.pdn.record import read_main_line, read_record

PROGRAM = b"\x7fELF\x02\x01\x01\x00" + random.Random(1).randbytes(5000)
CONTROLS = bytes(random.Random(2).choice(b"\x01\x02\x03\x1b\x7f[] 1.") for _ in range(3000))


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (PROGRAM, "binary data (a NUL byte at byte 7)"),
        (CONTROLS, "binary data ("),
        ('[Event "x"]\n1. 32-28 *'.encode("utf-16"), "UTF-16 text"),
    ],
)
def test_open_pdn_refuses_what_is_not_text(tmp_path: Path, data: bytes, reason: str) -> None:
    path = tmp_path / "game.pdn"
    path.write_bytes(data)
    with gzip.open(tmp_path / "game.pdn.gz", "wb") as packed:
        packed.write(data)
    sources = [(path, str(path)), (str(path) + ".gz", str(path) + ".gz")]
    sources.append((io.BytesIO(data), "<stream>"))
    for source, name in sources:
        with pytest.raises(pdn.NotTextError) as refused:
            pdn.open_pdn(source)  # type: ignore[arg-type]
        assert isinstance(refused.value, TypeError) and refused.value.name == name
        assert str(refused.value).startswith(f"{name}: not a PDN file: ")
        assert reason in str(refused.value)
        assert "\n" not in str(refused.value)


def test_text_with_a_few_control_bytes_is_read(tmp_path: Path) -> None:
    path = tmp_path / "old.pdn"
    path.write_bytes(b'[Event "x"]\x0c\r\n1. 32-28 19-23 *\r\n\x1a')
    with pdn.open_pdn(path) as handle:
        game = pdn.read_game(handle)
    assert game is not None and len(game.mainline_moves()) == 2


@pytest.mark.parametrize(
    ("handle", "advice"),
    [
        ("games.pdn", "not a str: pass open_pdn(path) for a file, io.StringIO(text)"),
        (Path("games.pdn"), "not a path: pass open_pdn(path)"),
        (b"1. 32-28 *", "not bytes: pass open_pdn(io.BytesIO(data))"),
        (io.BytesIO(b"1. 32-28 *"), "not a binary handle: pass open_pdn(handle)"),
        (42, "not an object of type int"),
    ],
)
def test_readers_say_what_to_pass(handle: object, advice: str) -> None:
    readers: list[tuple[str, Callable[[Any], object]]] = [
        ("read_game", pdn.read_game),
        ("read_games", lambda handle: next(pdn.read_games(handle))),
        ("read_headers", pdn.read_headers),
        ("skip_game", pdn.skip_game),
        ("read_record", read_record),
        ("read_main_line", read_main_line),
    ]
    for name, reader in readers:
        # Each names the function called, not the one underneath.
        with pytest.raises(TypeError, match=f"^{name} reads an open text handle") as wrong:
            reader(handle)
        assert advice in str(wrong.value)
    if not isinstance(handle, str):  # check_strict reads a str as PDN text
        with pytest.raises(TypeError, match="check_strict reads an open text handle"):
            pdn.check_strict(handle)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("source", "advice"),
    [
        (b"1. 32-28 *", "not bytes: pass io.BytesIO(data)"),
        (42, "not an object of type int: pass a path, an open handle, or a list of them"),
        (None, "not an object of type NoneType"),
        (["a.pdn", 42], "not a list holding an object of type int"),
    ],
)
def test_validate_says_what_to_pass(source: object, advice: str) -> None:
    with pytest.raises(TypeError, match="validate reads files") as wrong:
        pdn.validate(source)  # type: ignore[arg-type]
    assert advice in str(wrong.value)


def test_open_pdn_says_what_to_pass() -> None:
    with pytest.raises(TypeError, match=r"not bytes: pass io.BytesIO\(data\)"):
        pdn.open_pdn(b"1. 32-28 *")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not a text handle"):
        pdn.open_pdn(io.StringIO("1. 32-28 *"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not an object of type int"):
        pdn.open_pdn(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "command",
    [
        ["convert", "{path}", "{out}"],
        ["validate", "--jobs", "1", "{path}"],
        ["validate", "--jobs", "1", "--strict", "{path}"],
        ["validate", "--jobs", "1", "--json", "{path}"],
        ["validate", "--jobs", "2", "{path}"],
        ["index", "--db", "{out}", "{path}"],
    ],
)
def test_commands_refuse_a_binary_file_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    path, out = tmp_path / "program", tmp_path / "out.pdn"
    path.write_bytes(PROGRAM)
    words = [word.format(path=path, out=out) for word in command]
    assert main(words) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"draughts {command[0]}: {path}: not a PDN file: binary data (a NUL byte at byte 7)\n"
    )


@pytest.mark.skipif(pdn_native.count_controls is None, reason="the native module is not built")
@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\x7f",
        bytes(range(256)) * 5,  # every byte, in blocks of 16 and a tail
        bytes([1]) * 70_000,  # more than 255 blocks of 16, all controls
        random.Random(3).randbytes(10_007),
        CONTROLS,
        '[Event "é"]\r\n\t1. 32-28 19-23 *\x1a\x0c'.encode() * 50,
    ],
)
def test_the_native_count_of_controls_is_the_pure_one(data: bytes) -> None:
    assert pdn_native.count_controls is not None
    assert pdn_native.count_controls(data) == len(data) - len(data.translate(None, _CONTROL))


@pytest.mark.parametrize(
    ("handle", "what"),
    [("games.pdn", "not str"), (b"1. 32-28 *", "not bytes"), (42, "not int")],
)
def test_scanning_says_what_to_pass(handle: object, what: str) -> None:
    for scan in (pdn.scan_offsets, pdn.scan_starts):
        with pytest.raises(TypeError, match="scanning reads an open handle") as wrong:
            list(scan(handle))  # type: ignore[arg-type]
        assert f"{what}: pass open(path, 'rb') for a file" in str(wrong.value)
