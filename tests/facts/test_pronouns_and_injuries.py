"""A he or she said of the relative an earlier turn named; injuries, a membership paused, an adoption order; slots a
third person's sentence must not fill for the speaker. Phrasings of the tests' own, in English and Chinese."""

from __future__ import annotations

import pytest

from facts.extraction.base import Candidate, MessageView
from facts.extraction.rules import RuleExtractor
from facts.models import Fact
from tests.conftest import Persona
from tests.facts.user_turn import WHEN, candidates_of, facts_of, first_kind, rule_type_of


def _after(text: str, own: tuple[str, ...] = (), other: str = "") -> list[Candidate]:
    """The candidates of a user's turn after the speaker's own earlier turns (newest first) and someone else's."""
    view = MessageView(id=1, role="user", name="", content=text, created_at=WHEN,
                       previous_user_content="\n".join(own), previous_other_content=other)  # fmt: skip
    return list(RuleExtractor().extract([view])[1].candidates)


@pytest.mark.parametrize(
    ("own", "other", "text", "kin"),
    [
        (("My brother's been in and out of hospital all autumn.",), "", "He's having a bypass on the 3rd.", "brother"),
        (("我爸最近血压一直很高。",), "", "他下个月要去做个心脏支架。", "爸"),
        ((), "How's your mum getting on after the op?", "she's walking with a frame now, the hip is healing", "mum"),
        ((), "你女儿上小学了吧？", "她九月刚上一年级，在实验小学", "女儿"),
        # The turn before went on about the same "he"; the one before that named him.
        (
            ("he moved in with us in March", "My father-in-law had a stroke last winter."),
            "",
            "he can't drive any more since the stroke",
            "father-in-law",
        ),
        # A turn that names no one lies between.
        (("出生证明还没寄到，可以先用护照吗？", "我儿子九月上小学。"), "", "还有他对花生过敏，食堂要登记吗", "儿子"),
    ],
)
def test_a_pronoun_is_said_as_the_relative_named_before(own: tuple[str, ...], other: str, text: str, kin: str) -> None:
    found = _after(text, own, other)
    assert found and found[0].type == "relationship"
    assert kin in found[0].text.lower()


@pytest.mark.parametrize(
    ("own", "other", "text", "kin"),
    [
        (("my son and my nephew both play rugby",), "", "he broke his collarbone on Saturday", "nephew"),  # two
        (("My sister is moving to Dublin.",), "", "he starts his new job on Monday", "sister"),  # none of his sex
        ((), "my sister just had twins!", "she must be exhausted", "sister"),  # the other speaker's sister
        (("my aunt got a spaniel puppy",), "", "she's a cocker spaniel, eleven weeks old", "aunt"),  # the pet
        (("my nan's got a new lodger",), "", "her name's Wren, she works nights", "nan"),  # a newcomer named
        (("我姐和我妹都回来过年了",), "", "她在广州当护士", "用户的"),  # two of her sex
    ],
)
def test_no_relative_is_guessed(own: tuple[str, ...], other: str, text: str, kin: str) -> None:
    for candidate in _after(text, own, other):
        assert kin not in candidate.text.lower()


def test_chatter_about_a_relative_stays_chatter() -> None:
    assert _after("she really is", ("my gran is a legend",)) == []


def test_a_pronoun_without_earlier_turns_stays_as_said() -> None:
    assert all("brother" not in c.text for c in _after("He's having a bypass on the 3rd."))


@pytest.mark.parametrize(
    "text",
    [
        "我外婆退休好多年了，住在无锡",
        "我闺女毕业了，现在住在深圳",
        "她黏着我叫妈妈，晚上也要我陪",
        "我婆婆不吃羊肉，年夜饭得换个菜",
    ],
)
def test_a_relatives_sentence_fills_no_slot_of_the_speakers(text: str) -> None:
    for candidate in candidates_of(text):
        assert candidate.predicate.split(":")[0] not in {"residence", "name", "preference"}, candidate


def test_the_speakers_own_residence_after_a_clause_about_work() -> None:
    (candidate,) = candidates_of("我在南京上班，住在鼓楼区")
    assert (candidate.predicate, candidate.object_value) == ("residence", "鼓楼区")


def test_an_age_said_with_this_year_stays_an_age() -> None:
    (candidate,) = candidates_of("我今年41，还来得及申请吗")
    assert "2026年41" not in candidate.text and "今年41" in candidate.text
    assert "2026年4月" in facts_of("我今年4月搬到了厦门")[0][1]


@pytest.mark.parametrize(
    "text",
    [
        "came off my bike on the ice. fractured scaphoid, apparently",
        "I snapped my achilles playing five-a-side",
        "six weeks post-op and the knee finally bends past ninety",
        "I'm on crutches till the end of the month",
        "I'm nine weeks out from a broken ankle and I want to run again",
        "打球的时候膝盖韧带拉伤了",
        "滑雪摔了一跤，小腿骨裂，打了石膏",
        "术后第三周，还在拄拐",
    ],
)
def test_an_injury_is_health(text: str) -> None:
    assert "health" in {kind for kind, _text in facts_of(text)}


