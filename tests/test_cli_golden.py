"""The README's ``pushluck`` examples print exactly what they printed before the layering
refactor (issue 7): ``tests/golden/readme_cli.txt`` was recorded by running each command of
``tests/golden/readme_commands.txt`` through the installed ``pushluck`` before the change."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from pushluck_teach.cli import main

GOLDEN = Path(__file__).parent / "golden"


def test_readme_examples_print_the_recorded_output(capsys: pytest.CaptureFixture[str]) -> None:
    commands = [line for line in (GOLDEN / "readme_commands.txt").read_text().splitlines()
                if line.strip()]
    assert commands and all(line.startswith("pushluck ") for line in commands)
    transcript = []
    for command in commands:
        status = main(shlex.split(command)[1:])
        captured = capsys.readouterr()
        transcript.append(f"$ {command}\n{captured.out}{captured.err}[exit {status}]\n")
    expected = (GOLDEN / "readme_cli.txt").read_text()
    assert "".join(transcript) == expected
