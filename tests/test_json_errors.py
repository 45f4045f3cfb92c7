"""JSON errors name their position once: the standard library's messages that already end in "at" included."""

from __future__ import annotations

import json
import re

import pytest

from qcgrade.auditing.judges import JudgeError, parse_output
from qcgrade.evidence import SliceError, json_error_text, load_slice
from qcgrade.files import parse_json_line

# (bad JSON text, json.loads's message without a trailing "at", where it is)
BAD = [
    ('{"section": "s3", "title": "x', "Unterminated string starting", "column 28"),
    ('{"section": "s\u0001"}', "Invalid control character", "column 15"),
    ('{"section": }', "Expecting value", "column 13"),
    ('{"a": 1} x', "Extra data", "column 10"),
]
DOUBLED = re.compile(r"\b(\w+) \1\b")


@pytest.mark.parametrize(("text", "message", "where"), BAD)
def test_json_error_text(text: str, message: str, where: str) -> None:
    with pytest.raises(json.JSONDecodeError) as caught:
        json.loads(text)
    assert json_error_text(caught.value) == f"{message} at line 1 {where}"
    assert json_error_text(caught.value, line=False) == f"{message} at {where}"


@pytest.mark.parametrize(("text", "message", "where"), BAD)
def test_every_reader_names_the_position_once(text: str, message: str, where: str) -> None:
    with pytest.raises(SliceError) as slice_error:
        load_slice(text)
    with pytest.raises(ValueError) as line_error:
        parse_json_line(text)
    messages = [str(slice_error.value), str(line_error.value)]
    if text.startswith("{"):
        with pytest.raises(JudgeError) as judge_error:
            parse_output(text)
        messages.append(str(judge_error.value))
    for got in messages:
        assert f"{message} at " in got and where in got, got
        assert not DOUBLED.search(got), got
