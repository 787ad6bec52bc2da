"""Every parser of outside input (tests/fuzz/parsers.py), fuzzed in-process: each bad input is
refused with the parser's own error (an A2AError with one of its codes) in one line, never
another exception; a refusal writes nothing, and the store stays whole after every input."""

from __future__ import annotations

import pytest
from hypothesis import example, given

from a2a_tui.errors import A2AError
from tests.fuzz.budget import budget
from tests.fuzz.invariants import assert_whole, refusal_line, table_counts
from tests.fuzz.parsers import PARSERS, Parser, Place


@pytest.fixture
def place(world, repo):
    p = Place(repo, world.env)
    yield p
    p.close()


@pytest.mark.parametrize("parser", PARSERS, ids=lambda p: p.name.split(" (")[0])
def test_bad_input_gets_one_clear_error_and_leaves_the_store_whole(place, parser: Parser):
    @budget(parser.examples)
    @given(parser.inputs)
    def feed(data):
        before = table_counts(place.store)
        try:
            parser.read(place, data)
        except parser.error as exc:
            refusal_line(exc)
            if isinstance(exc, A2AError):
                assert exc.code in parser.codes, f"code {exc.code!r}: {exc.message}"
            assert table_counts(place.store) == before, "a refusal wrote to the store"
        assert_whole(place.store)

    for known in parser.known:
        feed = example(known)(feed)
    feed()
