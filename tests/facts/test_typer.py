"""The typer and the gate on phrasings of their own (none from the corpus), in English and Chinese: the type a
rule is sure of, the classifier's type where no rule is, relatives as subjects versus the speaker's plans with
them, facts about a third party in a kept turn, and filled slots the classifier may not veto."""

from __future__ import annotations

import datetime as dt

import pytest

from facts.extraction.base import MessageView
from facts.extraction.gate import rule_verdict
from facts.extraction.rules import RuleExtractor
from facts.extraction.type_definitions import nearest_type
from facts.extraction.typer import rule_type, slot_family, type_of

WHEN = dt.datetime(2026, 4, 14, 10, 0, tzinfo=dt.UTC)


def _extract(text: str, *, name: str = ""):  # type: ignore[no-untyped-def]
    view = MessageView(id=1, role="user", name=name, content=text, created_at=WHEN)
    return RuleExtractor().extract([view])[1]


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # The speaker's own plan with a relative is a commitment; a relative as the subject is a relationship fact.
        ("I'm driving my dad to the coast next weekend for his birthday.", "commitment"),
        ("我下个月带我妈去成都玩几天", "commitment"),
        ("My sister starts her nursing degree next September.", "relationship"),
        ("下个月我哥要去深圳上班了", "relationship"),
        # A past, dated thing the speaker did is an event (a relative in it or not).
        ("Last summer we took my nephew camping in Wales.", "event"),
        ("上周我们带孩子去了动物园", "event"),
        # Having a relative, being together: relationship.
        ("I have two younger sisters.", "relationship"),
        ("我有两个弟弟", "relationship"),
        ("We've been together for six years now.", "relationship"),
        ("我们在一起三年了", "relationship"),
        # How the speaker works is profile without a slot value; a move is a residence.
        ("I work nights at the moment, mostly weekends.", "profile"),
        ("我是做外贸的，经常出差", "profile"),
        ("We moved last spring, it's much quieter.", "profile"),
        ("我们刚搬家了，离公司近多了", "profile"),
        # Appointments with a doctor and sleep problems are health; a note for a doctor is not.
        ("I'm seeing the dentist on Friday about my wisdom tooth.", "health"),
        ("我周四约了口腔门诊", "health"),
        ("I'll post the doctor's letter to you tomorrow.", "commitment"),
        # An embassy or a notary is legal.
        ("My interview at the embassy is on the 9th.", "legal"),
        ("房子过户要去公证处公证", "legal"),
        # A wrong delivery and an outage are complaints; a reunion where nobody was recognised is not.
        ("The restaurant sent the wrong dish again, I ordered the curry.", "complaint"),
        ("快递给我寄错了，我买的是蓝色", "complaint"),
        ("Our internet keeps disconnecting every hour.", "complaint"),
        ("家里又断网了，已经两天了", "complaint"),
        ("昨天去了小学同学聚会，好几个人我都认不出来", "event"),
        # A request to look something up is an inquiry even without a question mark.
        ("帮我查一下订单到哪了", "inquiry"),
        ("Please check my order status, it's been a week.", "inquiry"),
        # Habits of taste are preferences.
        ("I usually drink green tea in the afternoon.", "preference"),
        ("我平时爱喝冰美式", "preference"),
        ("I used to love horror films but not any more.", "preference"),
        # An amount or an id with nothing else is "other".
        ("My membership number is GY-55120.", "other"),
        ("每个月工资到手12000块", "other"),
    ],
)
def test_rules_type_what_they_are_sure_of(sentence: str, expected: str) -> None:
    assert rule_type(sentence, None, slot_family(None, sentence)) == expected


