"""`.a2a/config.toml` is read without pydantic or tomllib when it is as a2a writes it, and that
quick reading never disagrees with tomllib and the pydantic model; anything else still gets
the model's exact one-line error."""

from __future__ import annotations

import dataclasses
import tomllib

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from a2a_tui.config import PLAIN_FIELDS, Config, model, read_plain, validate
from a2a_tui.repo import Repo
from tests.support import a2a


def full_read(text: str) -> Config | None:
    """What tomllib and the pydantic model make of `text` (None: they refuse it)."""
    try:
        return validate(tomllib.loads(text))
    except (tomllib.TOMLDecodeError, ValidationError):
        return None


KEYS = st.one_of(st.sampled_from(sorted(PLAIN_FIELDS)),
                st.sampled_from(["other", '"target_branch"', "target_branch.x", "", "a b"]))
TEXT = st.text(alphabet=st.sampled_from(list("ab-_/ é#=\"'\\\t\r\x01\x7f\u2028")), max_size=8)
VALUES = st.one_of(
    st.sampled_from(['"main"', "'dev'", '""', "3", "0"]),  # valid ones, to meet each other
    st.builds(lambda q, t: f"{q}{t}{q}", st.sampled_from(['"', "'", '"""']), TEXT),
    st.integers(-5, 2**70).map(str),
    st.sampled_from(["03", "+3", "1_0", "true", "3.0", "[]", '"main" # c', "0x1", "main", "a-a",
                     "'a\"", "\"a'", '"\\u00e9"', "'\\'"]),  # nearly right
    TEXT,
)
LINES = st.one_of(
    st.builds(lambda k, a, v, b: f"{k}{a}={b}{v}", KEYS, st.sampled_from(["", " ", "\t"]),
              VALUES, st.sampled_from(["", " ", "  "])),
    st.sampled_from(["", "# a comment", "#\x01", "[table]", " ", "\t# x"]),
)


@settings(max_examples=3000, deadline=None)
@example(True, ["feedback_limit = 03"], "\n")            # leading zeros: not TOML
@example(True, ["feedback_limit = +3"], "\n")
@example(True, ["target_branch = 'dev'"], "\n")          # a key twice
@example(True, ['tmux_session = "a\\"b"'], "\n")       # an escape
@example(True, ["tmux_session = a-a"], "\n")             # no quotes
@example(True, ["tmux_session = 'a\tb'"], "\n")         # a tab: TOML's, but not plain
@example(False, ['target_branch = "main"', "#\x01"], "\n")  # a control character
@example(False, ['target_branch = "main"', 'tmux_session = "x"'], "\r")  # a bare CR
@given(st.booleans(), st.lists(LINES, max_size=5), st.sampled_from(["\n", "\r\n", "\r"]))
def test_the_quick_read_agrees_with_tomllib_and_the_model_wherever_it_answers(first, lines, nl):
    text = nl.join(['target_branch = "main"'] * first + lines)
    quick = read_plain(text)
    if quick is not None:
        assert quick == full_read(text), text


def test_the_dataclass_and_the_model_have_the_same_fields_and_defaults():
    fields = model().model_fields
    assert list(fields) == [f.name for f in dataclasses.fields(Config)]
    assert model().model_validate({"target_branch": "x"}).model_dump() == \
        dataclasses.asdict(Config(target_branch="x"))
    assert set(PLAIN_FIELDS) <= set(fields)


@pytest.mark.parametrize("cfg", [
    Config(target_branch="main"),
    Config(target_branch="release/2.0", tmux_session="a2a-my_repo", feedback_limit=0),
    Config(target_branch="feature/é", tmux_session="", feedback_limit=12),
])
def test_what_a2a_writes_is_read_quickly_and_whole(tmp_path, cfg):
    repo = Repo(tmp_path)
    repo.a2a_dir.mkdir()
    repo.write_config(cfg)
    text = repo.config_path.read_text()
    assert read_plain(text) == cfg == full_read(text)


@pytest.mark.parametrize("text, message", [
    ('target_branch = "main"\nfeedback_limit = -1\n',
     "feedback_limit: Input should be greater than or equal to 0"),
    ('target_branch = "main"\ncolour = "red"\n', "colour: Extra inputs are not permitted"),
    ('target_branch = ""\n', "target_branch: String should have at least 1 character"),
    ('target_branch = "main\n', "Illegal character"),
])
def test_a_bad_config_is_one_line_with_the_models_message(repo, text, message):
    (repo / ".a2a/config.toml").write_text(text)
    assert a2a("status", "--json", cwd=repo).code == 0   # not in force: what was accepted is
    r = a2a("gate-rules", "accept", "--json", cwd=repo)
    assert r.code == 1
    assert r.json["error"]["code"] == "bad_config"
    assert message in r.json["error"]["message"]


def test_a_valid_config_in_another_toml_shape_is_read_by_tomllib(repo):
    # A comment after a value and an escape: not the plain shape, still a valid file.
    (repo / ".a2a/config.toml").write_text(
        'target_branch = "main" # the trunk\ntmux_session = "a2a-\\u00e9"\n')
    assert read_plain((repo / ".a2a/config.toml").read_text()) is None
    assert a2a("gate-rules", "accept", cwd=repo).code == 0
    r = a2a("status", "--json", cwd=repo)
    assert r.code == 0, r.out + r.err
    assert r.json["target_branch"] == "main"
    assert Repo(repo).config().tmux_session == "a2a-é"
