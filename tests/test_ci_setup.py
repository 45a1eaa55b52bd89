"""``.ci/setup`` on a machine it must not change: it runs on a copy of the checkout with a
fake ``apt-get``, ``dpkg-query`` and Python first on PATH, which log what they were asked
and play a package manager whose lock another process holds, or a Debian without venv."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="the script is bash")

LOCK_ERROR = (
    "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)\n"
    "E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), "
    "is another process using it?"
)

# apt-get: log the call; fail with the lock error while the counter says the lock is held
FAKE_APT_GET = f"""#!/bin/bash
echo "apt-get $*" >> "$FAKE_LOG"
n=$(cat "$FAKE_DIR/held" 2>/dev/null || echo 0)
if [ "$n" -gt 0 ]; then
  echo $((n - 1)) > "$FAKE_DIR/held"
  echo "{LOCK_ERROR}" >&2
  exit 100
fi
if [ -n "${{FAKE_APT_FAIL:-}}" ]; then echo "$FAKE_APT_FAIL" >&2; exit 100; fi
case "$*" in  # apt's progress when it had to wait for the lock itself
  *Lock::Timeout=0*) ;; *) echo "Waiting for cache lock: Could not get lock ..." >&2 ;;
esac
exit 0
"""

# dpkg-query -W -f=...: every package is installed except those named in $FAKE_MISSING
FAKE_DPKG_QUERY = """#!/bin/bash
echo "dpkg-query $*" >> "$FAKE_LOG"
shift 2
for p in "$@"; do
  case " $FAKE_MISSING " in *" $p "*) ;; *) echo "$p install ok installed" ;; esac
done
"""

# a Python whose venv module lacks ensurepip (Debian without python3-venv)
FAKE_PYTHON = """#!/bin/bash
echo "python $*" >> "$FAKE_LOG"
case "$*" in
  *"import ensurepip"*) exit 1 ;;
  *version_info*) echo 3.11 ;;
  "-m venv .venv") mkdir -p .venv/bin && cp "$FAKE_DIR/venv-python" .venv/bin/python ;;
esac
"""

FAKE_VENV_PYTHON = """#!/bin/bash
echo "venv-python $*" >> "$FAKE_LOG"
"""


@dataclass
class Machine:
    repo: Path
    fakes: Path
    log: Path
    env: dict[str, str]

    def run(self, **env: str) -> subprocess.CompletedProcess[str]:
        self.log.write_text("")
        return subprocess.run(
            ["bash", str(self.repo / ".ci" / "setup")],
            capture_output=True,
            text=True,
            timeout=60,
            env={**self.env, **env},
            stdin=subprocess.DEVNULL,
        )

    def calls(self, program: str) -> list[str]:
        return [line for line in self.log.read_text().splitlines() if line.startswith(program)]

    def hold_lock(self, tries: int) -> None:
        (self.fakes / "held").write_text(str(tries))


def _script(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(0o755)


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    repo = tmp_path / "repo"
    (repo / ".ci").mkdir(parents=True)
    shutil.copy2(REPO / ".ci" / "setup", repo / ".ci" / "setup")
    (repo / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    fakes = tmp_path / "bin"
    fakes.mkdir()
    _script(fakes / "apt-get", FAKE_APT_GET)
    _script(fakes / "dpkg-query", FAKE_DPKG_QUERY)
    _script(fakes / "python3", FAKE_PYTHON)
    _script(fakes / "sudo", '#!/bin/bash\nexec "$@"\n')
    _script(fakes / "venv-python", FAKE_VENV_PYTHON)
    # an installed venv, unless a test removes it
    (repo / ".venv" / "bin").mkdir(parents=True)
    shutil.copy2(fakes / "venv-python", repo / ".venv" / "bin" / "python")
    stamp = repo / ".venv" / ".koikoi-installed"
    stamp.touch()
    later = time.time() + 10
    os.utime(stamp, (later, later))
    log = tmp_path / "calls.log"
    env = {
        "PATH": f"{fakes}:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "FAKE_LOG": str(log),
        "FAKE_DIR": str(fakes),
        "FAKE_MISSING": "",
    }
    return Machine(repo, fakes, log, env)


def test_the_script_parses() -> None:
    proc = subprocess.run(["bash", "-n", str(REPO / ".ci" / "setup")], capture_output=True)
    assert proc.returncode == 0, proc.stderr


def test_a_held_lock_is_waited_for_with_one_line_then_the_install_goes_on(
    machine: Machine,
) -> None:
    machine.hold_lock(2)
    proc = machine.run(FAKE_MISSING="fonts-noto-cjk xvfb")
    assert proc.returncode == 0, proc.stderr
    waiting = [line for line in proc.stderr.splitlines() if "waiting" in line]
    assert waiting == [
        "setup: another package manager holds the lock (held by process 4242 (apt-get)); "
        "waiting up to 600s for it"
    ]
    assert "Could not get lock" not in proc.stderr  # nor apt's own error and progress
    calls = machine.calls("apt-get")
    assert len(calls) == 4  # two refused, then update and install
    assert "DPkg::Lock::Timeout=0 update" in calls[0]  # the first try says at once
    assert all("DPkg::Lock::Timeout=60 " in call for call in calls[1:3])  # apt waits too
    assert calls[-1].endswith("install -y -qq fonts-noto-cjk xvfb")


def test_a_lock_never_released_ends_in_one_clear_line(machine: Machine) -> None:
    machine.hold_lock(1000)
    proc = machine.run(FAKE_MISSING="xvfb", KOIKOI_APT_LOCK_WAIT="2")
    assert proc.returncode == 100
    assert proc.stderr.count("waiting up to 2s") == 1
    assert (
        proc.stderr.strip()
        .splitlines()[-1]
        .startswith("setup: the package manager was still busy after ")
    )
    assert not machine.calls("venv-python")  # it stopped there


def test_another_apt_failure_is_not_waited_for(machine: Machine) -> None:
    proc = machine.run(FAKE_MISSING="xvfb", FAKE_APT_FAIL="E: Unable to locate package xvfb")
    assert proc.returncode == 100
    assert "waiting" not in proc.stderr
    assert "E: Unable to locate package xvfb" in proc.stderr
    assert (
        proc.stderr.strip().splitlines()[-1]
        == "setup: 'apt-get update' failed (exit 100); see above"
    )
    assert len(machine.calls("apt-get")) == 1


def test_a_python_without_ensurepip_gets_python3_venv_before_the_venv_is_made(
    machine: Machine,
) -> None:
    shutil.rmtree(machine.repo / ".venv")
    proc = machine.run(FAKE_MISSING="python3-venv python3.11-venv")
    assert proc.returncode == 0, proc.stderr
    assert "installing system packages: python3-venv python3.11-venv" in proc.stderr
    log = machine.log.read_text().splitlines()
    install = log.index(
        "apt-get -o DPkg::Lock::Timeout=0 install -y -qq python3-venv python3.11-venv"
    )
    assert install < log.index("python -m venv .venv")
    assert "venv-python -m pip install -q -e .[test]" in log
    assert (machine.repo / ".venv" / ".koikoi-installed").is_file()


def test_a_second_run_installs_nothing(machine: Machine) -> None:
    proc = machine.run()
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert machine.calls("apt-get") == []
    assert machine.calls("venv-python") == []
    assert machine.calls("python ") == []  # a venv is there: ensurepip is not asked about
    assert len(machine.calls("dpkg-query")) == 1  # one query for all the packages
