"""Rolling summaries: windows, the far summary, whitelisted entities over many rounds, LLM fallback, a real worker."""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from conversations.models import Message, Session, Summary
from conversations.services import MessageInput, message_ingest
from conversations.summarization.entities import extract_entities
from conversations.summarization.services import MID_KEEP, session_summarize
from facts.models import Profile
from tests.conftest import wait_until

T0 = dt.datetime(2024, 1, 1, 9, 0, tzinfo=dt.UTC)
NAMES = ["Alice Brown", "Brian Stone", "Chloe Adams", "Daniel Reed", "Emma Clarke", "Felix Grant", "Grace Hill",
         "Henry Price", "Irene Walsh", "Jack Turner", "Karen Lowe", "Liam Scott", "Mona Hayes", "Noah Ford",
         "Olivia Kerr", "Peter Lane", "Quinn Moss", "Rachel Dunn", "Sam Webb", "Tina Cole"]  # fmt: skip
FILLER = (
    "We chatted for a long while about the weather, the traffic on the way home and the general mood of the week. "
    "Nothing in particular happened, it was mostly small talk about many different ordinary things. "
    "The afternoon went by slowly and everyone seemed a bit tired but friendly enough overall."
)


def window_turns(r: int) -> list[str]:
    """Four turns carrying new whitelisted details (en and zh) among filler."""
    return [
        f"My order ORD-{7000 + r} arrived in Portland on March {r + 1}, 2024 and cost ${100 + r}.50. {FILLER}",
        f"我的订单号是DD{88000 + r}，{r % 12 + 1}月{r % 27 + 1}日在杭州花了{300 + r}元。今天天气不错，我们随便聊了聊。",
        FILLER,
        f"{FILLER} My doctor says I am allergic to penicillin and my lawyer {NAMES[r % len(NAMES)]} handles the divorce.",
    ]


def ingest_window(tenant: Any, r: int, session: str = "s1") -> None:
    base = T0 + dt.timedelta(days=r)
    items = [
        MessageInput(role="user" if i % 2 == 0 else "assistant", content=c, name="Mia" if i % 2 == 0 else "",
                     created_at=base + dt.timedelta(minutes=i))
        for i, c in enumerate(window_turns(r))
    ]  # fmt: skip
    message_ingest(tenant=tenant, subject_external_id="alice", session_external_id=session, messages=items)


def planted(r: int) -> list[str]:
    return [f"ORD-{7000 + r}", f"${100 + r}.50", f"DD{88000 + r}", f"{300 + r}元", NAMES[r % len(NAMES)]]


def far_of(session_ext: str = "s1") -> Summary | None:
    return Summary.objects.filter(session__external_id=session_ext, kind="far").first()


def assert_far_keeps_every_entity(rounds_folded: int) -> None:
    far = far_of()
    assert far is not None
    folded = Summary.objects.filter(kind="mid", covers_until__lte=far.covers_until)
    for mid in folded:
        for entity in mid.entities:
            assert entity["text"] in far.text, (far.rounds, entity)
    for r in range(rounds_folded):
        for value in planted(r):
            assert value in far.text, (far.rounds, value)
    assert "allergic to penicillin" in far.text and "杭州" in far.text and "divorce" in far.text


@pytest.mark.django_db
def test_windows_mid_and_far_summaries_keep_speakers_and_dates(alice) -> None:  # type: ignore[no-untyped-def]
    for r in range(10):  # 40 turns: 8 recent, 8 windows older; the 2 oldest fold into the far summary
        ingest_window(alice.tenant, r)
    session = Session.objects.get(external_id="s1")
    result = session_summarize(session_id=session.pk)
    assert result.mid_created == 8 and result.far_rounds == 1
    mids = list(Summary.objects.filter(session=session, kind="mid").order_by("covers_until"))
    newest_recent = list(Message.objects.filter(session=session).order_by("-created_at")[:8])
    assert all(m.last_message.created_at < min(x.created_at for x in newest_recent) for m in mids)
    assert mids[0].text.startswith("[2024-01-01] Mia:")
    assert all(m.tokens < sum(len(x.content) for x in [m.first_message]) for m in mids)  # shorter than its turns
    far = far_of()
    assert far is not None and far.message_count == 8 and far.rounds == 1
    assert far.covers_until == mids[1].covers_until
    assert_far_keeps_every_entity(2)
    # Running again changes nothing (tasks may be delivered twice).
    again = session_summarize(session_id=session.pk)
    assert again.mid_created == 0 and again.far_rounds == 0
    assert Summary.objects.filter(session=session).count() == 9


