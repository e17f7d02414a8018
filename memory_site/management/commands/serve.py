"""Run the whole service: migrate, demo data, web server, Celery worker and beat, until Ctrl-C or SIGTERM.

Without DATABASE_URL and CELERY_BROKER_URL it also runs the embedded PostgreSQL and the embedded broker (settings
start them). Every part is supervised (memory_site/supervisor.py): a part that dies is started again, with backoff;
stopping stops the embedded servers too and returns once they are gone.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser
from django.db import connections

from memory_site import filelock
from memory_site.supervisor import Child, Embedded, Supervisor, logger

# How each web worker serves: threads, and a client's connection kept alive between its requests (gunicorn's
# keep-alive, 2 s). The benches start their gunicorn with the same arguments (bench/common.py).
WEB_WORKER_ARGS = ("--worker-class", "gthread", "--threads", "4")


class Command(BaseCommand):
    help = "Serve Memory Site on 127.0.0.1:PORT with a Celery worker and beat; stop everything on exit."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--web-workers", type=int, default=int(os.environ.get("WEB_WORKERS", "2")))
        parser.add_argument("--concurrency", type=int, default=int(os.environ.get("WORKER_CONCURRENCY", "2")))

    def handle(self, *args: Any, **options: Any) -> None:
        embedded = _embedded_servers()
        if not embedded:
            self._serve(options, embedded)
            return
        # One `serve` at a time owns the embedded servers under var/: a new one waits for an old one that is stopping
        # to exit (its servers gone), then starts fresh ones. Settings attached this process to the old servers
        # before this point; their URLs (unix sockets under var/) stay the same.
        note = f"waiting for the previous `serve` on {settings.VAR_DIR} to stop"
        with filelock.exclusive(settings.VAR_DIR / ".serve.lock", waiting=note):
            connections.close_all()
            for server in embedded:
                server.start()
            self._serve(options, embedded)

    def _serve(self, options: dict[str, Any], embedded: list[Embedded]) -> None:
        call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        if settings.PRODUCTION:
            self.stdout.write("PRODUCTION is set: no demo user or key (create_api_key, createsuperuser)")
        else:
            call_command("bootstrap_demo")
        env = {**os.environ, "CELERY_BROKER_URL": settings.CELERY_BROKER_URL}
        if not os.environ.get("DATABASE_URL"):
            # Children share the embedded server this process started (same ./var/pgdata).
            from memory_site import embedded_db

            env["DATABASE_URL"] = embedded_db.database_url()
        supervisor = Supervisor(
            children=_children(options), embedded=embedded, env=env, worker_ok=_worker_ok,
            worker_grace=max(60.0, float(settings.EXTRACTION_STALLED_AFTER_SECONDS)),
        )  # fmt: skip
        stopping = False

        def stop(signum: int, frame: Any) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        supervisor.start()
        self.stdout.write(f"Memory Site on http://{options['host']}:{options['port']}/ (Ctrl-C to stop)")
        self.stdout.flush()
        parent = os.getppid()
        try:
            while not stopping:
                if os.getppid() != parent:
                    # Our parent (make, a shell) died without passing the signal on: stop too.
                    logger.error("parent process exited; stopping")
                    break
                supervisor.poll()
                time.sleep(0.5)
        finally:
            self.stdout.write("Stopping...")
            self.stdout.flush()
            supervisor.stop()
            self.stdout.write("Stopped.")


def _children(options: dict[str, Any]) -> list[Child]:
    python = sys.executable
    return [
        Child("web", [
            python, "-m", "gunicorn", "memory_site.wsgi:application",
            "--bind", f"{options['host']}:{options['port']}",
            "--workers", str(options["web_workers"]), *WEB_WORKER_ARGS,
            "--access-logfile", "-", "--graceful-timeout", "10",
            "--logger-class", "memory_site.accesslog.QuietLogger",  # user ids hashed, no query words
        ]),
        Child("worker", [
            python, "-m", "celery", "-A", "memory_site", "worker", "--loglevel", "INFO",
            "--concurrency", str(options["concurrency"]), "--hostname", f"worker-{os.getpid()}@%h",
        ]),
        Child("beat", [
            python, "-m", "celery", "-A", "memory_site", "beat", "--loglevel", "INFO",
            "--schedule", str(settings.VAR_DIR / "celerybeat-schedule"),
        ]),
    ]  # fmt: skip


def _embedded_servers() -> list[Embedded]:
    """The embedded servers this `serve` owns: the broker, then PostgreSQL (stopped in that order)."""
    servers = []
    if not os.environ.get("CELERY_BROKER_URL"):
        from memory_site import embedded_broker

        var = settings.VAR_DIR
        servers.append(Embedded(
            "broker", is_running=lambda: embedded_broker.server_pid(var) is not None,
            start=lambda: embedded_broker.start(var), stop=lambda: embedded_broker.stop(var),
            lock=lambda: embedded_broker.locked(var),
        ))  # fmt: skip
    if not os.environ.get("DATABASE_URL"):
        from memory_site import embedded_db

        servers.append(Embedded(
            "PostgreSQL", is_running=embedded_db.is_running, start=embedded_db.database_url,
            stop=embedded_db.stop, lock=embedded_db.locked,
        ))  # fmt: skip
    return servers


def _worker_ok() -> bool | None:
    """The health check's verdict on the worker (None when the database cannot tell now)."""
    from django.db import close_old_connections

    from memory_site.health import extraction_status

    close_old_connections()
    status = extraction_status()
    if "error" in status:
        return None
    return bool(status["ok"])
