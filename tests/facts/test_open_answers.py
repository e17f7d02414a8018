"""A short reply to the assistant's open question about the user is a fact that says what it answers.

Phrasings written for these tests, not taken from the corpus (facts/extraction/open_answer.py).
"""

from __future__ import annotations

import pytest

from facts.extraction.open_answer import open_question
from tests.facts.user_turn import answer_of


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        ("Where are you working these days?", "A little bookshop in Hove.", "Where User is working these days: "),
        ("Nice! How do you normally get to the office?", "Train, then a short walk.", "How User normally gets to "),
        ("What did you study?", "Geography, at Leeds.", "What User studied: "),
        ("Where does your son go to school?", "Oakfield Primary, year 3.", "Where User's son goes to school: "),
        ("Which gym do you go to?", "The council one on Mill Road.", "User's gym: "),  # a thing of theirs: answer.py
        (
            "What instrument do you play and how long have you played it?",
            "Cello, about nine years.",
            "What instrument User plays and how long they have played it: ",
        ),
        ("When is your brother's graduation?", "Early July, in Dundee.", "When User's brother's graduation is: "),
        ("你平时几点下班？", "六点左右吧。", "用户平时几点下班："),
        ("你对哪些食物过敏？", "虾和蟹，吃了会肿。", "用户对哪些食物过敏："),
        ("那挺好的，你在哪个城市工作？", "成都，高新区。", "用户在哪个城市工作："),
        ("你家孩子上几年级了？", "初二了。", "用户家孩子上几年级了："),
        # A habit or a time ahead: no moment.
        ("What do you normally eat for lunch?", "Soup from the canteen.", "What User normally eats for lunch: "),
        ("What do you drink in the morning?", "Green tea, never coffee.", "What User drinks in the morning: "),
        ("What are you doing over Easter?", "Camping in the Peaks.", "What User is doing over Easter: "),
        ("你周末一般在家做什么？", "做饭，追剧。", "用户周末一般在家做什么："),
    ],
)
def test_a_fragment_after_an_open_question_is_said_with_it(question: str, reply: str, expected: str) -> None:
    facts = answer_of(question, reply)
    assert len(facts) == 1, facts
    assert facts[0][1].startswith(expected), facts


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("How was your trip?", "Amazing, thanks!"),
        ("What do you think of the new layout?", "Seems fine."),
        ("How are you today?", "Not bad."),
        ("What do you mean?", "The second option."),
        ("你觉得这部电影怎么样？", "还不错。"),
        ("你最近怎么样？", "挺好的。"),
        ("还有什么需要我帮你的吗？", "没有了，谢谢。"),
        ("Where are you working now?", "Not sure yet, honestly."),
        ("你现在在哪上班？", "不知道。"),
        # Asked of the moment: what the user is doing or eating, where they are, right now.
        ("Where are you at the moment?", "Stuck in traffic on the ring road."),
        ("What are you eating for lunch?", "A tuna sandwich."),
        ("So what are you up to?", "Folding laundry, exciting stuff."),
        ("Ah right, what did you eat for dinner?", "Leftover curry."),
        ("Oh no, where are you now?", "Waiting at the garage."),
        ("你这会儿在做什么？", "在刷手机。"),
        ("你午饭吃的啥？", "楼下的盖浇饭。"),
        ("你现在在哪呢？", "地铁上。"),
    ],
)
def test_feelings_opinions_and_empty_replies_yield_nothing(question: str, reply: str) -> None:
    assert answer_of(question, reply) == []


def test_a_reply_that_is_a_statement_of_its_own_is_read_as_it_is() -> None:
    facts = answer_of("What do you do for work?", "I'm a pharmacist at a chain in Leeds.")
    assert [text for _type, text in facts] == ["User is a pharmacist at a chain in Leeds."]
    zh = answer_of("你在哪儿上班？", "我在一家医院当药剂师。")
    assert len(zh) == 1 and "哪儿" not in zh[0][1], zh


@pytest.mark.parametrize(
    ("assistant", "expected"),
    [
        ("Oh cool. So what are you reading at the moment?", "What I am reading at the moment"),
        ("Which city did your parents grow up in?", "Which city my parents grew up in"),
        ("How long has your sister lived abroad?", "How long my sister has lived abroad"),
        ("What time does your train leave?", "What time my train leaves"),
        ("What will you cook for them?", "What I will cook for them"),
        ("Do you have a car?", ""),  # a yes or no: confirm.py's
        ("What can I help you with?", ""),
        ("您好～请问您打算什么时候搬家？", "我打算什么时候搬家"),
        ("你们家住在哪个小区？", "我家住在哪个小区"),
        ("这个价格您能接受吗？", ""),
    ],
)
def test_the_question_said_in_the_users_voice(assistant: str, expected: str) -> None:
    assert open_question(assistant) == expected


@pytest.mark.parametrize(
    ("question", "reply", "absent"),
    [
        ("What is your occupation?", "I teach maths at a sixth-form college.", "occupation"),
        ("请问你的老家是哪里？", "我是湖南岳阳人。", "老家"),
    ],
)
def test_a_statement_after_a_thing_asked_by_name_is_read_as_it_is(question: str, reply: str, absent: str) -> None:
    facts = answer_of(question, reply)
    assert len(facts) == 1 and absent not in facts[0][1], facts


def test_a_thing_asked_by_name_keeps_its_short_form() -> None:
    facts = answer_of("好的，请问您的车牌号是多少？", "没人受伤 车牌浙A·3F218")
    assert len(facts) == 1 and facts[0][1].startswith("用户的车牌号："), facts
