"""Run the whole service: migrate, demo data, web server, Celery worker and beat, until Ctrl-C or SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = "Serve Memory Site on 127.0.0.1:PORT with a Celery worker and beat; stop everything on exit."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--web-workers", type=int, default=int(os.environ.get("WEB_WORKERS", "2")))
        parser.add_argument("--concurrency", type=int, default=int(os.environ.get("WORKER_CONCURRENCY", "2")))

    def handle(self, *args: Any, **options: Any) -> None:
        call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        call_command("bootstrap_demo")
        python = sys.executable
        env = {**os.environ}
        if not os.environ.get("DATABASE_URL"):
            # Children share the embedded server this process started (same ./var/pgdata).
            env["DATABASE_URL"] = _database_url()
        commands = {
            "web": [
                python, "-m", "gunicorn", "memory_site.wsgi:application",
                "--bind", f"{options['host']}:{options['port']}",
                "--workers", str(options["web_workers"]), "--threads", "4",
                "--access-logfile", "-", "--graceful-timeout", "10",
            ],
            "worker": [
                python, "-m", "celery", "-A", "memory_site", "worker", "--loglevel", "INFO",
                "--concurrency", str(options["concurrency"]), "--hostname", f"worker-{os.getpid()}@%h",
            ],
            "beat": [
                python, "-m", "celery", "-A", "memory_site", "beat", "--loglevel", "INFO",
                "--schedule", str(settings.VAR_DIR / "celerybeat-schedule"),
            ],
        }  # fmt: skip
        children: dict[str, subprocess.Popen[bytes]] = {}
        stopping = False

        def stop(signum: int, frame: Any) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        for name, cmd in commands.items():
            children[name] = subprocess.Popen(cmd, env=env, start_new_session=True)
        self.stdout.write(f"Memory Site on http://{options['host']}:{options['port']}/ (Ctrl-C to stop)")
        parent = os.getppid()
        try:
            while not stopping:
                if os.getppid() != parent:
                    # Our parent (make, a shell) died without passing the signal on: stop too.
                    self.stderr.write("parent process exited; stopping")
                    stopping = True
                for name, child in children.items():
                    if child.poll() is not None:
                        self.stderr.write(f"{name} exited with {child.returncode}; stopping")
                        stopping = True
                time.sleep(0.5)
        finally:
            for child in children.values():
                if child.poll() is None:
                    os.killpg(child.pid, signal.SIGTERM)
            deadline = time.monotonic() + 15
            for child in children.values():
                try:
                    child.wait(timeout=max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    os.killpg(child.pid, signal.SIGKILL)
            if not os.environ.get("DATABASE_URL"):
                from memory_site import embedded_db

                embedded_db.stop()
            self.stdout.write("Stopped.")


def _database_url() -> str:
    from memory_site import embedded_db

    return embedded_db.database_url()