def test_a_thing_broken_stays_a_complaint() -> None:
    assert first_kind("the bookcase turned up with a broken shelf") == "complaint"


@pytest.mark.parametrize(
    "text",
    [
        "I'd like to freeze my gym membership, I've torn a ligament",
        "I've unfrozen my membership, back from Monday",
        "你好，我想办停卡，手腕骨折了，三个月去不了",
    ],
)
def test_pausing_a_membership_is_a_decision(text: str) -> None:
    assert first_kind(text) == "decision"


@pytest.mark.parametrize("text", ["The adoption order was granted this morning!", "收养令终于批下来了"])
def test_an_adoption_order_is_legal(text: str) -> None:
    assert first_kind(text) == "legal"


def test_a_pet_with_the_speaker_left_out() -> None:
    assert first_kind("有一只两岁的布偶猫，叫奶茶") == "profile"
    assert first_kind("有一只猫在窗台上晒太阳") == "drop"


def test_an_interjection_is_no_part_of_the_fact() -> None:
    for _type, text in facts_of("我靠，我下个月要去深圳上班了"):
        assert "靠" not in text


def _say(persona: Persona, session: str, *turns: tuple[str, str], user: str | None = None) -> None:
    messages = [{"role": role, "content": text} for role, text in turns]
    response = persona.post("messages?wait=true", {"session_id": session, "messages": messages}, user=user)
    assert response.status_code == 200, response.content


def _texts(persona: Persona) -> list[str]:
    return list(
        Fact.objects.filter(subject__external_id=persona.name, subject__tenant=persona.tenant).values_list(
            "text", flat=True
        )
    )


@pytest.mark.django_db
def test_through_the_api_a_pronoun_reads_the_turns_posted_before(alice: Persona) -> None:
    _say(alice, "s1", ("user", "My sister has been in hospital since Friday."))
    _say(alice, "s1", ("assistant", "I'm sorry to hear that. What are the doctors saying?"))
    _say(alice, "s1", ("user", "She's having her appendix out tomorrow morning."))
    assert any("sister" in t and "appendix" in t for t in _texts(alice))
    _say(alice, "s2", ("user", "我妈最近腰不好。"), ("assistant", "严重吗？"), ("user", "她下周二要去做核磁。"))
    assert any("妈" in t and "核磁" in t for t in _texts(alice))


@pytest.mark.django_db
def test_through_the_api_another_users_turns_are_not_read(alice: Persona, bob: Persona, carol: Persona) -> None:
    _say(bob, "s1", ("user", "My brother has been unwell lately."))
    _say(carol, "s1", ("user", "My brother has been unwell lately."), user="alice")  # another tenant's "alice"
    _say(alice, "s1", ("user", "He's having heart surgery next week at St Thomas'."))
    assert _texts(alice) and not any("brother" in t for t in _texts(alice))


@pytest.mark.parametrize(
    ("text", "kind"), [("忘了告诉你，我换工作了", "profile"), ("告诉你，我下个月去新加坡工作", "profile")]
)
def test_news_after_an_opener_about_telling_is_kept(text: str, kind: str) -> None:
    facts = facts_of(text)
    assert facts and facts[0][0] == kind and "告诉" not in facts[0][1]


@pytest.mark.parametrize(
    "text",
    [
        "the new boiler arrived with the front panel chipped",
        "half the tiles were cracked when they arrived",
        "mould keeps coming back on the bathroom ceiling",
        "卫生间墙角又发霉了，刷了两遍漆都没用",
        "Order 55120-B: the speaker came yesterday and makes no sound at all",
        "订单号DX20931，音箱开不了机",
    ],
)
def test_damage_and_damp_are_complaints(text: str) -> None:
    assert "complaint" in {kind for kind, _text in facts_of(text)}


@pytest.mark.parametrize(
    "text", ["I bought a silicone cake mould for the party", "Order 4471-C, the deadline to pick it up is Monday"]
)
def test_a_mould_for_baking_or_a_deadline_is_no_complaint(text: str) -> None:
    assert "complaint" not in {kind for kind, _text in facts_of(text)}


@pytest.mark.parametrize("text", ["我买吉他了！下周开始上课", "终于买架子鼓了"])
def test_an_instrument_bought_is_a_possession(text: str) -> None:
    assert first_kind(text) == "profile"


def test_a_baby_born_on_a_day_of_last_month_is_an_event() -> None:
    assert first_kind("上个月十二号生的，儿子，七斤整") == "event"


@pytest.mark.parametrize("text", ["我下个月从骨科调到急诊科了", "我是儿科的护士，上三班倒"])
def test_a_ward_one_works_on_is_no_health(text: str) -> None:
    assert "health" not in {kind for kind, _text in facts_of(text)}


def test_a_visit_to_the_emergency_department_is_still_health() -> None:
    assert first_kind("昨晚高烧去了急诊，医生说是流感") == "health"


@pytest.mark.parametrize(
    "text", ["She asked me to be her boyfriend at the pier last night", "我跟阿杰在一起了，上周刚确定关系"]
)
def test_becoming_a_couple_is_the_relationship_status(text: str) -> None:
    assert rule_type_of(text) == "relationship"