@pytest.mark.parametrize("sentence", ["The band got signed by a small label.", "The garden looks different."])
def test_where_no_rule_is_sure_the_definitions_decide_at_any_confidence_of_the_head(sentence: str) -> None:
    assert rule_type(sentence, None, slot_family(None, sentence)) == ""
    assert type_of(sentence, None, None, ("decision", 0.12)) == nearest_type(sentence)
    assert type_of(sentence, None, None, None)  # the embedder down: the sentence's shape decides


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("我每个礼拜三晚上去学陶艺", "profile"),  # a routine
        ("下班基本都在健身房泡着", "profile"),  # no subject: the speaker's
        ("老家是盐城的，现在在苏州", "profile"),
        ("房子单位给安排好了，离地铁站不远", "profile"),  # 了 marks a state, not a happening
        ("前天在小区门口把车漆蹭掉了", "event"),  # a dated past
        ("我闺女今年上初中了", "relationship"),
        ("周末天气不错，风景很好", "profile"),
        ("那双鞋穿了三天鞋底就开胶了。", "complaint"),  # gave out after days of use
        ("充电宝用了一个礼拜就鼓包了", "complaint"),
        ("我有慢性鼻炎，一到春天就犯", "health"),  # Chinese conditions and symptoms as the English list has them
        ("左膝盖一蹲下就咔咔响", "health"),
        ("这两天老打喷嚏，估计是换季", "health"),
    ],
)
def test_chinese_under_an_english_only_embedder_is_typed_by_its_shape(sentence: str, expected: str) -> None:
    """MiniLM's nearness is noise on Chinese: neither the definitions nor the classifier's head decide there."""
    family = slot_family(None, sentence)
    assert type_of(sentence, None, family, ("decision", 0.9)) == expected
    assert type_of(sentence, None, family, None) == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("The strap on the watch came apart within a week.", "complaint"),  # a fault, without the word
        ("Second time this week the lift is stuck between floors.", "complaint"),  # a fault back again
        ("We've had no heating since Friday and the baby is two months old.", "complaint"),  # a supply cut
        ("You withheld my bond for a stain that was there before I moved in.", "complaint"),  # kept by the business
        ("Please suspend our direct debit while we're abroad.", "decision"),
        ("I want to close the account and move everything to my new bank.", "decision"),
        ("那个杯子用了两回就裂了，才买的", "complaint"),
    ],
)
def test_complaints_and_decisions_in_other_words(sentence: str, expected: str) -> None:
    family = slot_family(None, sentence)
    assert type_of(sentence, None, family, ("other", 0.9)) == expected


def test_coming_off_a_list_is_no_fault() -> None:
    sentence = "We finally came off the waiting list for the allotment."
    assert type_of(sentence, None, slot_family(None, sentence), ("other", 0.9)) != "complaint"


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Means I'm on the tills most weekends, so Saturdays are out.", "profile"),
        ("I run the Saturday parkrun every week.", "profile"),
        ("I'll run the parkrun every week from January.", "commitment"),  # a routine the speaker plans
        # A memory vowed is no plan; a promise not to forget still is.
        ("I'll always remember the summer I spent volunteering in Ghana in 2019.", "event"),
        ("我这辈子都忘不了第一次在泰山顶上看日出。", "event"),
        ("I will never forget to water the plants again.", "commitment"),
    ],
)
def test_a_routine_is_how_the_speaker_lives(sentence: str, expected: str) -> None:
    assert type_of(sentence, None, slot_family(None, sentence), ("decision", 0.9)) == expected


@pytest.mark.parametrize(
    ("text", "name", "kind", "words"),
    [
        ("I have a brother named Tom.", "Daniel", "relationship", ["Tom"]),
        ("I've got a younger sister called Ruth.", "", "relationship", ["Ruth"]),
        ("我有一个妹妹，叫小雨。", "", "relationship", ["小雨"]),
        ("I can't stand opera.", "Lea", "preference", ["opera"]),
        ("I really dislike cilantro.", "", "preference", ["cilantro"]),
        ("我受不了榴莲", "", "preference", ["榴莲"]),
    ],
)
def test_siblings_and_dislikes_are_kept(text: str, name: str, kind: str, words: list[str]) -> None:
    out = _extract(text, name=name)
    assert [c.type for c in out.candidates] == [kind], out.gate.reason
    assert all(w in out.candidates[0].text for w in words)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            "Pickle is a menace: she stole a whole baguette off the counter! Last month I adopted her from a shelter.",
            ["Pickle", "baguette", "shelter"],
        ),  # fmt: skip
        ("我家猫太皮了，它把我的耳机线咬断了！上周我带它去打了疫苗。", ["耳机线", "疫苗"]),
    ],
)
def test_a_third_party_anecdote_in_a_kept_turn_is_kept_with_it(text: str, words: list[str]) -> None:
    out = _extract(text, name="Marta")
    joined = " ".join(c.text for c in out.candidates)
    assert len(out.candidates) == 2 and all(w in joined for w in words), joined


