"""`manage.py serve` as a user runs it, in a subprocess of its own: its own port, var directory and queue.

The fault tests drive it through HTTP, look at its processes through /proc and stop it with a signal, as an
operator would; nothing here reaches into the service's internals.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _ppid(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def children_of(pid: int) -> list[int]:
    """The live child processes of `pid` (zombies included until reaped)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and _ppid(int(entry.name)) == pid:
            out.append(int(entry.name))
    return sorted(out)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@dataclass
class ServeStack:
    """One `manage.py serve` subprocess; `env` overrides the caller's environment (None removes a variable)."""

    var_dir: Path
    env: dict[str, str | None] = field(default_factory=dict)
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None
    log_path: Path | None = None
    web_workers: int = 1

    def start(self) -> ServeStack:
        self.var_dir.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "PORT": str(self.port), "MEMORY_SITE_VAR_DIR": str(self.var_dir)}
        for key, value in self.env.items():
            if value is None:
                env.pop(key, None)
            else:
                env[key] = value
        self.log_path = self.var_dir / f"serve-{self.port}-{int(time.time() * 1000)}.log"
        log = open(self.log_path, "wb")  # noqa: SIM115 (the child writes to it; closed below)
        self.proc = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--web-workers", str(self.web_workers)],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        log.close()
        return self

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path else ""

    def request(self, method: str, path: str, body: Any = None, key: str | None = None) -> tuple[int, Any]:
        """One HTTP request; (status, parsed JSON or text); status 0 when nothing answers."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        req = urllib.request.Request(self.base_url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                status, raw = resp.status, resp.read()
        except urllib.error.HTTPError as exc:
            status, raw = exc.code, exc.read()
        except OSError:
            return 0, None
        try:
            return status, json.loads(raw) if raw else None
        except ValueError:
            return status, raw.decode(errors="replace")

    def healthz(self) -> int:
        return self.request("GET", "/healthz")[0]

    def wait_healthy(self, timeout: float = 240.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise AssertionError(f"serve exited with {self.proc.returncode}:\n{self.log()[-4000:]}")
            if self.healthz() == 200:
                return
            time.sleep(0.5)
        raise AssertionError(f"serve did not become healthy in {timeout} s:\n{self.log()[-4000:]}")

    def child(self, word: str) -> int | None:
        """The pid of serve's child whose command line holds `word` (gunicorn, worker, beat, valkey)."""
        assert self.proc is not None
        for pid in children_of(self.proc.pid):
            if word in _cmdline(pid) and alive(pid):
                return pid
        return None

    def pool_processes(self) -> list[int]:
        """The worker's pool processes (the prefork children of the Celery worker)."""
        worker = self.child(" worker ")
        return [pid for pid in children_of(worker) if alive(pid)] if worker else []

    def stop(self, *, wait: bool = True, timeout: float = 90.0) -> int | None:
        """SIGTERM to serve alone (as a process manager sends it); wait for it to exit when asked."""
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else None
        self.proc.send_signal(signal.SIGTERM)
        if not wait:
            return None
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            raise AssertionError(f"serve did not stop in {timeout} s:\n{self.log()[-4000:]}") from None


def database_url(settings_dict: dict[str, Any]) -> str:
    """A libpq URL of the database Django's connection settings name (the test database, in tests)."""
    from urllib.parse import quote

    host = settings_dict.get("HOST") or ""
    user = settings_dict.get("USER") or "postgres"
    port = settings_dict.get("PORT") or "5432"
    password = settings_dict.get("PASSWORD") or ""
    if host.startswith("/"):
        host = quote(host, safe="")
    return f"postgresql://{user}:{password}@{host}:{port}/{settings_dict['NAME']}"


@dataclass
class WorkerProcess:
    """A Celery worker of its own (queue, hostname, log) on a given broker and database."""

    queue: str
    broker: str
    db_url: str
    log_path: Path
    consume: str = ""  # the queues it takes tasks from (default: its own queue)
    env: dict[str, str] = field(default_factory=dict)
    proc: subprocess.Popen[bytes] | None = None

    def start(self) -> WorkerProcess:
        env = {**os.environ, "DATABASE_URL": self.db_url, "CELERY_BROKER_URL": self.broker,
               "CELERY_QUEUE": self.queue, **self.env}  # fmt: skip
        log = open(self.log_path, "ab")  # noqa: SIM115 (the child writes to it; closed below)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "memory_site", "worker", "--loglevel", "INFO",
             "--concurrency", "2", "--pool", "prefork", "--hostname", f"{self.queue}@%h",
             "--queues", self.consume or self.queue],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        log.close()
        return self

    def stop(self, timeout: float = 60.0) -> None:
        """A warm shutdown (SIGTERM), as a process manager stops it; SIGKILL if it hangs."""
        if self.proc is None or self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)


@contextmanager
def own_directory(name: str) -> Iterator[Path]:
    """A fresh directory under the project's var/ for a stack's own data, removed afterwards.

    Not under pytest's temporary tree: pytest makes its root private (0700) at each session's start, including
    other sessions' on the same machine, and the embedded PostgreSQL runs as another user who must reach its data.
    """
    path = ROOT / "var" / "tests" / f"{name}-{os.getpid()}-{os.urandom(3).hex()}"
    path.mkdir(parents=True)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