@pytest.mark.django_db
def test_whitelisted_entities_survive_twelve_rounds_of_resummarising(alice) -> None:  # type: ignore[no-untyped-def]
    rounds = 12
    for r in range(rounds + MID_KEEP + 2):
        ingest_window(alice.tenant, r)
        session_summarize(session_id=Session.objects.get(external_id="s1").pk)
        far = far_of()
        if far is not None:
            assert_far_keeps_every_entity(far.message_count // 4)
    far = far_of()
    assert far is not None and far.rounds >= 10
    assert far.summarizer == "extractive"
    for r in range(far.message_count // 4):
        assert {f"ORD-{7000 + r}", f"DD{88000 + r}"} <= {e["text"] for e in far.entities}


class FakeLlm:
    """A real local HTTP server speaking the OpenAI chat protocol; `mode` picks its behaviour."""

    def __init__(self) -> None:
        self.mode = "drop_entities"
        self.calls = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length", 0))
                self.rfile.read(length)
                outer.calls += 1
                if outer.mode == "error":
                    self.send_response(500)
                    self.end_headers()
                    self.wfile.write(b'{"error": {"message": "boom"}}')
                    return
                content = "[2024] User: They talked about their week and some personal matters."
                if outer.mode == "empty":
                    content = ""
                body = {
                    "id": "x", "object": "chat.completion", "created": 0, "model": "fake",
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": content}}],
                }  # fmt: skip
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def fake_llm(settings: Any) -> Iterator[FakeLlm]:
    llm = FakeLlm()
    settings.LLM_BASE_URL = llm.url
    settings.LLM_TIMEOUT = 5.0
    yield llm
    llm.server.shutdown()


@pytest.mark.django_db
def test_llm_summariser_that_drops_entities_still_keeps_them(alice, fake_llm) -> None:  # type: ignore[no-untyped-def]
    for r in range(10 + MID_KEEP + 2):
        ingest_window(alice.tenant, r)
        session_summarize(session_id=Session.objects.get(external_id="s1").pk)
    far = far_of()
    assert far is not None and far.rounds >= 10
    assert far.summarizer == "llm" and far.fallback_reason == ""
    assert "talked about their week" in far.text  # the LLM's own words are used...
    assert_far_keeps_every_entity(far.message_count // 4)  # ...and every whitelisted entity is re-appended
    assert fake_llm.calls > 10


@pytest.mark.django_db
@pytest.mark.parametrize("mode", ["error", "empty"])
def test_llm_failure_falls_back_to_extractive_and_says_why(alice, fake_llm, mode) -> None:  # type: ignore[no-untyped-def]
    fake_llm.mode = mode
    for r in range(4):
        ingest_window(alice.tenant, r)
    session_summarize(session_id=Session.objects.get(external_id="s1").pk)
    mids = list(Summary.objects.filter(kind="mid"))
    assert len(mids) == 2
    for mid in mids:
        assert mid.summarizer == "extractive"
        assert mid.fallback_reason  # recorded why
        assert "ORD-" in mid.text and "Mia:" in mid.text


def test_entity_rules_find_details_in_both_languages() -> None:
    en = {e.text: e.kind for e in extract_entities(window_turns(3)[0] + " " + window_turns(3)[3])}
    assert en["ORD-7003"] == "order" and en["$103.50"] == "amount" and en["March 4, 2024"] == "date"
    assert en["Portland"] in {"name", "place"} and en["allergic to penicillin"] == "medical"
    assert en["divorce"] == "legal" and en["Daniel Reed"] == "name"
    zh = {
        e.text: e.kind
        for e in extract_entities("我的订单号是DD88003，4月5日在杭州花了303元。王小明对青霉素过敏，正在打离婚官司。")
    }
    assert zh["DD88003"] == "order" and zh["4月5日"] == "date" and zh["杭州"] == "place" and zh["303元"] == "amount"
    assert zh["王小明"] == "name" and zh["对青霉素过敏"] == "medical" and zh["离婚"] == "legal"


@pytest.mark.django_db(transaction=True)
@pytest.mark.celery_worker
def test_ingest_enqueues_summaries_and_a_real_worker_builds_them(alice, celery_worker_process) -> None:  # type: ignore[no-untyped-def]
    turns = [c for r in range(4) for c in window_turns(r)]  # 16 turns: 2 windows older than the 8 recent
    messages = [{"role": "user", "content": c, "name": "Mia"} for c in turns]
    response = alice.post("messages", {"session_id": "w1", "messages": messages})
    assert response.status_code == 202
    assert wait_until(lambda: Summary.objects.filter(session__external_id="w1", kind="mid").count() == 2, timeout=90)
    texts = " ".join(Summary.objects.filter(session__external_id="w1").values_list("text", flat=True))
    assert "ORD-7000" in texts and "DD88001" in texts
    # Extraction on the worker schedules a profile rebuild, which the same worker runs (facts.context.tasks).
    assert wait_until(lambda: Profile.objects.filter(subject__external_id="alice", stale=False).exists(), timeout=90)
    assert "penicillin" in Profile.objects.get(subject__external_id="alice").text