@pytest.mark.parametrize(
    "text",
    [
        "Haha he's hilarious, love it.",  # a reaction about a third party, alone in its turn
        "Wow, she sounds amazing!",
        "他真的太搞笑了哈哈哈",
        "Seattle is such a great city, honestly.",
        "Thanks so much, see you soon!",
        "谢谢啦，拜拜",
        "Yeah, totally agree.",
        "好的好的，没问题",
    ],
)
def test_third_party_chatter_and_small_talk_stay_dropped(text: str) -> None:
    assert _extract(text, name="Marta").candidates == []


def test_a_story_sentence_ranks_below_the_speakers_own_fact() -> None:
    out = _extract("She cried the whole way home from the vet. I picked up a new puppy on Saturday.", name="Ana")
    assert len(out.candidates) == 2
    own, story = sorted(out.candidates, key=lambda c: -c.confidence)
    assert "puppy" in own.text and "vet" in story.text


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # Medicines, tests and a body part in trouble are health without a condition's word.
        ("I'm on antibiotics for a chest infection.", "health"),
        ("My dodgy left knee has been bad since the ski trip.", "health"),
        ("周五要去医院抽血", "health"),
        ("我肠胃不舒服好几天了", "health"),
        # A thing that gave up, a call back that never came: complaints.
        ("The blender packed in after a fortnight.", "complaint"),
        ("I was promised a callback and no one called back.", "complaint"),
        ("又断了，你们的网络真不靠谱", "complaint"),
        # Choosing after an offer, dropping an option: decisions.
        ("We'd rather skip the museum and go hiking.", "decision"),
        ("I'll have the green one then.", "decision"),
        ("我要这款，白色的", "decision"),
        ("那就降一档吧", "decision"),
        # Work named by what the speaker does, height and weight, a language: profile.
        ("I teach piano to kids in the evenings.", "profile"),
        ("我是在医院做护工的", "profile"),
        ("我身高一米六，体重五十公斤", "profile"),
        ("I'm fluent in Portuguese.", "profile"),
        # A lead-in ("跟你讲") is not the subject; a partner by an idiom; a birth of twins.
        ("跟你讲，我妹明年要去日本留学", "relationship"),
        ("我家那位下周去上海培训", "relationship"),
        ("Our neighbours' daughter just had twins.", "event"),
        # A loan is legal; a sum by the period without a currency sign is an amount.
        ("我们的贷款下个月开始还", "legal"),
        ("We pay 1,250 a month for the flat.", "other"),
        ("每个月交两千五的物业费", "other"),
    ],
)
def test_rules_by_principle_on_phrasings_of_their_own(sentence: str, expected: str) -> None:
    assert rule_type(sentence, None, slot_family(None, sentence)) == expected


@pytest.mark.parametrize(
    ("sentence", "keep"),
    [
        # A fact stated before the question is left to the classifier, not dropped as an empty question.
        ("I'm flying to Seoul for work in May, what should I pack?", None),
        ("我下个月去首尔出差，要带什么？", None),
        ("我本来就是学医的嘛", None),  # 的嘛 asserts
        # A request for a piece of work carries no fact; a condition on the future is no fact either.
        ("Write me a haiku about autumn.", False),
        ("给我推荐几本科幻小说", False),
        ("If this happens again I'm cancelling.", False),
        ("要是再这样我就退货", False),
        # The business's opening hours and instalments are an inquiry's subject; an order id after Chinese text.
        ("What time do you open on Saturdays?", True),
        ("你们可以分期付款吗？", True),
        ("会员号88230019，麻烦看一下", True),
    ],
)
def test_gate_verdicts_on_phrasings_of_their_own(sentence: str, keep: bool | None) -> None:
    assert rule_verdict(sentence).keep is keep, rule_verdict(sentence)


