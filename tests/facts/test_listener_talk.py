"""What is the conversation's own business yields no fact, on phrasings of their own (none from the corpus, the bench
batches or any benchmark), in English and Chinese: pictures or news promised to the listener, thanks said in words,
what an unnamed thing did to the speaker or is worth to them, a catch-up that tells nothing yet; and openers that answer or frame
("Thanks for asking, all good -", "Since we last talked,", "借你吉言") are not part of the speaker's fact."""

from __future__ import annotations

import datetime as dt

import pytest

from facts.extraction.base import MessageView
from facts.extraction.gate import rule_verdict
from facts.extraction.rules import RuleExtractor

WHEN = dt.datetime(2026, 5, 20, 9, 30, tzinfo=dt.UTC)


def _facts(text: str, *, name: str = "Robin"):  # type: ignore[no-untyped-def]
    view = MessageView(id=1, role="user", name=name, content=text, created_at=WHEN)
    return RuleExtractor().extract([view])[1].candidates


@pytest.mark.parametrize(
    "text",
    [
        # Pictures, clips or news promised to the listener, or seeing them: the talk's own business.
        "Sure thing, I'll text you a few snaps of the new kitchen later.",
        "I'm gonna forward you the video once it uploads!",
        "We'll keep you posted on how the move goes.",
        "I'll let you know what the vet says.",
        "Will see you around then!",
        "好嘞，晚点把视频传你看看。",
        "我到时候再告诉你哈",
        "有结果了告诉你",
        # Thanks said in words.
        "Your advice honestly helped me a ton.",
        "Your kind words really made my day.",
        "你的鼓励对我真的太重要了",
        "你说的那些安慰让我好受多了",
        # What an unnamed thing did to the speaker.
        "It always reminds me how lucky I am.",
        "That really made me think about my priorities.",
        "这件事真的让我成长了很多",
        "这让我想起大学那会儿",
        # What an unnamed thing is worth to the speaker, and nothing else.
        "It's become a real part of our weekly routine.",
        "It's now an essential part of my mornings.",
        "It's such an essential part of my evenings now.",
        "It's honestly a game changer for us.",
        "这个已经成了我们生活的一部分啦",
        "这已经成了我每天的习惯了。",
        "它对我来说特别有意义！",
        "It's honestly like therapy for us, letting us switch off for an hour.",
        # A plan on a pronoun not yet acted on: the thing was named in another turn.
        "Nope, haven't watched it yet, but I'll surely give it a look.",
        "I haven't booked it yet but I'll do it tomorrow.",
        "这个我还没试过，回头试试。",
        # A catch-up with no news in it.
        "Loads happened since we last caught up!",
        "It's been a hectic month since we last spoke.",
        "上次见面以后发生了好多事情",
        "We've been flat out since we last spoke!",
        "Oh, I've been really swamped since we last caught up.",
        "上次聊完之后我一直挺忙的！",
        "自从上次见面，我们一直都很忙。",
    ],
)
def test_the_conversations_own_business_yields_no_fact(text: str) -> None:
    assert _facts(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        # A document handed over, a date, a figure or the speaker's news keep the sentence.
        ("I'll email you the signed lease on Monday.", "lease"),
        ("I'll send you the photos from Lisbon on the 14th.", "14"),
        ("It reminds me of the summer I spent in Crete in 2015.", "2015"),
        ("It got me the job at the port authority.", "port authority"),
        ("我明天把体检报告发你。", "体检"),
        ("这让我下定决心明年去考研。", "考研"),
        ("It means so much to me that my brother flew in from Perth.", "Perth"),
        ("It's been part of my routine since I moved to Galway in 2019.", "Galway"),
        ("我每周三去游泳，这已经成了习惯。", "游泳"),
        ("I haven't been to Lisbon yet but I'll try it next spring.", "Lisbon"),
        ("我还没去过云南，回头试试。", "云南"),
        ("I've been busy since we last chatted: I started a pottery course in Leeds.", "pottery"),
        ("上次聊完之后我一直在忙着装修新房。", "装修"),
    ],
)
def test_a_promise_or_an_effect_with_content_is_kept(text: str, word: str) -> None:
    facts = _facts(text)
    assert facts and word in facts[0].text


