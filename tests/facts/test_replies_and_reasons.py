"""Replies and the reasons in them, on phrasings of their own, in English and Chinese: a reply that takes the
assistant's offer is the user's decision; a service that failed is a complaint even when what failed is medical; an
injury, a condition or a pill named in other words is health (a spending spree's 肉疼 is not); a mind made up is a
decision; 呢 after a statement asks nothing; a question to the business for a slot or a model is an inquiry, worded
as the business would hear it; an id or a mobile number given without its owner is the speaker's; "neither of us"
is the speaker among others; a change of topic or a date declined is no part of the fact."""

from __future__ import annotations

import datetime as dt

import pytest

from facts.extraction.base import MessageView
from facts.extraction.framing import zh_asked
from facts.extraction.person import listener_third
from facts.extraction.rules import RuleExtractor

WHEN = dt.datetime(2026, 5, 11, 10, 0, tzinfo=dt.UTC)


def _facts(text: str, *, before: str = "", name: str = "") -> list[tuple[str, str]]:
    """(type, text) of every fact of a user's turn, after the assistant's message `before`."""
    view = MessageView(id=1, role="user", name=name, content=text, created_at=WHEN, previous_assistant_content=before)
    out = RuleExtractor().extract([view])[1]
    return [(c.type, c.text) for c in out.candidates] or [(f"drop:{out.gate.reason}", "")]


def _typed(text: str, *, before: str = "") -> str:
    return _facts(text, before=before)[0][0]


@pytest.mark.parametrize(
    ("before", "reply", "expected"),
    [
        ("We can offer a free month of premium, or a £15 voucher. Which would you prefer?",
         "Alright, send me the voucher.", "Asked the business to send them the voucher."),
        ("There's a slot on Thursday at 4pm with Dr Okafor. Shall I book it?", "ok fine. Book it.",
         "Asked the business to book it."),
        ("您是想要退款还是补发一件呢？", "补发吧，我还挺急着穿的", "选择补发，用户还挺急着穿的。"),
        ("这个套餐可以降到59元一个月，您需要吗？", "那就降到59的吧", "选择降到59的。"),
    ],
)  # fmt: skip
def test_a_reply_that_takes_the_offer_is_a_decision(before: str, reply: str, expected: str) -> None:
    facts = _facts(reply, before=before)
    assert ("decision", expected) in facts


@pytest.mark.parametrize(
    ("before", "reply", "expected"),
    [
        # No offer before it: an order to the listener is no fact; thanks and a sign-off take nothing.
        ("", "Book it.", "drop:"),
        ("Would you like a copy of the receipt?", "No thanks, that's everything.", "drop:"),
        ("还有其他可以帮您的吗？", "没有了，谢谢", "drop:"),
    ],
)
def test_a_reply_without_an_offer_taken_stays_dropped(before: str, reply: str, expected: str) -> None:
    assert _typed(reply, before=before).startswith(expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A service that failed the speaker, whatever it delivers.
        ("The physio never showed up for the home visit on Monday.", "complaint"),
        ("说好补牙三百，结果收了我五百多", "complaint"),
        ("体检报告说好三天出，到现在还没寄到", "complaint"),
        # Health in words the list lacked.
        ("打篮球扭伤了手腕，这两周都得打着石膏", "health"),
        ("查出来有甲减，现在每天吃一片药", "health"),
        ("I've been on crutches since the fall in March.", "health"),  # (a guard: right before too)
        # A mind made up.
        ("想清楚了，明年不续租，搬回老家去", "decision"),
        # 呢 after a statement asks nothing.
        ("上个月在千岛湖钓了条八斤的鲈鱼，现在还冻在冰箱里呢", "event"),
        # Guards, right before too: a lens order not come, a knee swollen, a GP's word.
        ("My contact lens order still hasn't turned up and I'm on my last pair.", "complaint"),
        ("下周的聚会我去不了，膝盖还肿着呢", "health"),
        ("The GP reckons I'm gluten intolerant, so bread's out for now.", "health"),
    ],
)
def test_words_that_type_a_reason(text: str, expected: str) -> None:
    assert _typed(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "那你呢",  # 呢 after a bare topic asks
        "这个月换了台新电脑，肉疼",  # the wallet's pain
        "看到账单有点心疼",
    ],
)
def test_no_health_in_other_senses(text: str) -> None:
    assert _typed(text) != "health"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("你好，想预约拔智齿，下周三还有号吗", "想预约拔智齿，咨询"),
        ("顺便问下，你们家那款电热毯有没有单人款", "咨询商家那款电热毯是否有单人款"),
        # (a guard: right before too)
        ("Do you lot sell hearing aid batteries in store?", "Asked whether they lot sell hearing aid batteries"),
    ],
)
def test_a_question_to_the_business_for_a_slot_or_a_model_is_an_inquiry(text: str, expected: str) -> None:
    (type_, said), *_ = _facts(text)
    assert type_ == "inquiry"
    assert said.startswith(expected)


