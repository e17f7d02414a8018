"""The rule extractor through the public write path (?wait=true): gate, facts, types, slots, entities, time."""

from __future__ import annotations

import datetime as dt

import pytest

from conversations.models import Message
from facts.extraction.base import MessageView
from facts.extraction.gate import strip_chatter
from facts.extraction.person import third_person_en
from facts.extraction.rules import RuleExtractor, frame
from facts.extraction.signals import strong_signal
from facts.extraction.timeexpr import resolve_text

WHEN = "2023-05-08T13:56:00Z"  # a Monday


def _facts(persona, content: str, **extra):  # type: ignore[no-untyped-def]
    response = persona.ingest(content, created_at=WHEN, **extra)
    assert response.status_code == 200, response.json()
    return response.json()["facts"]


SKIPPED = [
    ("Hi!", "greeting"),
    ("Thanks so much!", "thanks"),
    ("ok", "agreement"),
    ("你好", "greeting"),
    ("谢谢！", "thanks"),
    ("好的", "agreement"),
    ("How are you?", "greeting"),
    ("What's the capital of France?", "empty_question"),
    ("今天天气怎么样？", "empty_question"),
    ("哈哈哈", "reaction"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("content", "reason"), SKIPPED)
def test_small_talk_yields_no_fact_and_the_gate_says_why(alice, content: str, reason: str) -> None:  # type: ignore[no-untyped-def]
    assert _facts(alice, content) == []
    message = Message.objects.get(subject__external_id="alice", content=content)
    assert message.gate_decision == "skip"
    assert reason in message.gate_reason
    assert message.extraction_state == "done"


KEPT = [
    # content, words the fact must keep, type, predicate prefix
    ("I live in Beijing.", ["User", "Beijing"], "profile", "residence"),
    ("我住在朝阳区。", ["用户", "朝阳区"], "profile", "residence"),
    ("我去年搬到了杭州。", ["杭州"], "profile", "residence"),
    ("I'm allergic to peanuts.", ["peanuts"], "health", "allergy:"),
    ("我对花生过敏。", ["花生"], "health", "allergy:"),
    ("I have a corgi named 豆包.", ["corgi", "豆包"], "profile", "pet:"),
    ("我养了一只猫叫咪咪。", ["猫", "咪咪"], "profile", "pet:"),
    ("My order #A12345 never arrived and I want a refund.", ["A12345", "refund"], "complaint", "order_status:A12345"),
    ("订单号 88231 还没到，我要投诉。", ["88231"], "complaint", "order_status:88231"),
    ("I work as a nurse at Mercy Hospital.", ["nurse", "Mercy Hospital"], "profile", "job"),
    ("我在腾讯工作。", ["腾讯"], "profile", "employer"),
    ("I'm vegetarian.", ["vegetarian"], "preference", "diet"),
    ("I promise I'll send the contract to my lawyer on Friday.", ["contract", "lawyer"], "legal", ""),
    ("I decided to sell my car for $5,000.", ["$5,000", "car"], "decision", ""),
    ("我决定下个月辞职。", ["辞职", "2023年6月"], "decision", ""),
    ("I really love hiking in the Alps.", ["hiking", "Alps"], "preference", "preference:hiking"),
    ("我不吃辣。", ["辣"], "preference", "preference:辣"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("content", "words", "type_", "predicate"), KEPT)
def test_informative_turns_become_typed_facts(alice, content, words, type_, predicate) -> None:  # type: ignore[no-untyped-def]
    facts = _facts(alice, content)
    assert facts, content
    text = " ".join(f["text"] for f in facts)
    for word in words:
        assert word in text, (word, facts)
    assert type_ in {f["type"] for f in facts}
    if predicate:
        assert any(f["predicate"].startswith(predicate) for f in facts), facts
    assert all(f["sources"] and f["sources"][0]["session_id"] == "s1" for f in facts)
    message = Message.objects.get(subject__external_id="alice", content=content)
    assert message.gate_decision == "keep"


@pytest.mark.django_db
def test_named_speaker_gets_a_third_person_fact_with_the_resolved_date(alice) -> None:  # type: ignore[no-untyped-def]
    facts = _facts(alice, "I fixed the brakes on my old bike yesterday, took me all afternoon.", name="Priya")
    assert facts[0]["text"].startswith("Priya fixed the brakes on their old bike on 7 May 2023")
    assert {"text": "Priya", "kind": "person"} in facts[0]["entities"]
    assert {"text": "7 May 2023", "kind": "date"} in facts[0]["entities"]
    assert facts[0]["valid_from"].startswith("2023-05-08")


TIMES = [
    ("I visited my mom last week.", "the week of 1 May 2023"),
    ("We're moving to Denver next month.", "June 2023"),
    ("I graduated from college last year.", "in 2022"),
    ("I adopted a cat two weeks ago.", "24 April 2023"),
    ("上周三我去医院看了医生。", "2023年5月3日"),
    ("我去年去了日本旅行。", "2022年"),
    ("我明天要去上海出差。", "2023年5月9日"),
    ("I'm flying to Paris tomorrow.", "9 May 2023"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("content", "absolute"), TIMES)
def test_relative_times_become_absolute_dates(alice, content: str, absolute: str) -> None:  # type: ignore[no-untyped-def]
    facts = _facts(alice, content)
    assert any(absolute in f["text"] for f in facts), facts


@pytest.mark.django_db
def test_temporary_state_expires(alice) -> None:  # type: ignore[no-untyped-def]
    # A state of today is not durable: the gate may drop it; kept, it expires the next day.
    facts = _facts(alice, "I'm sick today so I'm staying home.")
    assert all(f["type"] == "health" and (f["expires_at"] or "").startswith("2023-05-09") for f in facts)
    lasting = _facts(alice, "My brother Tom lives in Leeds.")
    assert lasting and all(f["expires_at"] is None for f in lasting)


@pytest.mark.django_db
def test_greeting_inside_an_informative_turn_is_dropped_but_content_kept(alice) -> None:  # type: ignore[no-untyped-def]
    facts = _facts(alice, "Hi Priya! Nice to see you! I am drowning in tax forms. Anything new?", name="Daniel")
    assert [f["text"] for f in facts] == ["Daniel is drowning in tax forms."]


@pytest.mark.django_db
def test_a_pictures_caption_is_no_fact_but_the_turn_keeps_it_searchable(alice) -> None:  # type: ignore[no-untyped-def]
    # A captioning model's description of a shared picture says what it shows, not what the person is or does.
    reaction = "Haha, look at this! [shares a photo of two dogs running on a beach at sunset]"
    assert _facts(alice, reaction, name="Mia") == []
    with_fact = "My sister Ana just got her pilot licence! [shares a photo of a small plane on a runway]"
    texts = [f["text"] for f in _facts(alice, with_fact, name="Mia")]
    assert texts and all("plane" not in t and "photo" not in t for t in texts), texts
    assert any("pilot licence" in t for t in texts), texts
    zh = "周末去爬山了，累死 [shares a photo of a mountain path in autumn]"
    assert all("photo" not in f["text"] for f in _facts(alice, zh, name="小林"))
    found = alice.search("beach dogs sunset", include_messages=True).json()["results"]
    assert any(r["kind"] == "message" and "two dogs" in r["text"] for r in found), found


ELIDED = [
    ("Checked out the old harbour museum on Sunday.", "Lena checked out the old harbour museum on Sunday"),
    ("Finally booked the flights to Lisbon", "Lena finally booked the flights to Lisbon"),
    ("Been training for the marathon every morning", "Lena has been training for the marathon every morning"),
    ("Got a new bike for my commute.", None),  # first person: the ordinary rewrite, not this one
    ("Fred came over last night.", "Lena mentioned that Fred came over last night"),  # a name, not a dropped "I"
]
NOT_ABOUT_SPEAKER = [
    "Hope your knee heals quickly.",
    "Be sure to ask the landlord for a receipt.",
    "Wow, sounds like a great trip.",
    "Combining your two hobbies is such a good idea.",
    "Don't forget to water the plants.",
]


PLURAL = [
    ("We went to a food bank on Saturday.", "Omar and others went to a food bank on Saturday."),
    ("we're thinking about adopting a rescue dog", "Omar and others are thinking about adopting a rescue dog"),
    ("Our cat hates the new sofa.", "Omar's cat hates the new sofa."),
    ("My sister and I drove to Porto and we loved it.", "Omar and their sister drove to Porto and they loved it."),
    ("I moved to the US in 2019.", "Omar moved to the US in 2019."),
]


AGREEMENT = [
    ("I think the lake cabin is the best spot", "Omar thinks the lake cabin is the best spot"),
    ("I guess rugby is my thing now", "Omar guesses rugby is their thing now"),
    ("I still think about that trip", "Omar still thinks about that trip"),
    ("I kinda want a vegetable garden", "Omar kinda wants a vegetable garden"),
    # a later "I" opening its own clause after ", and" is they, with the plural verb ("Omar are" before)
    ("Chess is my hobby, and I'm getting better at it", "Chess is Omar's hobby, and they are getting better at it"),
]


@pytest.mark.parametrize(("sentence", "expected"), AGREEMENT)
def test_verbs_after_i_agree_with_the_name(sentence: str, expected: str) -> None:
    assert third_person_en(sentence, "Omar") == expected


@pytest.mark.parametrize(("sentence", "expected"), PLURAL)
def test_we_and_our_are_the_speaker_and_others(sentence: str, expected: str) -> None:
    assert third_person_en(sentence, "Omar") == expected


@pytest.mark.parametrize(("sentence", "expected"), ELIDED)
def test_a_dropped_subject_is_the_speaker(sentence: str, expected: str | None) -> None:
    text = frame(sentence, "Lena", type_="event", question=False)
    if expected is None:
        assert text == third_person_en(sentence, "Lena") or text.startswith("Lena"), text
    else:
        assert text == expected


@pytest.mark.parametrize("sentence", NOT_ABOUT_SPEAKER)
def test_advice_wishes_and_reactions_to_the_listener_are_not_said_of_the_speaker(sentence: str) -> None:
    assert frame(sentence, "Lena", type_="profile", question=False) == ""
    assert frame(sentence, "User", type_="profile", question=False) == ""


def test_a_complaint_addressed_to_the_business_is_still_framed() -> None:
    text = frame("Your courier left the parcel out in the rain", "Lena", type_="complaint", question=False)
    assert "courier left the parcel" in text


@pytest.mark.django_db
def test_a_wish_for_the_listener_yields_no_fact(alice) -> None:  # type: ignore[no-untyped-def]
    assert _facts(alice, "Hope your ankle heals fast. Take it easy this week!", name="Tim") == []


TALK_ONLY = [
    "I'll definitely give you a shout if I need anything!",
    "Just ping me if there's anything I can do.",
    "Keep me posted, ok?",
    "有啥需要随时跟我说一声",
    "回头告诉你哈",
]
TALK_WITH_CONTENT = [
    ("I'll let you know when the dentist confirms my crown appointment.", "dentist"),
    ("搬到成都以后联系你，新地址在武侯区", "武侯区"),
]


@pytest.mark.django_db
@pytest.mark.parametrize("content", TALK_ONLY)
def test_a_promise_to_talk_later_with_nothing_in_it_yields_no_fact(alice, content: str) -> None:  # type: ignore[no-untyped-def]
    assert _facts(alice, content, name="Kai") == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "word"),
    [("Could you let me know when my order to Glasgow ships?", "Glasgow"), ("我的订单发货了能通知我一下吗？", "订单")],
)
def test_a_customer_asking_to_be_told_keeps_the_inquiry(alice, content: str, word: str) -> None:  # type: ignore[no-untyped-def]
    assert any(word in f["text"] for f in _facts(alice, content)), content


@pytest.mark.django_db
@pytest.mark.parametrize(("content", "word"), TALK_WITH_CONTENT)
def test_a_promise_to_talk_later_with_content_keeps_it(alice, content: str, word: str) -> None:  # type: ignore[no-untyped-def]
    assert any(word in f["text"] for f in _facts(alice, content, name="Kai"))


ROMANCE = [
    ("Honestly I've got a massive crush on the barista at Rosie's.", "barista"),
    ("我暗恋我们组的老陈快一年了", "老陈"),
    ("I'm single again since March.", "single"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("content", "word"), ROMANCE)
def test_the_speakers_feelings_for_someone_are_a_relationship_fact(alice, content: str, word: str) -> None:  # type: ignore[no-untyped-def]
    facts = _facts(alice, content)
    assert any(word in f["text"] and f["type"] == "relationship" for f in facts), facts


def test_a_general_remark_about_crushes_is_no_relationship_signal() -> None:
    assert strong_signal("Having a crush on a celebrity is harmless") == ""
    assert strong_signal("I have a crush on Leo") == "relationship"


@pytest.mark.django_db
@pytest.mark.parametrize("content", ["Aww, I'd love to!", "Honestly I adore that so much.", "我也超喜欢的！"])
def test_liking_a_pronoun_alone_yields_no_fact(alice, content: str) -> None:  # type: ignore[no-untyped-def]
    assert _facts(alice, content, name="Ines") == []


@pytest.mark.django_db
def test_liking_something_named_is_kept(alice) -> None:  # type: ignore[no-untyped-def]
    assert any("sea swimming" in f["text"] for f in _facts(alice, "I love sea swimming in winter.", name="Ines"))


@pytest.mark.django_db
@pytest.mark.parametrize(
    "content", ["My email password hint is the street I grew up on.", "我的密保问题是第一只狗的名字"]
)
def test_a_credential_hint_is_kept_and_can_be_forgotten_like_any_fact(alice, content: str) -> None:  # type: ignore[no-untyped-def]
    assert _facts(alice, content) != []


def test_a_pin_that_is_no_credential_is_no_signal() -> None:
    assert strong_signal("The pin is loose on the hinge") == ""
    assert strong_signal("My PIN hint is my first teacher's name") == "id"


def test_every_informative_sentence_keeps_its_content_words() -> None:
    """Recall depends on it: names, objects, places and dates survive into some fact of the turn."""
    turn = (
        "Biscuit is a clown: he buried a sock under the sofa! Last summer we took the kids to Yosemite, "
        "and I sketched a waterfall there."
    )
    ref = dt.datetime(2023, 8, 14, 12, tzinfo=dt.UTC)
    out = RuleExtractor().extract_one(MessageView(id=1, role="user", name="Daniel", content=turn, created_at=ref))
    text = " ".join(c.text for c in out.candidates)
    for word in ["Biscuit", "sock", "sofa", "Yosemite", "sketched", "waterfall", "2022"]:
        assert word in text, (word, text)
    assert all(c.span_start is not None and turn[c.span_start : c.span_end] for c in out.candidates)


def test_time_resolution_in_both_languages() -> None:
    ref = dt.datetime(2023, 5, 8, 12, tzinfo=dt.UTC)
    assert resolve_text("I met her yesterday", ref)[0] == "I met her on 7 May 2023"
    assert resolve_text("下周五见", ref)[0] == "2023年5月19日见"
    assert resolve_text("三天前我丢了钱包", ref)[0] == "2023年5月5日我丢了钱包"
    text, matches = resolve_text("I started a new job last month", ref)
    assert text == "I started a new job in April 2023" and matches[0].when.month == 4


@pytest.mark.parametrize(
    ("said", "resolved"),
    [
        # a preposition already there is not doubled ("of in January")
        ("The show is on the 15th of next month.", "The show is on the 15th of June 2023."),
        ("I'll have the results by next week", "I'll have the results by the week of 15 May 2023"),
        ("the gym is closed until next Friday", "the gym is closed until 19 May 2023"),
        ("I've been saving since last summer", "I've been saving since the summer of 2022"),
        # a weekday listed after an "every" weekday recurs: no date
        ("我每周二和周四去社区合唱团唱歌。", "我每周二和周四去社区合唱团唱歌。"),
        ("她每个星期一、星期三或者星期五上瑜伽课", "她每个星期一、星期三或者星期五上瑜伽课"),
        ("每周二去，下周四也去", "每周二去，2023年5月18日也去"),
        ("我周四去体检", "我2023年5月11日去体检"),
    ],
)
def test_a_time_reads_well_in_its_sentence(said: str, resolved: str) -> None:
    ref = dt.datetime(2023, 5, 8, 12, tzinfo=dt.UTC)
    assert resolve_text(said, ref)[0] == resolved


@pytest.mark.parametrize(
    ("said", "resolved"),
    [
        ("I took up the cello about five years ago", "I took up the cello around 2018"),
        ("we bought the flat roughly two months ago", "we bought the flat around March 2023"),
        ("the movers come in about two weeks", "the movers come around 22 May 2023"),
        # "in ... ago" is the past: a move two months ago, never a date two months ahead
        ("We moved in two months ago", "We moved in in March 2023"),
        ("I changed jobs three years ago", "I changed jobs in 2020"),
    ],
)
def test_a_hedged_or_past_span_resolves_to_an_approximate_date(said: str, resolved: str) -> None:
    ref = dt.datetime(2023, 5, 8, 12, tzinfo=dt.UTC)
    assert resolve_text(said, ref)[0] == resolved


@pytest.mark.parametrize(
    ("said", "resolved"),
    [
        # 8 May 2023 is a Monday: last weekend began on 6 May, the one before on 29 April.
        ("we drove to the lake two weekends ago", "we drove to the lake on the weekend of 29 April 2023"),
        ("my cousin visited the weekend before last", "my cousin visited on the weekend of 29 April 2023"),
        ("I sold the old bike a fortnight ago", "I sold the old bike around 24 April 2023"),
        ("she quit smoking a few years back", "she quit smoking around 2020"),
        ("I joined the choir a few months ago", "I joined the choir around February 2023"),
        ("两个周末前我们去了海边", "2023年4月29日那个周末我们去了海边"),
        # a replacement that opens the sentence opens with a capital
        ("Three weeks ago I started at the bakery.", "Around 17 April 2023 I started at the bakery."),
        ("Good news. Last Friday I passed the exam.", "Good news. On 5 May 2023 I passed the exam."),
    ],
)
def test_weekends_fortnights_and_vague_counts_resolve(said: str, resolved: str) -> None:
    ref = dt.datetime(2023, 5, 8, 12, tzinfo=dt.UTC)
    assert resolve_text(said, ref)[0] == resolved


@pytest.mark.parametrize(
    "said",
    ["It feels like only yesterday we moved into this flat", "seems like just yesterday he learned to walk",
     "毕业典礼仿佛就在昨天", "那场比赛就像昨天一样清楚"],
)  # fmt: skip
def test_a_figurative_yesterday_is_no_date(said: str) -> None:
    ref = dt.datetime(2023, 5, 8, 12, tzinfo=dt.UTC)
    assert resolve_text(said, ref) == (said, [])
    # the literal one still is
    assert resolve_text("we moved into this flat yesterday", ref)[0] == "we moved into this flat on 7 May 2023"
    assert resolve_text("昨天我们搬进了新家", ref)[0] == "2023年5月7日我们搬进了新家"


@pytest.mark.parametrize(
    "said",
    [
        "We haven't spoken in a few weeks",
        "I have not been skiing in three years",
        "first time in two months I slept well",
    ],
)
def test_in_a_span_after_a_negation_is_how_long_not_when(said: str) -> None:
    ref = dt.datetime(2023, 5, 8, 12, tzinfo=dt.UTC)
    assert resolve_text(said, ref) == (said, [])
    assert resolve_text("the movers come in two weeks", ref)[0] == "the movers come around 22 May 2023"


def test_back_after_no_count_of_time_is_no_date() -> None:
    ref = dt.datetime(2023, 5, 8, 12, tzinfo=dt.UTC)
    for said in ["I'll call you back in a few days", "bring two books back", "I came back tomorrow"]:
        text, matches = resolve_text(said, ref)
        assert "back" in text, (said, text)


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("You know I teach piano on weekends.", "Lena teaches piano on weekends."),
        ("You know what, I sold my car.", "Lena sold their car."),
        ("Yup, I got the apartment on Elm Street!", "Lena got the apartment on Elm Street."),
        ("I mean, my dad is a carpenter.", "Lena's dad is a carpenter."),
        ("你知道吗，我妈妈是中学老师。", "Lena的妈妈是中学老师。"),
        ("我是说，我在读夜校。", "Lena在读夜校。"),
    ],
)
def test_an_opening_discourse_phrase_is_not_part_of_the_fact(said: str, fact: str) -> None:
    out = RuleExtractor().extract_one(
        MessageView(id=1, role="user", name="Lena", content=said, created_at=dt.datetime(2024, 3, 4, tzinfo=dt.UTC))
    )
    assert [c.text for c in out.candidates] == [fact]