@pytest.mark.parametrize(
    ("text", "opener", "word"),
    [
        ("Thanks for asking, all good - my daughter started school in March.", "asking", "school"),
        ("Doing well thanks - I got my motorbike licence last week.", "well", "licence"),
        ("Since we last talked, I enrolled on a part-time MBA at Warwick.", "last talked", "MBA"),
        ("Speaking of holidays, I booked a week in Madeira for October.", "Speaking", "Madeira"),
        ("Check this out - I repainted the whole flat myself.", "Check", "repainted"),
        ("借你吉言，我下个月调去深圳分公司了。", "借你吉言", "深圳"),
        ("说起来，我上周把驾照考下来了。", "说起来", "驾照"),
        ("I'm super excited to tell you: we signed up for pottery on Tuesdays!", "excited", "pottery"),
        ("I'm thrilled to share that we adopted a greyhound called Pip.", "thrilled", "greyhound"),
        ("我特别高兴地告诉你，我下个月调去成都分公司了。", "高兴", "成都"),
        ("Lots has happened since we last caught up: Ana and I got engaged in Rome!", "happened", "engaged"),
        ("上次聊完之后发生了好多事，我订婚了！", "发生", "订婚"),
        ("I see, so I'll need the PIN to reset it.", "sees", "PIN"),
        ("我明白了，那我下周再来办理。", "明白", "办理"),
        ("Can't complain - we finally moved into the house in Bristol in May.", "complain", "Bristol"),
        ("Not bad, I started a new job at the city library.", "bad", "library"),
        ("还行，我上个月从银行辞职了，现在在一家出版社做编辑。", "还行", "出版社"),
        ("老样子，不过我下个月要搬去苏州了。", "老样子", "苏州"),
    ],
)
def test_an_opener_that_answers_or_frames_is_not_in_the_fact(text: str, opener: str, word: str) -> None:
    facts = _facts(text)
    assert facts
    assert opener not in facts[0].text and word in facts[0].text


def test_a_birth_word_needs_a_birth_not_a_happening() -> None:
    """发生了 ("happened") holds 生了 ("gave birth"); only the second is a relative's news."""
    assert rule_verdict("我们部门最近发生了一些变动").reason != "relationship"
    assert rule_verdict("我姐上个月生了个女儿").reason == "relationship"


@pytest.mark.parametrize(
    "text",
    [
        # A non-commitment or a shrug beside chatter: nothing decided, nothing promised.
        "Sure, I'll keep it in mind, thanks!",
        "Okay, we'll wait and see, thanks.",
        "Maybe some other time!",
        "Ha, I could never, well done.",
        "Wow, rather you than me.",
        "好的，谢谢，我还得再斟酌一下。",
        "好的，我还得琢磨琢磨。",
        "天哪，我可受不了。",
    ],
)
def test_a_non_commitment_beside_chatter_yields_no_fact(text: str) -> None:
    assert rule_verdict(text).reason == "vague"
    assert _facts(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("I'll think it over, the flat in Headingley is £950 a month.", "950"),
        ("我再考虑考虑，毕竟我对青霉素过敏。", "过敏"),
    ],
)
def test_a_non_commitment_beside_a_fact_keeps_the_fact(text: str, word: str) -> None:
    facts = _facts(text)
    assert facts and any(word in f.text for f in facts)


@pytest.mark.parametrize(
    "request_",
    ["帮我安排一个周末的大扫除清单。", "帮我挑几首适合婚礼的歌。"],
)
def test_a_request_for_work_in_chinese_yields_no_fact(request_: str) -> None:
    assert _facts(request_) == []


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Shall I move your gym membership to the off-peak plan at £24 from the 1st?", "Fine, go ahead."),
        ("I can pause your subscription until 12 March, would that work?", "Yes please, starting Monday."),
        ("需要把您的套餐改成每月39元的吗？", "行，下周一开始"),
        ("两个配件都给您补发，可以吗？地址还是朝阳区那个？", "对，都要"),
    ],
)
def test_accepting_a_read_back_with_only_a_start_is_kept(question: str, answer: str) -> None:
    view = MessageView(id=1, role="user", name="", content=answer, created_at=WHEN, previous_assistant_content=question)
    assert RuleExtractor().extract([view])[1].candidates


@pytest.mark.parametrize(
    ("sentence", "event"),
    [
        # An event by nearness needs something that happened: a date, a number, a past word, a done aspect.
        ("I'm always tinkering with old radios in the shed.", False),
        ("Still hunting for a rehearsal space near the river.", False),
        ("我每天晚上都练一小时书法", False),
        ("周末一般在家带娃", False),
        ("I ran the Harrogate 10k in 52 minutes.", True),
        ("Finally repainted the garden fence.", True),
        ("上个月去了趟敦煌", True),
    ],
)
def test_an_event_by_nearness_needs_something_that_happened(sentence: str, event: bool) -> None:
    from facts.extraction.typer import _standing

    assert (_standing("event", sentence) == "event") is event