def test_a_question_to_a_friend_about_their_sale_is_not_an_inquiry() -> None:
    assert _typed("Did you ever sell that old camper van in the end?").startswith("drop:")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("你们那张年卡两个人能一起用吗", "商家那张年卡两个人能否一起用"),
        ("我们能带小孩进去吗", "我们能否带小孩进去"),
        ("这个功能收费吗", "这个功能是否收费"),
    ],
)
def test_chinese_yes_no_question_said_without_asking(question: str, expected: str) -> None:
    assert zh_asked(question) == expected


def test_a_relative_clause_of_the_business_speaks_of_it_in_third_person() -> None:
    assert listener_third("the grout you use safe for marble") == "the grout they use safe for marble"
    assert listener_third("what gave you the idea") == "what gave them the idea"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ok. booking reference is HX-40917 in case you need it", ("other", "Dana's booking reference is HX-40917")),
        ("换号了，现在用15820036617", ("profile", None)),
        ("new one's 07911 123456", ("profile", None)),  # (a guard: right before too)
    ],
)
def test_an_id_or_a_mobile_given_without_its_owner_is_the_speakers(text: str, expected: tuple) -> None:
    (type_, said), *_ = _facts(text, name="Dana")
    assert type_ == expected[0]
    if expected[1]:
        assert said.startswith(expected[1])


def test_a_number_named_as_an_order_is_no_phone() -> None:
    (type_, _said), *_ = _facts("快递单号是13800001111")
    assert type_ != "profile"


def test_neither_of_us_is_the_speaker_among_others() -> None:
    (type_, said), *_ = _facts("Neither of us can stand olives, so leave them off.", name="Dana")
    assert type_ == "preference"
    assert said.startswith("Neither Dana nor the others can stand olives")


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        ("Totally unrelated, but I've started learning the cello.", "unrelated"),
        ("On another note, I passed my driving theory test.", "another note"),
        ("题外话，我上个月开始学大提琴了", "题外话"),
        ("周末不行，我妈那天做手术", "不行"),
    ],
)
def test_a_change_of_topic_or_a_date_declined_is_no_part_of_the_fact(text: str, absent: str) -> None:
    (_type, said), *_ = _facts(text, name="Dana")
    assert said and absent not in said


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A licence's term is a legal matter, asked about or not.
        ("My driving licence runs out in July, do I need a new photo?", "legal"),
        ("我的驾驶证下个月到期了，在外地能换证吗", "legal"),
        # A machine or a car replaced by a new one is a possession.
        ("前阵子换了部新手机，华为的", "profile"),
        # A test passed is an event.
        ("Finally passed my motorbike theory test!", "event"),
        ("科目三昨天终于考过了", "event"),
        # A trip the speaker asks to have planned is their plan.
        ("Could you help me plan a three-day getaway to Bruges for our anniversary?", "commitment"),
        ("帮我排一下十一去厦门的行程，两个大人一个小孩", "commitment"),
    ],
)
def test_what_the_turn_is_about_types_it(text: str, expected: str) -> None:
    assert _typed(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "right, that's us all sorted, cheers",
        "Lovely, that's everything done then.",
        "帮我写一份请假条",  # a task, no trip
        "我们换了一条路走",  # no thing gained
        "Did you pass your driving test?",  # the listener's test
    ],
)
def test_sign_offs_tasks_and_the_listeners_news_stay_dropped(text: str) -> None:
    assert _typed(text).startswith("drop:")