def test_a_clause_cut_from_a_longer_sentence_ends_as_a_sentence(alice) -> None:  # type: ignore[no-untyped-def]
    texts = [f["text"] for f in _facts(alice, "I started learning the cello about five years ago; love it.")]
    assert any("around 2018" in t for t in texts), texts
    assert not any(t.endswith((";.", ",.", ":.")) for t in texts), texts
    texts = [f["text"] for f in _facts(alice, "我三年前开始学钢琴；现在每天练一个小时。")]
    assert any("2020年" in t for t in texts) and not any(t.endswith(("；。", "，。")) for t in texts), texts


@pytest.mark.parametrize(
    "habit", ["我每周六去打网球", "我每个星期天都去教堂", "逢周三开会", "I play tennis every Saturday"]
)
def test_a_weekday_that_recurs_is_no_date(habit: str) -> None:
    ref = dt.datetime(2023, 5, 8, 12, tzinfo=dt.UTC)
    assert resolve_text(habit, ref) == (habit, [])
    # The same weekday once is a date: this week's, or the next week's.
    assert resolve_text("我这周六去打网球", ref)[0] == "我2023年5月13日去打网球"
    assert resolve_text("我下个星期天去教堂", ref)[0] == "我2023年5月21日去教堂"


@pytest.mark.parametrize(
    "question",
    [
        "周日你们营业吗？",
        "请问周六上午开门吗",
        "你们店星期天几点关门？",
        "周日能上门安装吗？",
        "Are you open on Sundays?",  # guard
        "Do you still open on Sunday?",  # guard
    ],
)
def test_a_weekday_in_a_question_about_opening_hours_is_every_such_day(question: str) -> None:
    ref = dt.datetime(2023, 5, 8, 12, tzinfo=dt.UTC)  # a Monday
    assert resolve_text(question, ref) == (question, [])


