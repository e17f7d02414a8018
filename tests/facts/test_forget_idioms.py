""" "Forget" and 忘 as everyday words are no instruction to the memory: "forget it, I'll drive", "forget the hotel",
忘了带伞, 忘记跟你说了, 删掉那个app leave every fact alone (the turn is read as any other), while "forget that", "please
forget my address", "delete my number from your memory", 忘掉刚才说的 and 删掉我的手机号 still forget. In both languages,
at the extractor and through the API (a fact stated earlier survives an idiom that shares its words)."""

from __future__ import annotations

import pytest

from facts.extraction.commands import find_command
from facts.models import Fact
from tests.conftest import Persona
from tests.facts.user_turn import facts_of


@pytest.mark.parametrize(
    "text",
    [
        "forget it then, I'll book the train myself",
        "oh forget it",
        "forget the cottage, let's just camp",
        "forget that one, the blue one's nicer",
        "remove my name from the newsletter please",
        "忘了带伞，淋成落汤鸡",
        "忘记跟你说了，我下个月搬去杭州",
        "删掉那个app吧，太占内存",
        "忘掉他吧，不值得",
    ],
)
def test_an_idiom_is_no_forget_command(text: str) -> None:
    command = find_command(text)
    assert command is None or command.kind != "forget"


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("Forget that.", ""),
        ("forget that, I meant the Tuesday", ""),
        ("please forget that I work at the bakery", "I work at the bakery"),
        ("can you forget my old address", "my old address"),
        ("delete my phone number from your memory", "my phone number"),
        ("忘掉刚才说的", ""),
        ("删掉我的手机号", "我的手机号"),
        ("别记这个", ""),
    ],
)
def test_an_instruction_to_the_memory_still_forgets(text: str, target: str) -> None:
    command = find_command(text)
    assert command is not None and command.kind == "forget" and command.target == target


def test_remember_when_is_a_question_not_a_pin() -> None:
    assert find_command("remember when we got lost in Porto?") is None
    command = find_command("remember that my son is allergic to kiwi")
    assert command is not None and command.kind == "remember"


def _say(persona: Persona, text: str, external_id: str) -> None:
    response = persona.post(
        "messages?wait=true",
        {"session_id": "s1", "messages": [{"role": "user", "content": text, "external_id": external_id}]},
    )
    assert response.status_code == 200, response.content


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fact", "idiom"),
    [
        ("I moved to Hangzhou last year.", "forget Hangzhou traffic, I'm cycling everywhere now"),
        ("我住在杭州西湖区。", "忘记跟你说了，杭州这周一直下雨"),
    ],
)
def test_an_idiom_through_the_api_forgets_nothing(alice: Persona, fact: str, idiom: str) -> None:
    _say(alice, fact, "m1")
    before = set(Fact.objects.filter(subject__external_id="alice").values_list("pk", flat=True))
    assert before
    _say(alice, idiom, "m2")
    after = set(Fact.objects.filter(subject__external_id="alice").values_list("pk", flat=True))
    assert before <= after


@pytest.mark.parametrize(
    ("text", "opener"),
    [
        ("忘记跟你说了，我下个月搬去苏州", "忘记"),
        ("我忘了说，我对芒果过敏", "忘了说"),
        ("forget it then, I'll take the early train on Friday", "forget it"),
        ("never mind, my passport turned up in the car", "never mind"),
    ],
)
def test_the_idiom_opening_a_fact_is_left_out_of_it(text: str, opener: str) -> None:
    facts = facts_of(text)
    assert facts and opener not in facts[0][1].lower()


def test_remove_it_alone_is_said_of_a_basket_not_the_memory() -> None:
    assert find_command("remove it") is None
    command = find_command("delete that")
    assert command is not None and command.kind == "forget"
