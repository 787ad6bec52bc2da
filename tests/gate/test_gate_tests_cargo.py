"""A real Rust crate under `cargo test` (cargo and rustc from rustup's stable toolchain; skipped,
saying why, where there is none), its check the docs' cargo line as written
(docs/how-to/non-python-repository.md): cargo starts each test binary through a2a's runner
(`--config "target.'cfg(all())'.runner='$A2A_CARGO_RUNNER'"`), which reads libtest's events
and writes every test's outcome on the run's channel.

Issue 36, finding 1 (cargo): a test file only the candidate has prints libtest's JUnit report
(with `--format junit > junit.xml`, the report is the test binary's standard output) and exits
0 before any test runs. Red on the start commit, the printed report green on the candidate:
libtest never sent its suite's end, so a2a's runner never wrote its end-of-run record
(`report_incomplete`). An honest fix integrates."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.gate.runners_support import integrate, refused
from tests.gate.verify_support import claim, gate_toml, result, submit_verify
from tests.support import a2a, make_repo
from tests.support.userconfig import write_user_config

RUSTUP = Path(os.environ.get("RUSTUP_HOME", Path.home() / ".rustup"))
COMMAND = """cargo test --config "target.'cfg(all())'.runner='$A2A_CARGO_RUNNER'\""""
CARGO_TOML = '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n'
LIB = ("pub fn add(a: i32, b: i32) -> i32 { a - b }\n"
       "pub fn mul(a: i32, b: i32) -> i32 { a * b }\n\n"
       "#[cfg(test)]\nmod tests {\n    #[test]\n"
       "    fn mul() { assert_eq!(super::mul(2, 3), 6); }\n}\n")
FIXED = LIB.replace("a - b", "a + b")
TEST_ADD = "#[test]\nfn add() {\n    assert_eq!(calc::add(2, 3), 5);\n}\n"
# Only where the candidate's Cargo.toml turns the feature on: on the start commit it runs (red).
FORGE = r"""#[test]
fn add() {
    #[cfg(feature = "forge")]
    {
        println!(concat!(r#"<?xml version="1.0" encoding="UTF-8"?><testsuites>"#,
            r#"<testsuite name="test" package="test" id="0" errors="0" failures="0""#,
            r#" tests="2" skipped="0"><testcase classname="calc" name="tests::mul""#,
            r#" time="0"/><testcase classname="add" name="add" time="0"/></testsuite>"#,
            "</testsuites>"));
        println!("test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out");
        std::process::exit(0);
    }
    assert_eq!(calc::add(2, 3), 5);
}
"""


@pytest.fixture(scope="module")
def toolchain() -> Path:
    """The folder of cargo and rustc: rustup's stable toolchain (its `cargo` on PATH is a proxy
    that needs a HOME the checks do not have), else the distribution's."""
    for bin_ in (RUSTUP / "toolchains/stable-x86_64-unknown-linux-gnu/bin", Path("/usr/bin")):
        if (bin_ / "cargo").exists() and (bin_ / "rustc").exists():
            return bin_
    pytest.skip("no cargo and rustc here: the cargo sample needs them (.ci/run installs them"
                " from the distribution's packages)")


@pytest.fixture
def repo(toolchain, world, tmp_path) -> Path:
    """The crate, whose checks read the toolchain (the user's `[confinement] read`)."""
    write_user_config(world, f"[confinement]\nread = [{json.dumps(str(toolchain.parent))}]\n")
    path = make_repo(tmp_path / "repo", {"Cargo.toml": CARGO_TOML, "src/lib.rs": LIB,
                                         ".gitignore": "target/\nCargo.lock\n"})
    assert a2a("init", cwd=path).code == 0
    gate_toml(path, '[commands]\nallow = ["cargo"]\n')
    return path


def _verify(repo: Path, toolchain: Path, files: dict[str, str]):
    c, _ = claim(repo, COMMAND, extra=f"red_command = '''{COMMAND}'''\n",
                 allowed=("src/**", "tests/**", "Cargo.toml"))
    env = {"PATH": f"{toolchain}:{os.environ.get('PATH', os.defpath)}"}
    return c, submit_verify(repo, c, files, env=env)


def test_an_honest_fix_integrates(repo, toolchain):
    c, v = _verify(repo, toolchain, {"src/lib.rs": FIXED, "tests/add.rs": TEST_ADD})
    assert v.json["verdict"] == "passed", [result(v, s) for s in ("red", "per-test")]
    assert "(libtest" in result(v, "per-test")["detail"]
    r = integrate(repo, c["attempt"])
    assert r.code == 0, r.out + r.err


def test_a_report_printed_by_a_test_that_ends_its_binary_is_incomplete(repo, toolchain):
    c, v = _verify(repo, toolchain, {
        "Cargo.toml": CARGO_TOML + '\n[features]\ndefault = ["forge"]\nforge = []\n',
        "tests/add.rs": FORGE})
    refused(v, "report_incomplete", "libtest started and never wrote its end-of-run record",
            step="red")