@pytest.mark.parametrize(
    ("said", "resolved"),
    [
        ("我周日去医院复查", "我2023年5月14日去医院复查"),  # guard
        ("你们这周日开门吗？", "你们2023年5月14日开门吗？"),  # guard: this Sunday is one day
        ("I'm seeing the physio on Sunday.", "I'm seeing the physio on 14 May 2023."),
        ("We'll drive up to the coast on Friday", "We'll drive up to the coast on 12 May 2023"),
        ("I'm meeting the landlord on Monday", "I'm meeting the landlord on 15 May 2023"),  # today's weekday: next week
        ("We went to the lake on Sunday.", "We went to the lake on Sunday."),  # guard: a past keeps its weekday
        ("I usually swim on Tuesday mornings", "I usually swim on Tuesday mornings"),  # guard: a habit
    ],
)
def test_a_weekday_in_a_one_off_plan_is_its_date(said: str, resolved: str) -> None:
    ref = dt.datetime(2023, 5, 8, 12, tzinfo=dt.UTC)  # a Monday
    assert resolve_text(said, ref)[0] == resolved


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Once the season is over I need a new routine.", "Once the season is over Priya needs a new routine."),
        ("I feed the cat at seven.", "Priya feeds the cat at seven."),
        ("I finished the report.", "Priya finished the report."),
        ("I agreed to help.", "Priya agreed to help."),
    ],
)
def test_third_person_conjugates_present_verbs_that_end_like_past_forms(sentence: str, expected: str) -> None:
    assert third_person_en(sentence, "Priya") == expected