@pytest.mark.parametrize(
    "text",
    [
        # Effort promised on nothing named: the speaker's own "加油".
        "I'll keep going no matter what!",
        "We're gonna make our dreams come true!",
        "Keep pushing, stay focused!",
        "我一定会继续加油的！",
        "我要坚持下去",
        "Renovating this place has been rough, but we're gonna make it!",
        "I'll keep trying and chase my dreams no matter what.",
        # Asking after the listener's venture, with no word of the speaker's.
        "So how's the bakery coming along?",
        "How did the exhibition go in the end?",
    ],
)
def test_effort_on_nothing_and_asking_after_the_listener_yield_no_fact(text: str) -> None:
    assert rule_verdict(text).keep is False
    assert _facts(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "I'll keep practising the violin every evening until the recital.",
        "我会继续每天背五十个单词，备考六级。",
        "It's been a rough year, but I'm opening the bakery in June.",
        "I'll make it to your recital on Sunday.",
        "How is the refund going? I sent the parcel back on Monday.",
        "How's my refund coming along?",
    ],
)
def test_effort_with_an_object_and_a_customer_asking_after_an_order_are_kept(text: str) -> None:
    assert rule_verdict(text).keep is not False


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # An opener only before its mark: "I see" followed by what the speaker sees is the fact itself.
        ("I see a therapist every Tuesday.", "sees a therapist"),
        ("I see my gran every Sunday in Dundee.", "sees"),
        ("明白了，我下周去上海出差。", "上海出差"),
    ],
)
def test_an_opener_is_one_only_before_its_mark(text: str, said: str) -> None:
    facts = _facts(text)
    assert facts and said in facts[0].text, [f.text for f in facts]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A question about the listener's own plans asks a friend, not a business; a wh-question to a business is
        # reported as asked ("asked which ..."), not "asked about Which ...".
        ("How do you plan to spend the bonus?", None),
        ("Do you plan on keeping the old van?", None),
        ("你打算什么时候开始做慈善？", None),
        ("Which plan includes free roaming?", "Robin asked which plan includes free roaming"),
        ("How long does delivery to Norway take?", "Robin asked how long delivery to Norway takes"),
        # The business in third person: "they" for "you", "their" for "your", the auxiliary after a pronoun.
        ("Which of your plans covers roaming?", "Robin asked which of their plans covers roaming"),
        ("Are you open on Boxing Day?", "Robin asked whether they are open on Boxing Day"),
        ("Is there a charge for returns?", "Robin asked whether there is a charge for returns"),
        ("请问可以寄到加拿大吗？", "Robin咨询是否可以寄到加拿大"),
        # A noun subject agrees with its verb, the auxiliary after it ("does your shop open" is no "their shop open").
        ("Does your bakery open on Sundays?", "Robin asked whether the bakery opens on Sundays"),
        ("Does the Bristol branch stock oat milk?", "Robin asked whether the Bristol branch stocks oat milk"),
        ("Will your engineer ring before the visit?", "Robin asked whether the engineer will ring before"),
        ("Is your ticket office open on bank holidays?", "Robin asked whether the ticket office is open on bank"),
        ("When does your clinic open on Mondays?", "Robin asked when the clinic opens on Mondays"),
        ("How much does your express delivery cost?", "Robin asked how much the express delivery costs"),
        ("Is it true that you price match?", "Robin asked whether it is true that they price match"),
        ("Do you deliver on Saturdays?", "Robin asked whether they deliver on Saturdays"),  # guard
        ("请问周日营业吗？", "Robin咨询周日是否营业"),  # a weekday of opening hours is every such day, no date
        # A Chinese question to the business said as what was asked: the business by its name, 是否 / 能否 before
        # the verb, no 吗; a question about the goods or a fee opening with them is one to the business.
        ("你们周末营业吗？", "Robin咨询商家周末是否营业"),
        ("你家能开发票吗", "Robin咨询商家能否开发票"),
        ("有没有大码的？", "Robin咨询是否有大码的"),
        ("这款包邮吗？", "Robin咨询这款是否包邮"),
        ("你们的换货流程是怎样的", "Robin咨询商家的换货流程"),
        ("运费怎么算？", "Robin咨询运费怎么算"),
        ("你们晚上几点关门？", "Robin咨询商家晚上几点关门"),
        ("What time do you close on Saturdays?", "Robin asked what time they close on Saturdays"),
    ],
)
def test_a_question_is_asked_of_a_business_or_carries_nothing(text: str, expected: str | None) -> None:
    facts = _facts(text)
    if expected is None:
        assert facts == [], [f.text for f in facts]
    else:
        assert facts and facts[0].type == "inquiry" and facts[0].text.startswith(expected), [f.text for f in facts]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The speaker's own question to a business is said as asked, never as a question of the speaker.
        ("Do I need a receipt to return it?", "Robin asked whether they need a receipt to return it."),
        ("Where can I collect my parcel?", "Robin asked where they can collect the parcel."),
        ("Can I change my delivery address?", "Robin asked whether they can change the delivery address."),
        ("Is my order on its way?", "Robin asked whether the order is on its way."),
        ("Will I get a refund if I cancel now?", "Robin asked whether they will get a refund if they cancel now."),
        ("How many days do I have to send it back?", "Robin asked how many days they have to send it back."),
        ("我需要带发票去吗？", "Robin咨询是否需要带发票去。"),
        ("我的订单发货了吗？", "Robin咨询订单是否发货了。"),
        # A noun subject with a place after "is": the auxiliary before the place.
        ("Is your engineer on the way?", "Robin asked whether the engineer is on the way."),
    ],
)
def test_the_speakers_own_question_to_a_business_is_said_as_asked(text: str, expected: str) -> None:
    facts = _facts(text)
    assert [(f.type, f.text) for f in facts[:1]] == [("inquiry", expected)]


