"""Each profile builds the argv that resumes or forks the CLI's own conversation, or says why
it cannot (pure: nothing is launched)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from a2a_tui.errors import A2AError
from a2a_tui.profiles import LaunchContext, get

OLD = "0f0e0d0c-0b0a-4909-8807-060504030201"


@pytest.fixture
def ctx(tmp_path) -> LaunchContext:
    run = tmp_path / "repo" / ".a2a" / "run" / "w1"
    return LaunchContext(session="w1", role="worker", cwd=tmp_path, run_dir=run,
                         spool_dir=tmp_path / "spool", hook=Path("/opt/a2a-hook"),
                         extra=("-c", "model=x"))


def test_claude_resumes_by_id_and_forks_under_a_new_id_it_chooses(ctx):
    p = get("claude")
    resume = p.resume_argv(ctx, OLD)
    assert resume[resume.index("--resume") + 1] == OLD and "--session-id" not in resume
    assert p.prepare(replace(ctx, continues=OLD)).thread_id == OLD
    fork = p.fork_argv(ctx, OLD)
    new = fork[fork.index("--session-id") + 1]
    assert new != OLD and fork[fork.index("--resume") + 1] == OLD and "--fork-session" in fork


def test_codex_resumes_and_forks_with_its_subcommands_after_its_options(ctx):
    p = get("codex")
    for argv, verb in ((p.resume_argv(ctx, OLD), "resume"), (p.fork_argv(ctx, OLD), "fork")):
        i = argv.index(verb)
        assert argv[i + 1] == OLD and argv[i + 2:] == ["-c", "model=x"]
        assert any(a.startswith("notify=") for a in argv[:i])


def test_gemini_resumes_but_cannot_fork(ctx, monkeypatch):
    # The folder check (Gemini ignores settings below a folder others can write) is not the
    # point here: tmp_path sits below /tmp.
    monkeypatch.setattr("a2a_tui.profiles.gemini.insecure_ancestor", lambda path: None)
    p = get("gemini")
    resume = p.resume_argv(ctx, OLD)
    assert resume[resume.index("--resume") + 1] == OLD and "--session-id" not in resume
    with pytest.raises(A2AError) as err:
        p.fork_argv(ctx, OLD)
    assert err.value.code == "cannot_fork"


def test_the_demo_agent_can_neither(ctx):
    for build, code in ((get("demo").resume_argv, "cannot_resume"),
                        (get("demo").fork_argv, "cannot_fork")):
        with pytest.raises(A2AError) as err:
            build(ctx, OLD)
        assert err.value.code == code


@pytest.mark.parametrize("bad", ["", "-rf", "a b", "x;rm", "../x", "é"])
def test_a_conversation_id_that_is_not_one_is_refused(ctx, bad):
    with pytest.raises(A2AError) as err:
        get("claude").resume_argv(ctx, bad)
    assert err.value.code == "bad_conversation"
