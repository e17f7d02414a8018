"""Events carry their time in `event_time` (resolved against the message time, used by time queries, shown in
facts, search and context); the profile and context's fact section hold durable facts only, in both languages."""

from __future__ import annotations

import pytest

from conversations.models import Subject
from facts.durable import is_durable, is_quote, is_self_contained, object_unnamed, refers_elsewhere
from facts.models import Fact
from facts.profile import PROFILE_TOKENS, profile_build


def _ingest(persona, *contents: str, when: str, **extra):  # type: ignore[no-untyped-def]
    response = persona.ingest(*contents, created_at=when, **extra)
    assert response.status_code == 200, response.json()
    return response.json()["facts"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "day", "query"),
    [
        ("I finally ran my first half marathon yesterday, in 2 hours 5 minutes.", "2024-04-13", "half marathon"),
        ("前天我去牙科诊所拔了一颗智齿。", "2024-04-12", "智齿"),
    ],
)
def test_an_event_said_relative_to_the_message_lands_in_event_time(  # type: ignore[no-untyped-def]
    alice, content: str, day: str, query: str
) -> None:
    facts = _ingest(alice, content, when="2024-04-14T18:30:00Z")
    assert facts and facts[0]["event_time"].startswith(day)  # the field, not only the text
    assert facts[0]["valid_from"].startswith("2024-04-14")  # when it was said
    # Shown in search results, and used by a time filter on the day it happened (not the day it was said).
    hit = alice.search(query).json()["results"][0]
    assert hit["id"] == facts[0]["id"] and hit["event_time"].startswith(day)
    on_the_day = alice.search(query, since=f"{day}T00:00:00Z", until=f"{day}T23:59:59Z").json()["results"]
    assert facts[0]["id"] in [r["id"] for r in on_the_day]
    said_day = alice.search(query, since="2024-04-14T00:00:00Z", until="2024-04-14T23:59:59Z").json()["results"]
    assert facts[0]["id"] not in [r["id"] for r in said_day]
    # The facts API shows it, and the context's fact line is dated by it.
    assert alice.get(f"facts/{facts[0]['id']}").json()["event_time"].startswith(day)
    context = alice.post("context", {"query": query}).json()
    assert context["sections"]["facts"][0]["event_time"].startswith(day)
    assert f"[{day}]" in context["context"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "day"), [("I sold my old car two days ago.", "2024-04-12"), ("我昨天把旧车卖了。", "2024-04-13")]
)
def test_a_fact_written_by_the_api_resolves_its_event_time(alice, text: str, day: str) -> None:  # type: ignore[no-untyped-def]
    response = alice.post("facts", {"text": text, "valid_from": "2024-04-14T10:00:00Z"})
    assert response.status_code == 201, response.json()
    assert response.json()["event_time"].startswith(day)


@pytest.mark.parametrize(
    ("text", "type_", "durable"),
    [
        ("Maya said: Long time no see.", "profile", False),
        ("Tom asked: how have you been?", "relationship", False),
        ("小王说：好久不见！", "profile", False),
        ("Is the shop open on Sunday?", "event", False),
        ("User asks whether the order ships to Canada.", "inquiry", False),
        ("Maya is allergic to shellfish.", "health", True),
        ("用户住在海淀区。", "profile", True),
        ("Tom said he would repaint the fence by June.", "commitment", True),  # reported speech, not a quote
    ],
)
def test_durable_facts(text: str, type_: str, durable: bool) -> None:
    assert is_durable(text=text, type=type_) is durable


def test_quote_form() -> None:
    assert is_quote("B said: So glad you wrote back.") and is_quote("用户说：谢谢")
    assert not is_quote("Sarah said yes to the job offer in Leeds.")


def _fact(subject: Subject, text: str, type_: str, importance: float = 0.9) -> Fact:
    return Fact.objects.create(
        tenant_id=subject.tenant_id, subject=subject, text=text, normalized_text=text.lower(), type=type_,
        importance=importance,
    )  # fmt: skip


@pytest.mark.django_db
def test_the_profile_holds_durable_facts_only_within_its_budget(alice) -> None:  # type: ignore[no-untyped-def]
    _ingest(alice, "I'm allergic to shellfish.", "我住在海淀区。", when="2024-04-14T10:00:00Z")
    subject = Subject.objects.get(external_id="alice")
    # Quotes of small talk written before the gate, high importance and typed as if durable.
    for i in range(40):
        _fact(subject, f"Alice said: So glad you wrote back ({i}).", "profile", importance=1.0)
        _fact(subject, f"用户说：好久不见（{i}）", "relationship", importance=1.0)
        _fact(subject, f"Bob asked: are you free on day {i}?", "event", importance=1.0)
    for i in range(60):
        _fact(subject, f"Alice volunteers at the food bank on route {i} every Saturday.", "event", importance=0.6)
    profile = profile_build(subject)
    assert "shellfish" in profile.text and "海淀区" in profile.text
    assert "said:" not in profile.text and "说：" not in profile.text and "asked:" not in profile.text
    assert profile.tokens <= PROFILE_TOKENS
    # The context sends the same profile, and its fact section skips quotes too.
    context = alice.post("context", {"query": "so glad you wrote back 好久不见"}).json()
    assert "said:" not in context["sections"]["profile"]
    assert all(not is_quote(f["text"]) for f in context["sections"]["facts"])