SPLITS = [
    # text, the sentences it splits into
    (
        "My email is sam.okafor@fastmail.com. Write any time.",
        ["My email is sam.okafor@fastmail.com.", "Write any time."],
    ),
    (
        "The form is at https://example.com/forms/v2.1?id=7. I filled it in.",
        ["The form is at https://example.com/forms/v2.1?id=7.", "I filled it in."],
    ),
    ("Our cat weighs 3.5 kg. She is fat.", ["Our cat weighs 3.5 kg.", "She is fat."]),
    ("I saw Dr. Lee on Monday. He was kind.", ["I saw Dr. Lee on Monday.", "He was kind."]),
    (
        "I grow herbs, e.g. basil and mint. They smell great.",
        ["I grow herbs, e.g. basil and mint.", "They smell great."],
    ),
    ("We go to St. Mary's on Sundays.", ["We go to St. Mary's on Sundays."]),
    ("I moved to the U.S. last year. It was hard.", ["I moved to the U.S. last year.", "It was hard."]),
    ("The call is at 4 p.m. tomorrow. Join us.", ["The call is at 4 p.m. tomorrow.", "Join us."]),
    ("The call is at 4 p.m. Then dinner.", ["The call is at 4 p.m.", "Then dinner."]),
    ("My flat is No. 12 on the left.", ["My flat is No. 12 on the left."]),
    ("No. I don't think so.", ["No.", "I don't think so."]),
    ("Wow!! I won... Really?", ["Wow!!", "I won...", "Really?"]),
    ("Hi!\nI moved to Lyon.\n\nBye", ["Hi!", "I moved to Lyon.", "Bye"]),
    ("我的邮箱是 li.na@example.cn。我住在北京。", ["我的邮箱是 li.na@example.cn。", "我住在北京。"]),
    ("我的邮箱是li.na@example.cn，有事发邮件", ["我的邮箱是li.na@example.cn，有事发邮件"]),
    ("我体重是62.5公斤！最近在减肥。", ["我体重是62.5公斤！", "最近在减肥。"]),
    ("官网是 www.example.com.cn；电话是 010-1234", ["官网是 www.example.com.cn；", "电话是 010-1234"]),
    ("我周末去了上海.你呢?", ["我周末去了上海.", "你呢?"]),
]