@pytest.mark.parametrize(
    ("text", "type_", "expected"),
    [
        # A fact of the speaker's stated before a question to a business types the fact and is what is kept.
        ("I'm moving to Leeds, do you deliver there?", "profile", "Robin is moving to Leeds."),
        ("I'm travelling to Canada next month, does my plan include roaming?", "commitment", "Robin is travelling"),
        ("我下个月搬到杭州，你们那边能送货吗？", "profile", "Robin2026年6月搬到杭州。"),
        ("我对芒果过敏，这个蛋糕里有芒果吗？", "health", "Robin对芒果过敏。"),
        # Guard: a request before the question states nothing.
        ("帮我查一下订单，单号JD20261130?", "inquiry", "Robin"),
    ],
)
def test_a_fact_stated_before_a_question_to_a_business_is_kept_as_the_fact(
    text: str, type_: str, expected: str
) -> None:
    facts = _facts(text)
    assert facts and facts[0].type == type_ and facts[0].text.startswith(expected), [(f.type, f.text) for f in facts]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A Chinese statement with its subject left out is the speaker's, said with the speaker as its subject.
        ("最近老是失眠，半夜三点才睡得着", "Robin最近老是失眠"),
        ("对虾过敏，一吃就起疹子", "Robin对虾过敏"),
        ("在杭州做前端，干了四年了", "Robin在杭州做前端"),
        # Guard: a noun opening the sentence may be a subject of its own: said as mentioned.
        ("公司下个月搬到滨江", "Robin提到公司"),
    ],
)
def test_a_chinese_statement_without_its_subject_is_the_speakers(text: str, expected: str) -> None:
    facts = _facts(text)
    assert facts and facts[0].text.startswith(expected), [f.text for f in facts]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A complaint names the business it is made to, not "you"; a grievance asked with "why" is said as one.
        ("You billed me twice for the March invoice.", "The business billed Robin twice"),
        ("The lamp I ordered from you lot arrived broken.", "The lamp Robin ordered from the business arrived"),
        ("你们送来的椅子是坏的", "Robin提到商家送来的椅子是坏的"),
        ("你们家扣了我两次月费", "商家扣了Robin两次月费"),
        ("Your plumber never turned up on Friday.", "Robin mentioned that the business's plumber never turned up"),
        ("Why is my replacement taking so long?", "Robin complained, asking why the replacement is taking so long"),
        ("为什么我的退款还没到账？", "Robin抱怨退款还没到账"),
        ("Why is your helpline so slow?", "Robin complained, asking why the helpline is so slow"),
    ],
)
def test_a_complaint_names_the_business_and_a_why_is_a_grievance(text: str, expected: str) -> None:
    facts = _facts(text)
    assert facts and facts[0].type == "complaint" and facts[0].text.startswith(expected), [
        (f.type, f.text) for f in facts
    ]
