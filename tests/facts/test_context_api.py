"""POST /users/{user}/context and the profile: what an agent developer sees."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction
from django.utils import timezone

from conversations.models import Message, Session, Subject
from conversations.summarization.services import session_summarize
from facts.models import ContextCall, Fact, Profile
from facts.profile import profile_build, profile_schedule_rebuild, profiles_due
from facts.services import messages_extract
from facts.tokens import count_tokens

T0 = dt.datetime(2024, 2, 1, 9, 0, tzinfo=dt.UTC)
TOPICS = ["the garden", "a new recipe", "the football match", "a hiking trip", "the book club", "office plans"]


def filler(i: int) -> str:
    topic = TOPICS[i % len(TOPICS)]
    return (
        f"Turn {i}: we talked at length about {topic}, how the week went, what the neighbours said about it, "
        f"and whether the weather would hold up for the weekend; nothing was decided and we agreed to talk again "
        f"later about {topic} and the other small things that kept coming up during the conversation number {i}."
    )


def post_turns(persona, turns: list[str], session: str = "s1", name: str = "Alice") -> list[int]:  # type: ignore[no-untyped-def]
    messages = [
        {"role": "user" if i % 2 == 0 else "assistant", "content": c, "name": name if i % 2 == 0 else "",
         "created_at": (T0 + dt.timedelta(hours=i)).isoformat(), "external_id": f"{session}-t{i + 1}"}
        for i, c in enumerate(turns)
    ]  # fmt: skip
    ids: list[int] = []
    for start in range(0, len(messages), 100):
        body = persona.post("messages", {"session_id": session, "messages": messages[start : start + 100]})
        assert body.status_code == 202, body.content
        ids += [m["id"] for m in body.json()["messages"]]
    return ids


def make_fact(subject: Subject, text: str, type_: str = "other", **kw) -> Fact:  # type: ignore[no-untyped-def]
    return Fact.objects.create(tenant_id=subject.tenant_id, subject=subject, text=text, type=type_, **kw)


@pytest.mark.django_db
def test_recent_turns_come_back_verbatim_in_order_with_dates(alice) -> None:  # type: ignore[no-untyped-def]
    turns = ["I moved to 海淀区 last month.", "好的，我记住了。", "My order ORD-5521 is late!", "抱歉，我们会跟进。"]
    post_turns(alice, turns)
    response = alice.post("context", {"session_id": "s1"})
    assert response.status_code == 200
    body = response.json()
    assert [r["content"] for r in body["sections"]["recent"]] == turns
    text = body["context"]
    positions = [text.index(t) for t in turns]
    assert positions == sorted(positions)
    assert "[2024-02-01 09:00] Alice (user): I moved to 海淀区 last month." in text
    assert body["tokens"] == count_tokens(text) <= 2000
    assert body["full_history_tokens"] >= sum(count_tokens(t) for t in turns)
    call = ContextCall.objects.get()
    assert (call.tokens, call.full_history_tokens, call.token_budget) == (
        body["tokens"],
        body["full_history_tokens"],
        2000,
    )
    assert call.api_key is not None and call.api_key.name == "alice"


@pytest.mark.django_db
@pytest.mark.parametrize("budget", [50, 120, 400, 2000])
def test_token_budget_is_respected_through_the_api(alice, budget) -> None:  # type: ignore[no-untyped-def]
    post_turns(alice, [filler(i) for i in range(30)])
    session_summarize(session_id=Session.objects.get(external_id="s1").pk)
    body = alice.post("context", {"query": "football", "token_budget": budget}).json()
    assert body["tokens"] <= budget and body["tokens"] == count_tokens(body["context"])
    if budget >= 400:
        assert body["sections"]["recent"][-1]["content"] == filler(29)


@pytest.mark.django_db
def test_long_history_context_costs_under_ten_percent_and_keeps_a_turn_3_fact(alice) -> None:  # type: ignore[no-untyped-def]
    turns = [filler(i) for i in range(220)]
    turns[2] = "Remember this: I am allergic to penicillin, my doctor Dr. Chen confirmed it on 2024-02-01."
    ids = post_turns(alice, turns)
    messages_extract(message_ids=ids)  # what the worker does after ingest
    session_summarize(session_id=Session.objects.get(external_id="s1").pk)
    body = alice.post("context", {"query": "Which medicine is Alice allergic to?", "token_budget": 1000}).json()
    assert body["full_history_tokens"] > 10000
    assert body["tokens"] < 0.10 * body["full_history_tokens"]
    assert "penicillin" in body["context"]
    turn3 = Message.objects.get(external_id="s1-t3")
    assert any(
        "penicillin" in f["text"] and turn3.pk in [s["message_id"] for s in f["sources"]]
        for f in body["sections"]["facts"]
    )
    assert [r["content"] for r in body["sections"]["recent"]][-1] == turns[-1]
    # With more room the far summary appears too, and it kept turn 3's whitelisted details verbatim.
    wide = alice.post("context", {"query": "Which medicine is Alice allergic to?", "token_budget": 4000}).json()
    far = [s for s in wide["sections"]["summaries"] if s["kind"] == "far"]
    assert far and "allergic to penicillin" in far[0]["text"] and "Dr. Chen" in far[0]["text"]
    assert wide["tokens"] <= 4000


@pytest.mark.django_db
def test_chinese_history_gets_facts_and_summaries_in_context(alice) -> None:  # type: ignore[no-untyped-def]
    turns = ["我对青霉素过敏，医生在3月5日确认了。"] + [
        f"第{i}轮：今天我们聊了聊天气和周末的安排，没有什么特别的事情。" for i in range(1, 24)
    ]
    ids = post_turns(alice, turns, name="小王")
    messages_extract(message_ids=ids)
    session_summarize(session_id=Session.objects.get(external_id="s1").pk)
    body = alice.post("context", {"query": "我对什么过敏？", "token_budget": 1500}).json()
    assert "青霉素" in body["context"] and body["tokens"] <= 1500
    assert any("青霉素" in s["text"] and "对青霉素过敏" in s["entities"] for s in body["sections"]["summaries"])
    assert body["sections"]["recent"][-1]["content"] == turns[-1]


@pytest.mark.django_db
def test_profile_holds_current_facts_by_type_and_never_superseded_ones(alice) -> None:  # type: ignore[no-untyped-def]
    alice.ingest("hello", wait=False)
    subject = Subject.objects.get(external_id="alice")
    now = timezone.now()
    make_fact(subject, "Alice lives in 朝阳区.", "profile", status="superseded", valid_to=now)
    make_fact(subject, "Alice lives in 海淀区.", "profile", valid_from=now)
    make_fact(subject, "Alice is allergic to penicillin.", "health", importance=0.9)
    make_fact(subject, "Alice prefers tea over coffee.", "preference")
    make_fact(subject, "Alice's order ORD-77 arrived broken.", "complaint")
    make_fact(subject, "Alice asked about the 2019 tariff.", "inquiry", tier="archived")
    make_fact(subject, "Alice has a dentist visit tomorrow.", "event", expires_at=now - dt.timedelta(days=1))
    make_fact(subject, "Alice's sister is 李娜.", "relationship", status="conflicted")
    profile = profile_build(subject)
    assert "海淀区" in profile.text and "朝阳区" not in profile.text
    assert "2019 tariff" not in profile.text and "dentist" not in profile.text
    assert "李娜. (disputed)" in profile.text[profile.text.index("Relationships:") :]
    assert profile.text.index("Identity:") < profile.text.index("Health:") < profile.text.index("Preferences:")
    assert set(profile.sections) == {"identity", "health", "preferences", "relationships", "open_complaints"}
    assert profile.tokens == count_tokens(profile.text) <= 500 and not profile.stale
    # A fact changes: the profile is marked stale and the next context shows the new truth.
    with transaction.atomic():
        Fact.objects.filter(text__contains="海淀区").update(status="superseded", valid_to=now)
        make_fact(subject, "Alice lives in 西城区.", "profile")
        profile_schedule_rebuild(subject_id=subject.pk)
    assert Profile.objects.get(subject=subject).stale
    body = alice.post("context", {"query": "where does Alice live"}).json()
    assert "西城区" in body["sections"]["profile"] and "海淀区" not in body["sections"]["profile"]
    assert "朝阳区" not in body["context"]


@pytest.mark.django_db
def test_profile_stays_near_500_tokens_with_many_facts(alice) -> None:  # type: ignore[no-untyped-def]
    alice.ingest("hello", wait=False)
    subject = Subject.objects.get(external_id="alice")
    for i in range(120):
        make_fact(subject, f"Alice mentioned detail number {i} about her plans for the {TOPICS[i % 6]}.", "event")
    make_fact(subject, "Alice is diabetic and takes 20mg of insulin daily.", "health")
    profile = profile_build(subject)
    assert 300 < profile.tokens <= 500
    assert "insulin" in profile.text  # every section gets its turn before any section takes a second line


@pytest.mark.django_db
def test_context_of_another_tenant_or_unknown_user_is_404(alice, bob, carol) -> None:  # type: ignore[no-untyped-def]
    post_turns(alice, ["My order ORD-1 is late."])
    for persona, user in [(carol, "alice"), (alice, "nobody")]:
        response = persona.post("context", {"query": "order"}, user=user)
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "not_found"
    assert bob.post("context", {"query": "order"}, user="alice").status_code == 200  # same tenant A
    assert ContextCall.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    "payload",
    [{"token_budget": 0}, {"token_budget": 10}, {"token_budget": 10**7}, {"token_budget": "lots"},
     {"query": ["a"]}, {"session_id": {"x": 1}}, {"query": "x" * 2001}],
)  # fmt: skip
def test_bad_context_input_is_a_clear_400(alice, payload) -> None:  # type: ignore[no-untyped-def]
    post_turns(alice, ["hello there"])
    response = alice.post("context", payload)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid" and error["details"]


@pytest.mark.django_db
def test_unknown_session_still_gives_facts_and_profile(alice) -> None:  # type: ignore[no-untyped-def]
    ids = post_turns(alice, ["I am allergic to penicillin."])
    messages_extract(message_ids=ids)
    body = alice.post("context", {"query": "allergy penicillin", "session_id": "new-one"}).json()
    assert body["sections"]["recent"] == [] and "penicillin" in body["context"]


@pytest.mark.django_db
def test_daily_rebuild_picks_missing_stale_and_old_profiles(alice) -> None:  # type: ignore[no-untyped-def]
    alice.ingest("hello", wait=False)
    subject = Subject.objects.get(external_id="alice")
    make_fact(subject, "Alice prefers tea.", "preference")
    assert profiles_due(older_than=dt.timedelta(hours=23)) == [subject.pk]  # no profile yet
    profile_build(subject)
    assert profiles_due(older_than=dt.timedelta(hours=23)) == []
    Profile.objects.filter(subject=subject).update(built_at=timezone.now() - dt.timedelta(days=2))
    assert profiles_due(older_than=dt.timedelta(hours=23)) == [subject.pk]


# --- relevant earlier turns: evidence that lives only in a raw turn -----------------------------------------------

CHATTER_CASES = [
    pytest.param(
        "lol so yesterday we finally tried that tiny ramen shop on Elm Street with the red lanterns, the broth was ok",
        "Which ramen shop did we try?",
        "ramen shop on Elm Street",
        "Alice",
        id="en",
    ),
    pytest.param(
        "哈哈，昨天我们终于去了榆树街那家挂红灯笼的小拉面馆，汤还行吧",
        "我们去了哪家拉面馆？",
        "榆树街那家挂红灯笼的小拉面馆",
        "小王",
        id="zh",
    ),
    pytest.param(  # no word in common: found by e5's vector, kept by the Chinese models' relevance
        "哈哈，跟你说个事，我学了三年的大提琴，上个月终于考过八级了",
        "我的乐器水平怎么样了？",
        "大提琴",
        "小王",
        id="zh-no-shared-word",
    ),
]


def zh_filler(i: int) -> str:
    return f"第{i}轮：今天我们聊了聊天气和周末的安排，邻居也说了几句，没有什么特别的事情，改天再聊。"


def chatter_history(persona, evidence: str, name: str, chinese: bool) -> list[int]:  # type: ignore[no-untyped-def]
    """The evidence at turn 3 of 40, far from the recent turns, searchable as a raw turn and stored as no fact."""
    turns = [(zh_filler if chinese else filler)(i) for i in range(40)]
    turns[2] = evidence
    ids = post_turns(persona, turns, name=name)
    messages_extract(message_ids=ids)  # what the worker does after ingest: the turns become searchable
    Fact.objects.filter(subject__external_id=persona.name).delete()  # whatever the gate kept: the turn alone
    return ids


@pytest.mark.django_db
@pytest.mark.parametrize(("evidence", "query", "needle", "name"), CHATTER_CASES)
def test_evidence_only_in_an_earlier_chatter_turn_reaches_the_context(alice, evidence, query, needle, name) -> None:  # type: ignore[no-untyped-def]
    ids = chatter_history(alice, evidence, name, chinese=name == "小王")
    body = alice.post("context", {"query": query, "token_budget": 1000}).json()
    assert body["sections"]["facts"] == []
    turns = body["sections"]["turns"]
    assert [t["id"] for t in turns][:3].count(ids[2]) == 1, turns
    hit = next(t for t in turns if t["id"] == ids[2])
    assert (hit["content"], hit["role"], hit["name"], hit["session_id"]) == (evidence, "user", name, "s1")
    text = body["context"]
    assert "## Relevant earlier turns (oldest first)" in text
    assert f"[2024-02-01 11:00] {name} (user): {evidence}" in text  # verbatim, dated, with the speaker
    assert needle in text
    assert body["tokens"] == count_tokens(text) <= 1000
    # Not repeated: no relevant turn is also among the recent turns.
    assert not {t["id"] for t in turns} & {r["id"] for r in body["sections"]["recent"]}


@pytest.mark.django_db
def test_a_chinese_turn_stored_before_chinese_vectors_still_reaches_the_context(alice) -> None:  # type: ignore[no-untyped-def]
    """A memory whose turns have no e5 vectors yet (stored before them): its relevance is the keyword-only models', and
    the turns are read at the floor fitted with those, not at the one of the Chinese full models."""
    evidence = "跟你说个事，我学了三年的大提琴，上个月终于考过八级了"
    ids = chatter_history(alice, evidence, "小王", chinese=True)
    Message.objects.filter(pk__in=ids).update(embedding_zh=None)
    turns = alice.post("context", {"query": "我的大提琴考到几级了？", "token_budget": 1000}).json()["sections"]["turns"]
    assert ids[2] in [t["id"] for t in turns][:3], turns


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("chinese", "query"),
    [(False, "What is my blood type?"), (True, "我的血型是什么？")],
    ids=["en", "zh"],
)
def test_an_unrelated_query_adds_no_earlier_turns(alice, settings, chinese, query) -> None:  # type: ignore[no-untyped-def]
    from facts.retrieval.relevance import calibration

    settings.SEARCH_MIN_RELEVANCE = calibration().min_relevance  # the floor the facts section abstains under
    chatter_history(alice, "lol we finally tried that ramen shop on Elm Street", "Alice", chinese=chinese)
    body = alice.post("context", {"query": query, "token_budget": 2000}).json()
    assert body["sections"]["turns"] == [] and body["sections"]["facts"] == []
    assert "Relevant earlier turns" not in body["context"]


@pytest.mark.django_db
def test_a_turn_a_chosen_fact_cites_is_not_shown_twice(alice) -> None:  # type: ignore[no-untyped-def]
    turns = [filler(i) for i in range(40)]
    turns[2] = "Remember this: I am allergic to penicillin, my doctor Dr. Chen confirmed it on 2024-02-01."
    ids = post_turns(alice, turns)
    messages_extract(message_ids=ids)
    body = alice.post("context", {"query": "Which medicine is Alice allergic to?", "token_budget": 2000}).json()
    cited = {s["message_id"] for f in body["sections"]["facts"] for s in f["sources"]}
    assert ids[2] in cited
    assert not cited & {t["id"] for t in body["sections"]["turns"]}
    assert turns[2] not in body["context"]  # the fact stands for its turn


@pytest.mark.django_db
def test_other_subjects_and_tenants_turns_never_appear(alice, bob, carol) -> None:  # type: ignore[no-untyped-def]
    secret = "lol we finally tried that ramen shop on Elm Street with the red lanterns"
    for persona, user in [(alice, "mallory"), (carol, "alice")]:  # another subject; another tenant's "alice"
        turns = [filler(i) for i in range(20)]
        turns[2] = secret + f" ({persona.name}/{user})"
        messages = [{"role": "user", "content": t, "created_at": (T0 + dt.timedelta(hours=i)).isoformat()}
                    for i, t in enumerate(turns)]  # fmt: skip
        assert persona.post("messages", {"session_id": "s1", "messages": messages}, user=user).status_code == 202
    messages_extract(message_ids=list(Message.objects.values_list("pk", flat=True)))
    post_turns(alice, ["I like tea.", "Noted."])
    messages_extract(
        message_ids=list(Message.objects.filter(subject__external_id="alice").values_list("pk", flat=True))
    )
    for persona in (alice, bob):  # bob shares alice's tenant
        body = persona.post("context", {"query": "Which ramen shop on Elm Street?"}, user="alice").json()
        assert "ramen" not in body["context"] and body["sections"]["turns"] == []