@pytest.mark.parametrize(("text", "sentences"), SPLITS)
def test_sentences_split_at_their_ends_and_not_inside_addresses_numbers_or_abbreviations(
    text: str, sentences: list[str]
) -> None:
    from facts.extraction.sentences import split_sentences

    split = split_sentences(text)
    assert [s for s, _start, _end in split] == sentences
    assert all(text[start:end] == s for s, start, end in split)


@pytest.mark.parametrize(
    ("content", "kept"),
    [
        ("My email is sam.okafor@fastmail.com, write me there.", "sam.okafor@fastmail.com"),
        ("我的邮箱是 li.na@example.cn", "li.na@example.cn"),
        ("My dog weighs 3.5 kg now.", "3.5 kg"),
    ],
)
def test_a_fact_keeps_an_address_or_a_decimal_whole(content: str, kept: str) -> None:
    ref = dt.datetime(2023, 5, 8, 12, tzinfo=dt.UTC)
    out = RuleExtractor().extract_one(MessageView(id=1, role="user", name="", content=content, created_at=ref))
    assert any(kept in c.text for c in out.candidates), [c.text for c in out.candidates]


EMPTY_PLANS = [
    "Ooh, I'll definitely give that a go this weekend!",
    "Gonna look into it tomorrow.",
    "No worries, I'll get 'em later!",
    "好，我回头研究一下",
    "改天去看看吧",
]
PLANS_WITH_CONTENT = [
    ("I'll try the ramen place near the station on Friday.", "ramen"),
    ("I'm going to keep the kitten we found.", "kitten"),
    ("下周我要去成都出差", "成都"),
]


