"""The README's ``pushluck`` examples print exactly what they printed before the layering
refactor (issue 7): ``tests/golden/readme_cli.txt`` was recorded by running each command of
``tests/golden/readme_commands.txt`` through the installed ``pushluck`` before the change.

``odds`` and ``solve`` must be byte-identical.  ``pushluck games`` lists every registered game,
so games added since (Lost Cities, the lab's ``custom``) add lines: the recorded lines must all
still be there, in order and unchanged."""

from __future__ import annotations

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
            assert now == recorded[command], command