def test_a_trip_planned_is_said_as_the_speakers_plan() -> None:
    assert _facts("帮我规划一下端午去青岛的行程", name="Dana") == [("commitment", "Dana计划端午去青岛。")]
    (_type, said), *_ = _facts("Can you plan me a 5-day trip to Sicily in May?", name="Dana")
    assert said == "Dana is planning a 5-day trip to Sicily in May."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Chinese typed with spaces for commas: each clause read as one; a question ending in how many asks.
        ("你们那个保温杯有现货吗 最快几天能到", "inquiry"),
        ("这次调薪 工资涨了15%", "other"),
        ("上周末跑了人生第一个全马", "event"),
        ("比赛我退赛了 脚踝还没好", "decision"),
        ("停车场是免费的吗", "inquiry"),
        ("你好 我想咨询一下宽带提速", "inquiry"),
        ("Hi, I'd like to ask about the warranty on the dishwasher.", "inquiry"),
        ("The plumber who came on Monday left a dent in the boiler cover and never came back.", "complaint"),
        ("My naturalisation ceremony is booked for the 20th.", "legal"),
        ("下个月去移民局办入籍面试", "legal"),
        ("I've pulled out of the London 10k, my knee isn't ready.", "decision"),
        ("Passed my grade 5 piano practical exam last week!", "event"),
        ("Just back from two weeks in Vietnam and I'm broke.", "event"),
        ("Can your engineers fit the new hob on a Saturday?", "inquiry"),
        ("Do you have any stores in Cardiff?", "inquiry"),
        ("Please remind me to renew the car tax before the 28th.", "commitment"),
        # (guards: right before too)
        ("Sold my old road bike for 350 quid to a guy from work.", "profile"),
        ("Ran my first half marathon on Sunday, 1:58!", "event"),
    ],
)
def test_phrasings_of_batch_i_kinds(text: str, expected: str) -> None:
    assert _typed(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I'll miss the view from the old office tbh",
        "at least it's not raining",  # (guards from here: dropped before too, for other reasons)
        "ok, bed calls. laters",
        "倒车的时候把保险杠刮花了 心疼死了",  # a bumper is no insurance, 心疼 no pain
        "What do you do there on weekends?",  # a friend's doings, not the business's
        "Is your team still training on Thursdays?",
    ],
)
def test_reactions_sign_offs_and_a_friends_doings_are_dropped_or_not_legal(text: str) -> None:
    assert _typed(text).startswith("drop:")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Please remind me to renew the car tax before the 28th.", "Dana needs to renew the car tax before the 28th."),
        ("Can you remind me to ring the dentist tomorrow?", "Dana needs to ring the dentist on 12 May 2026."),
        ("记得提醒我下周二给我妈打电话", "Dana要2026年5月19日给妈妈打电话。"),
        # A time's colon is no clause break.
        ("my MRI is on the 9th at 8:30 and I have to fast from midnight, can you remind me?",
         "Dana's MRI is on the 9th at 8:30 and they have to fast from midnight."),
        ("12th's no good for me actually, my citizenship interview is that morning",
         "Dana's citizenship interview is that morning."),
    ],
)  # fmt: skip
def test_a_reminder_is_the_plan_and_leads_are_no_part_of_it(text: str, expected: str) -> None:
    assert _facts(text, name="Dana")[0][1] == expected


@pytest.mark.parametrize(
    ("before", "reply", "expected"),
    [
        ("We can do a £10 bill credit or a free month of the sports pack, which would you like?",
         "The bill credit please, I never watch the football.", "Chose the bill credit."),
        ("可以为您换成88元或者128元的套餐，您看选哪个？", "那就换88的 从下个月开始", "选择换88的，从下个月开始。"),
        ("您的会员可以帮您退订，需要现在办理吗？", "可以 马上退", "选择退订。"),
    ],
)  # fmt: skip
def test_a_choice_among_the_offers_is_a_decision(before: str, reply: str, expected: str) -> None:
    assert ("decision", expected) in _facts(reply, before=before)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # What went wrong comes before the remedy chosen (the corpus README's order: complaint, then decision).
        ("The lamp you sent flickers and then dies, I'd rather have my money back.", "complaint"),
        ("收到的台灯一开就闪，还是退货吧", "complaint"),
        ("The kettle you sent is leaking, I'd rather have my money back.", "complaint"),
        # A remedy chosen with nothing gone wrong in the sentence stays a decision (a guard).
        ("I'd rather have a refund than store credit, please.", "decision"),
        # Classes and clubs attended are how the speaker lives, dated or not.
        ("I joined a rowing club in April.", "profile"),
        ("上个月报了个书法班，每周六上午去", "profile"),
    ],
)
def test_the_readmes_order_between_types(text: str, expected: str) -> None:
    assert _typed(text) == expected