@pytest.mark.django_db
@pytest.mark.parametrize("content", EMPTY_PLANS)
def test_a_plan_whose_object_is_a_pronoun_alone_yields_no_fact(alice, content: str) -> None:  # type: ignore[no-untyped-def]
    assert _facts(alice, content, name="Ravi") == []


@pytest.mark.django_db
@pytest.mark.parametrize(("content", "word"), PLANS_WITH_CONTENT)
def test_a_plan_with_content_is_kept(alice, content: str, word: str) -> None:  # type: ignore[no-untyped-def]
    assert any(word in f["text"] for f in _facts(alice, content, name="Ravi")), content


LISTENER_AFFAIRS = [
    "I'm sure your recital will go brilliantly!",
    "I know how exhausting night shifts can be.",
    "Fingers crossed for the audition, I bet it turns out great!",
    "我相信你肯定能考上的",
    "I am truly proud of you for finishing the course.",
    "I really appreciate your patience.",
    "I love how you always make time for the kids.",
    "Here's a snap of me and my brother at the pier!",
]


@pytest.mark.django_db
@pytest.mark.parametrize("content", LISTENER_AFFAIRS)
def test_the_speakers_attitude_to_the_listeners_affairs_yields_no_fact(alice, content: str) -> None:  # type: ignore[no-untyped-def]
    assert _facts(alice, content, name="Ravi") == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "word"),
    [
        ("I'm so proud of my nephew for passing his driving test.", "nephew"),
        ("I got laid off in May, but I'm sure it will work out.", "laid off"),
    ],
)
def test_an_attitude_about_the_speakers_own_life_is_kept(alice, content: str, word: str) -> None:  # type: ignore[no-untyped-def]
    assert any(word in f["text"] for f in _facts(alice, content, name="Ravi")), content


