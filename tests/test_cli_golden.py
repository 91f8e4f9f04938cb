"""The ``pushluck`` examples (the README's) print exactly the recorded text:
``tests/golden/readme_cli.txt`` holds what each command of ``tests/golden/readme_commands.txt``
printed through the installed ``pushluck``, so a change that alters an answer is seen.

``odds`` and ``solve`` must print the same text, and every decimal number in it to 12
significant digits: a float that comes out of a sparse linear solve (SciPy's SuperLU, the
CPU's vector instructions) may differ in its last digit between machines, so the last digits
of a 16-digit decimal are not part of the record (fractions and integers are compared exactly).
``pushluck games`` lists every registered game, so a game added later adds lines: the
recorded lines must all still be there, in order and unchanged."""

from __future__ import annotations

import math
import re
import shlex
from pathlib import Path

import pytest

from pushluck_teach.cli import main

GOLDEN = Path(__file__).parent / "golden"


def recorded_outputs() -> dict[str, str]:
    """``{command: its recorded transcript}`` from the golden file."""
    blocks: dict[str, str] = {}
    command = None
    for line in (GOLDEN / "readme_cli.txt").read_text().splitlines(keepends=True):
        if line.startswith("$ pushluck "):
            command = line[2:].rstrip("\n")
            blocks[command] = ""
        elif command is not None:
            blocks[command] += line
    return blocks


#: a decimal with at least 13 significant digits (shorter ones are compared as text)
LONG_DECIMAL = re.compile(r"-?\d+\.\d{12,}(?:e[-+]?\d+)?")


def same_transcript(now: str, recorded: str) -> bool:
    """Equal text, long decimals equal to 12 significant digits (see the module docstring)."""
    if LONG_DECIMAL.sub("#", now) != LONG_DECIMAL.sub("#", recorded):
        return False
    return all(math.isclose(float(a), float(b), rel_tol=1e-12, abs_tol=1e-15)
               for a, b in zip(LONG_DECIMAL.findall(now), LONG_DECIMAL.findall(recorded),
                               strict=True))


def test_same_transcript_ignores_only_the_last_digits_of_long_decimals() -> None:
    assert same_transcript('{"p": 0.0984229270913561}', '{"p": 0.0984229270913562}')
    assert not same_transcript('{"p": 0.0984229270913561}', '{"p": 0.0984229270993561}')
    assert not same_transcript('{"p": 0.5}', '{"p": 0.50}')
    assert not same_transcript('{"p": "1/3"}', '{"p": "1/4"}')


def test_readme_examples_print_the_recorded_output(capsys: pytest.CaptureFixture[str]) -> None:
    commands = [line for line in (GOLDEN / "readme_commands.txt").read_text().splitlines()
                if line.strip()]
    recorded = recorded_outputs()
    assert commands and list(recorded) == commands
    for command in commands:
        status = main(shlex.split(command)[1:])
        captured = capsys.readouterr()
        now = f"{captured.out}{captured.err}[exit {status}]\n"
        if command == "pushluck games":
            lines = iter(now.splitlines())
            missing = [old for old in recorded[command].splitlines()
                       if not any(new == old for new in lines)]
            assert not missing, missing
        else:
            assert same_transcript(now, recorded[command]), (command, now, recorded[command])
