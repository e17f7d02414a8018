"""What is not settled keeps nothing, what is chosen is a decision, in English and Chinese: a plan said to be undecided,
a "what if" about something not done, a reply that leaves the choice to the other or does not know, an offer left
to the listener; one of the options laid out, named in a short reply, is chosen (a suggestion taken is not); a
parent called "Mum" is the speaker's; a pet's vet visit is no health of the speaker's; emoji are not facts."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import answer_of, facts_of


@pytest.mark.parametrize(
    "text",
    [
        "we're kind of thinking about a loft conversion, nothing's settled",
        "Haven't decided yet whether to do the Lisbon thing in spring.",
        "搬家的事还没定下来，可能年底，也可能不搬了",
        "what if we sold the house and moved to Spain lol",
        "you can borrow my drill this weekend if you like",
        "不清楚是什么牌子，反正挺旧的",
        "ugh I'd have to ask my landlord about that",
    ],
)
def test_what_is_not_settled_keeps_nothing(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("Window or aisle seat?", "either's fine, whichever is cheaper"),
        ("要靠窗还是靠过道？", "都可以，哪个便宜选哪个"),
        ("对床垫的软硬有什么要求吗？", "没什么要求，你们卖得最好的就行"),
        ("Is your passport still valid?", "probably, I'll check tonight"),
        ("护照还在有效期内吗？", "应该吧，我回去看看"),
        ("What model is the boiler?", "no idea what model it is, just a white box"),
    ],
)
def test_a_reply_that_leaves_it_open_keeps_nothing(question: str, reply: str) -> None:
    assert answer_of(question, reply) == []


@pytest.mark.parametrize(
    ("question", "reply", "said"),
    [
        ("We have Tuesday at 10 with Dr Patel or Thursday at 3.", "thursday please", "Chose Thursday at 3."),
        ("There's a 7:15 or a 9:40 train on the 2nd.", "the 9:40", "Chose the 9:40 train on the 2nd."),
        ("周一下午可以，周四上午也有，您选哪个？", "周四上午", "选择周四上午。"),
        ("师傅最快周六上午上门，可以吗？", "周六不行，周日下午吧", "改为周日下午。"),
    ],
)
def test_an_option_named_is_chosen(question: str, reply: str, said: str) -> None:
    assert answer_of(question, reply) == [("decision", said)]


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("You could try the lentil soup or the mushroom risotto.", "the risotto"),
        ("可以试试红烧鱼或者清炒虾仁。", "虾仁吧"),
    ],
)
def test_a_suggestion_taken_is_no_decision(question: str, reply: str) -> None:
    assert all(kind != "decision" for kind, _text in answer_of(question, reply))


@pytest.mark.parametrize(
    ("text", "kind", "said"),
    [
        ("Dad's been made redundant, he's gutted", "relationship", "User's dad"),
        ("Nan turned 95 on Sunday!", "relationship", "User's nan"),
        ("Mum, I finally passed my driving test!", "event", "User finally passed"),
        ("stitches out on friday at the vet, she's milking the cone for all it's worth", "profile", "vet"),
        ("我家猫在宠物医院住了三天，肾有点问题", "profile", "宠物医院"),
        ("腰疼了好几天了", "health", "腰疼"),
        ("科三又挂了😭", "event", "科三又挂了。"),
        ("I got the offer from Deloitte!!", "profile", "Deloitte"),
        ("guess who finally quit smoking 🎉", "preference", "User finally quit smoking."),
        ("算了还是去云南吧，机票我都看好了", "decision", "云南"),
        ("we're moving house next Friday", "profile", "moving house"),
    ],
)
def test_what_is_said_plainly_is_kept_as_what_it_is(text: str, kind: str, said: str) -> None:
    facts = facts_of(text)
    assert facts and facts[0][0] == kind, facts
    assert said in facts[0][1] and not facts[0][1].startswith("Mum")
    assert not any(ord(ch) > 0x1F000 for _kind, fact in facts for ch in fact)


@pytest.mark.parametrize(
    "text",
    [
        "这张是在山顶拍的，云海特别好看",
        "here's another one, that's the lake just after sunrise",
        "pls send pics of the kitten asap",
        "快给我看看新家长什么样",
        "ok I'm off to the shops now, talk later",
        "好了我先去洗澡了，回头聊",
        "人这辈子还是要为自己活一次",
        "honestly, life's too short",
        "你做饭一直都那么好吃，我真的很羡慕你",
        "我也舍不得你，真的",
        "我觉得旅行就是要慢慢走",
        "I should really call my grandad more",
        "could do a half marathon in spring, or maybe not, we'll see how the knee holds up",
        "学校我们还没想好，两个都还行",
        "I'll look into the cheaper one, cheers",
        "别急，等你拿到驾照了带我去兜风",
        "下次你回来我们一起去爬山吧？",
        "shall we do brunch on the 14th?",
        "我也还是老样子，上班下班带孩子",
        "说实话那次之后我才明白，有些事就是急不来",
        "翻到我们以前的聊天记录，突然好想你",
        "honestly I'm going to miss that so much",
        "跑全马这种事我这辈子都做不到",
        "honestly I feel so blessed to have such amazing friends",
        "有你们真好",
        "ok I'm off to go walk the dog",
    ],
)
def test_what_only_keeps_the_talk_going_keeps_nothing(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("这张是我们新家的客厅，下个月搬进去", "profile"),
        ("我觉得我可能对猫毛过敏", "health"),
        ("我觉得老公最近压力很大，天天加班到十点", "relationship"),
        ("I'm off to Japan for three weeks in April!", "commitment"),
        ("毕业后我先去上海工作了，在一家券商", "profile"),
        ("我觉得这家公司挺靠谱的，准备下周去面试", "commitment"),
    ],
)
def test_a_fact_told_beside_it_is_kept(text: str, kind: str) -> None:
    facts = facts_of(text)
    assert facts and facts[0][0] == kind, facts


@pytest.mark.parametrize(
    ("text", "kind", "said"),
    [
        ("me and Tomasz split up last month", "relationship", "Tomasz and User split up"),
        ("我表妹考上公务员了，我姑姑高兴坏了", "relationship", "表妹"),
        ("I'm starting at a small fintech startup in Leeds in January", "profile", "fintech"),
        ("我被调去成都分公司了，年后就过去", "profile", "成都"),
        ("下个月请假回老家陪我爸做手术", "commitment", "手术"),
    ],
)
def test_a_type_by_what_the_fact_is_about(text: str, kind: str, said: str) -> None:
    facts = facts_of(text)
    assert facts and facts[0][0] == kind, facts
    assert said in facts[0][1]


@pytest.mark.parametrize(
    ("question", "reply", "said"),
    [
        ("您也可以在APP上查看。请问您的订单号是多少？", "88120567", "订单号：88120567"),
        ("We have you down at 12 Oak Road or was it 14? Could I take the postcode?", "BS3 4QT", "postcode: BS3 4QT"),
    ],
)
def test_options_said_earlier_in_the_turn_leave_its_question_to_be_answered(
    question: str, reply: str, said: str
) -> None:
    facts = answer_of(question, reply)
    assert facts and said in facts[0][1], facts