GENERAL_OR_POINTER = [
    "Moving house can be really exhausting.",
    "Gardening is so therapeutic.",
    "Nothing beats a hot bath after a long hike.",
    "Here's a photo from the lake house!",
    "Check out this pic of the new kitchen.",
    "Wow, congrats on the promotion at the agency.",
    "Plan the route before you leave.",
]


@pytest.mark.parametrize("sentence", GENERAL_OR_POINTER)
def test_a_general_truth_a_pointer_or_congratulations_is_not_said_of_the_speaker(sentence: str) -> None:
    assert frame(sentence, "Lena", type_="profile", question=False) == ""


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Parents are visiting next week.", "Lena mentioned that Parents are visiting next week"),
        ("She got the job at the bakery.", "Lena mentioned that she got the job at the bakery"),
        ("Plus, the flat has a balcony.", "Lena mentioned that the flat has a balcony"),
        ("Luckily the vet says Milo and Otis are fine.", "Lena mentioned that the vet says Milo and Otis are fine"),
        (
            "Many of the pears fell before we picked them.",
            "Lena mentioned that many of the pears fell before we picked them",
        ),
        ("In spring the clinic moved across town.", "Lena mentioned that in spring the clinic moved across town"),
    ],
)
def test_a_statement_of_fact_without_first_person_is_framed_plainly(sentence: str, expected: str) -> None:
    assert frame(sentence, "Lena", type_="event", question=False) == expected