@pytest.mark.parametrize(
    ("text", "contained"),
    [
        ("It's like a second job for Priya.", False),
        ("Yeah, they were all worried when Priya's dad fell ill.", False),
        ("Those lessons are good reminders of Priya's goals.", False),
        ("这是用户最喜欢的一家店。", False),
        ("它每天早上七点叫醒用户。", False),
        ("Priya's cat is called Mochi.", True),
        ("Itsuki is Priya's brother.", True),
        ("用户的猫叫年糕。", True),
        ("Thea works at the museum.", True),
        # a show-and-tell, a remark still addressed to the listener, a fact with no content of its own
        ("Here are the lanterns Priya carved for the festival.", False),
        ("Priya would love to borrow your camping stove sometime.", False),
        ("用户下次想带你去那家面馆。", False),
        ("Priya is as well!", False),
        ("Rafael too.", False),
        ("Priya is 41.", True),
        ("Rafael is a welder.", True),
    ],
)
def test_a_fact_opening_on_a_pronoun_it_does_not_name_is_not_self_contained(text: str, contained: bool) -> None:
    assert is_self_contained(text) is contained


def test_the_profile_leaves_out_facts_that_open_on_an_unnamed_pronoun(alice) -> None:  # type: ignore[no-untyped-def]
    _ingest(alice, "I'm allergic to shellfish.", when="2024-04-14T10:00:00Z")
    subject = Subject.objects.get(external_id="alice")
    _fact(subject, "It's like therapy for Alice, every single week.", "health", importance=1.0)
    _fact(subject, "她每天都给用户打电话。", "relationship", importance=1.0)
    text = profile_build(subject).text
    assert "shellfish" in text and "like therapy" not in text and "打电话" not in text, text


@pytest.mark.parametrize(
    ("text", "elsewhere"),
    [
        ("Priya really loves having them around.", True),
        ("Priya pitched it to two publishers.", True),
        ("Priya added this at the end.", True),
        ("用户说它很乖。", True),
        ("Priya's favourite snack is a rice cake.", False),
        ("Priya found that the night bus is quicker.", False),
        ("Priya keeps this notebook by the bed.", False),
    ],
)
def test_a_pronoun_standing_for_a_thing_named_elsewhere(text: str, elsewhere: bool) -> None:
    assert refers_elsewhere(text) is elsewhere


def test_the_profile_shows_facts_that_say_all_they_mean_first(alice) -> None:  # type: ignore[no-untyped-def]
    _ingest(alice, "I'm allergic to shellfish.", when="2024-04-14T10:00:00Z")
    subject = Subject.objects.get(external_id="alice")
    for i in range(40):
        _fact(subject, f"Alice likes them with extra sauce number {i}.", "preference", importance=1.0)
    _fact(subject, "Alice likes Sichuan hotpot with extra chili.", "preference", importance=0.5)
    text = profile_build(subject).text
    preferences = text.split("Preferences:")[1].splitlines()[1]
    assert "Sichuan hotpot" in preferences, text


@pytest.mark.parametrize(
    ("text", "unnamed"),
    [
        # the object stands for a thing of another turn, in the middle of the sentence
        ("Ines baked it with oat flour and dates.", True),
        ("Ines carved it at their woodwork class on 2 February 2026.", True),
        ("Ines loves it when they close the gig with that one.", True),
        ("Ines will look into that next week.", True),
        ("Ines觉得那个特别适合妹妹。", True),
        ("用户说它每天早上都叫。", True),
        ("嗯，所以用户打算给它换个大一点的笼子。", True),
        # guards: a dummy or forward "it", an idiom, an antecedent in the sentence, a named object
        ("It's Ines's birthday on 3 May.", False),
        ("Ines finds it hard to sleep before exams.", False),
        ("Ines hates it when the tram is late.", False),
        ("Ines is taking it easy after the operation.", False),
        ("Ines made it to the regional final.", False),
        ("Ines bought a kayak and takes it out every weekend.", False),
        ("Ines keeps this notebook in the glovebox.", False),
        ("Ines mentioned that on weekdays the gym is quieter.", False),
        ("用户很喜欢那个湖边的面馆。", False),
        ("用户养了一只鹦鹉，它会学人说话。", False),
    ],
)
def test_an_object_standing_for_a_thing_it_does_not_name(text: str, unnamed: bool) -> None:
    assert object_unnamed(text) is unnamed
    assert is_self_contained(text) is not unnamed


@pytest.mark.django_db
def test_the_profile_leaves_out_a_fact_whose_object_is_unnamed_but_search_finds_it(alice) -> None:  # type: ignore[no-untyped-def]
    facts = _ingest(
        alice, "I'm allergic to shellfish.", "I baked it with oat flour and dates.", "我觉得那个特别适合我外婆。",
        when="2024-04-14T10:00:00Z",
    )  # fmt: skip
    assert any("baked it" in f["text"] for f in facts), facts
    subject = Subject.objects.get(external_id="alice")
    text = profile_build(subject).text
    assert "shellfish" in text and "baked" not in text and "那个" not in text, text
    hits = alice.search("oat flour and dates").json()["results"]
    assert any("baked it" in h["text"] for h in hits), hits
