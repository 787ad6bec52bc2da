"""A real Maven project (mvn and a JDK from the distribution; JUnit 5 and Surefire from the
machine's local Maven repository, read offline; skipped, saying why, where any is missing), its
check the docs' Maven line as written (docs/how-to/non-python-repository.md): `mvn test`, the
report `target/surefire-reports`. The project commits `.mvn/maven.config` (offline, batch mode,
the local repository), as a team pins its build.

Surefire writes its reports from the Maven process, after the forked test JVM has said goodbye
on its own channel: a test that writes a green report, prints Surefire's summary and ends its
JVM (System.exit) leaves Maven's "forked VM terminated without properly saying goodbye" and a
failed build. Issue 36: a report forged by a test is refused; an honest fix integrates."""

from __future__ import annotations

import json
import os
import pwd
import shutil
from pathlib import Path

import pytest

from tests.gate.runners_support import integrates, refused
from tests.gate.verify_support import claim, gate_toml, submit_verify
from tests.support import a2a, make_repo
from tests.support.userconfig import write_user_config

LOCAL = Path(os.environ.get("A2A_TEST_M2", Path(pwd.getpwuid(os.getuid()).pw_dir)
                            / ".m2/repository"))
NEEDED = ("org/junit/jupiter/junit-jupiter/5.10.2",
          "org/apache/maven/plugins/maven-surefire-plugin/3.2.5",
          "org/apache/maven/plugins/maven-resources-plugin/3.3.1",
          "org/apache/maven/plugins/maven-compiler-plugin/3.13.0")

pytestmark = pytest.mark.skipif(
    shutil.which("mvn") is None or shutil.which("java") is None
    or not all((LOCAL / n).is_dir() for n in NEEDED),
    reason=f"mvn, java, or JUnit 5.10.2 and Surefire 3.2.5 in {LOCAL} are missing here: the"
           " Maven sample runs offline (no network in a check)")

COMMAND, REPORT = "mvn test", "target/surefire-reports"
POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId><artifactId>calc</artifactId><version>1</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId>
      <version>5.10.2</version><scope>test</scope></dependency>
  </dependencies>
  <build><plugins>
    <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.2.5</version></plugin>
    <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
    <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
  </plugins></build>
</project>
"""
CALC = ("package calc;\n\npublic class Calc {\n"
        "    public static int add(int a, int b) { return a - b; }\n"
        "    public static int mul(int a, int b) { return a * b; }\n}\n")
FIXED = CALC.replace("a - b", "a + b")
HEAD = ("package calc;\n\nimport org.junit.jupiter.api.Test;\n"
        "import static org.junit.jupiter.api.Assertions.assertEquals;\n\n")
MUL = HEAD + "class MulTest {\n    @Test void mul() { assertEquals(6, Calc.mul(2, 3)); }\n}\n"
ADD = HEAD + "class AddTest {\n    @Test void add() { assertEquals(5, Calc.add(2, 3)); }\n}\n"
# Only where the candidate lays down FORGE: on the start commit the test really runs (red).
GREEN = ('<?xml version="1.0" encoding="UTF-8"?><testsuite name="calc.AddTest" tests="1"'
         ' failures="0" errors="0" skipped="0"><testcase name="add" classname="calc.AddTest"/>'
         '</testsuite>')
FORGE = HEAD + f"""import java.nio.file.*;

class AddTest {{
    @Test void add() throws Exception {{
        if (Files.exists(Path.of("FORGE"))) {{
            Files.createDirectories(Path.of("target/surefire-reports"));
            Files.writeString(Path.of("target/surefire-reports/TEST-calc.AddTest.xml"),
                              {json.dumps(GREEN)});
            System.out.println("Tests run: 2, Failures: 0, Errors: 0, Skipped: 0");
            System.exit(0);
        }}
        assertEquals(5, Calc.add(2, 3));
    }}
}}
"""
SRC, TEST = "src/main/java/calc/Calc.java", "src/test/java/calc/"


@pytest.fixture
def repo(world, tmp_path) -> Path:
    path = make_repo(tmp_path / "repo", {
        "pom.xml": POM, ".mvn/maven.config": f"-o -B -Dmaven.repo.local={LOCAL}\n",
        SRC: CALC, TEST + "MulTest.java": MUL, ".gitignore": "target/\n"})
    assert a2a("init", cwd=path).code == 0
    gate_toml(path, '[commands]\nallow = ["mvn"]\n')
    # The local repository, which the checks read (a check sees nothing of the home but its own).
    write_user_config(world, f"[confinement]\nread = [{json.dumps(str(LOCAL))}]\n")
    return path


def _verify(repo: Path, files: dict[str, str]):
    """The card as the docs write it for Maven: the check and the red command `mvn test`,
    Surefire's reports, and `red_paths` at Maven's test folder."""
    red = (f"red_command = '{COMMAND}'\nred_report = \"{REPORT}\"\n"
           'red_paths = ["src/test/**"]\n')
    c, _ = claim(repo, {"command": COMMAND, "report": REPORT}, allowed=("src/**", "FORGE"),
                 extra=red)
    return c, submit_verify(repo, c, files)


def test_an_honest_fix_integrates(repo):
    c, v = _verify(repo, {SRC: FIXED, TEST + "AddTest.java": ADD})
    integrates(repo, c, v, "surefire")


def test_a_report_written_by_a_test_that_ends_its_jvm_is_refused(repo):
    c, v = _verify(repo, {"FORGE": "", TEST + "AddTest.java": FORGE})
    refused(v, "not_green", "exit 1", step="red")