@pytest.mark.parametrize(
    ("sentence", "family"),
    [("I'm originally from Cork.", "hometown"), ("我的老家在汕头", "hometown"), ("她老家是佛山的", None)],
)
def test_the_speakers_hometown_is_a_slot_family_a_relatives_is_not(sentence: str, family: str | None) -> None:
    assert slot_family(None, sentence) == family


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # A relative who is only a companion or a place leaves the fact the speaker's own.
        ("Heading to Crete for a fortnight with my parents next month.", "commitment"),
        ("下个月跟我老婆去云南玩一周", "commitment"),
        ("上周把狗狗送到我妈那儿寄养了", "profile"),
        # Grandparents and the wider family are relatives too.
        ("My grandad turns 90 next month.", "relationship"),
        ("我外婆下个月过八十大寿", "relationship"),
        # What the sentence is about comes before its tense: a transfer at work, a new school, settled or planned.
        ("They've transferred me to the Leeds office, I start there next week.", "profile"),
        ("我被调到上海总部了，下周报到", "profile"),
        ("I'm off to study in Lyon from September.", "profile"),
        ("下学期我要去墨尔本读大学了", "profile"),
        # A month alone is no future: a thing bought in March that now fails is a complaint, not a plan.
        ("The kettle I bought in March stopped working.", "complaint"),
        # A change of plan or a chosen remedy, in any words.
        ("Forget the train, I'll drive up on Friday instead.", "decision"),
        ("算了，还是坐高铁吧", "decision"),
        ("退钱吧，不想再等了", "decision"),
    ],
)
def test_types_by_meaning_on_phrasings_of_their_own(sentence: str, expected: str) -> None:
    assert rule_type(sentence, None, slot_family(None, sentence)) == expected


def test_a_diet_with_its_medical_reason_is_health() -> None:
    out = _extract("胃镜查出来有溃疡，现在滴酒不沾了")
    assert [c.type for c in out.candidates] == ["health"]


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # Work and study by what they are, before the tense that dates them (a new job or school is profile).
        ("下学期开始在培训机构兼职教数学", "profile"),
        ("打算后年去伦敦读个硕士", "profile"),
        ("I start as a trainee surveyor in Bristol in June.", "profile"),
        # A trip by its going: "off to", "over Easter".
        ("We're off to Porto over Easter.", "commitment"),
        # What the speaker earns is an amount, also beside a loan.
        ("我税后一个月九千，每个月房贷三千", "other"),
        ("My take-home is 2,400 and the mortgage is 900.", "other"),
        # A diet taken up or given up is a preference, not health.
        ("我戒酒半年了", "preference"),
        ("Gave up meat in January and never looked back.", "preference"),
        # A third person as the subject of a kept sentence is someone in the speaker's life.
        ("She's a nurse at the children's hospital.", "relationship"),
        ("他下个月去深圳出差", "relationship"),
        # The home one rents is a residence, whatever its tense.
        ("我们在学校旁边租了个两居", "profile"),
        ("We're renting a two-bed near the canal now.", "profile"),
        # A booking moved or given up is a decision.
        ("I need to reschedule my check-up with the hygienist.", "decision"),
        ("那我不办了", "decision"),
        # A service late or not done by now is a complaint without the word.
        ("我的包裹到现在还没发货", "complaint"),
        ("The engineer still hasn't come.", "complaint"),
        ("家里的宽带从早上开始又断了", "complaint"),
        # A decision is the speaker's: the landlord's refusal to renew is the lease's matter.
        ("房东说租约到期不续了", "legal"),
    ],
)
def test_what_a_fact_is_about_on_phrasings_of_their_own(sentence: str, expected: str) -> None:
    assert rule_type(sentence, None, slot_family(None, sentence)) == expected


@pytest.mark.parametrize(
    ("sentence", "keep"),
    [
        # News announced but not told, anticipation of what is the listener's, praise of the listener: nothing kept.
        ("Anyway, I meant to tell you about the strangest thing at the office.", False),
        ("okay so I have news and you have to sit down first", False),
        ("我想跟你聊聊我那辆车的事", False),
        ("No way, can't wait to try your lasagne", False),
        ("好嘞，迫不及待想看看你们的新家", False),
        ("That dress you wore at the wedding was stunning.", False),
        ("I love your new haircut", False),
        # ... but what the speaker tells after the announcement, or looks forward to of their own, stays open or kept.
        ("I need to tell you about my new job at the bakery", None),
        ("有个好消息要跟你说，我怀孕了", True),
        ("I can't wait for my trip to Peru next month", None),
    ],
)
def test_announcements_anticipation_and_praise_keep_nothing(sentence: str, keep: bool | None) -> None:
    assert rule_verdict(sentence).keep is keep, rule_verdict(sentence)