def test_an_instruction_is_no_complaint_even_when_typed_one() -> None:
    assert frame("Be sure to keep the receipt for your customers", "Lena", type_="complaint", question=False) == ""


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "word"),
    [("Hey Priya, my new flat is in Leith.", "Leith"), ("Hi I moved to Glasgow in June.", "Glasgow")],
)
def test_a_greeting_before_the_fact_is_left_out(alice, content: str, word: str) -> None:  # type: ignore[no-untyped-def]
    texts = [f["text"] for f in _facts(alice, content, name="Ravi")]
    assert any(word in t for t in texts) and not any(t.startswith(("Hey", "Hi")) for t in texts), texts


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "Running a pottery studio was always a dream of mine.",
            "Running a pottery studio was always a dream of Omar's.",
        ),
        (
            "My brother lent me his van, and the tools are mine.",
            "Omar's brother lent them his van, and the tools are theirs.",
        ),
        ("Mine is the blue kayak.", "Omar's is the blue kayak."),
    ],
)
def test_mine_is_the_name_first_then_theirs(sentence: str, expected: str) -> None:
    assert third_person_en(sentence, "Omar") == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("So far the new job is going well.", "So far the new job is going well."),
        ("so far, so good with the night classes", "So far, so good with the night classes"),
        ("So I signed up for the marathon.", "I signed up for the marathon."),
        ("所以我报名了马拉松。", "所以我报名了马拉松。"),
    ],
)
def test_so_far_is_content_not_a_discourse_word(sentence: str, expected: str) -> None:
    assert strip_chatter(sentence) == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("I wanna open a bike shop.", "Omar wants to open a bike shop."),
        ("I gotta renew my passport.", "Omar has to renew their passport."),
        ("Should I sell the old piano?", "Should Omar sell the old piano?"),
        ("Do I need a permit for the shed?", "Does Omar need a permit for the shed?"),
        ("Am I too old for ballet?", "Is Omar too old for ballet?"),
        ("The thing is I hate long drives.", "The thing is Omar hates long drives."),
    ],
)
def test_informal_verbs_and_inverted_questions_agree_with_the_name(sentence: str, expected: str) -> None:
    assert third_person_en(sentence, "Omar") == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("What can I say, I adore sailing.", "I adore sailing."),
        ("Sure, I can lend you the tent.", "I can lend you the tent."),
        ("Sure enough, the bus was late.", "Sure enough, the bus was late."),
    ],
)
def test_filler_openers_are_stripped(sentence: str, expected: str) -> None:
    assert strip_chatter(sentence) == expected


@pytest.mark.parametrize(
    "sentence",
    ["So much has changed in the last month.", "Over the next week I'll be offline.", "The past year was a blur."],
)
def test_the_last_month_is_a_span_not_a_calendar_month(sentence: str) -> None:
    ref = dt.datetime(2024, 3, 14, 9, 0, tzinfo=dt.UTC)
    assert resolve_text(sentence, ref) == (sentence, [])
    assert resolve_text("I changed teams last month.", ref)[0] == "I changed teams in February 2024."
