"""A choice among options laid out before a bare "which?", or named by its place; talk that praises or asks after the
listener, passes on wishes or suggests an outing keeps nothing; what is undecided or only wished keeps nothing; a
service down since a time and a card defrauded are complaints; an English sentence that drops its subject is the
speaker's. English and Chinese, in phrasings of this file's own."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import answer_of, facts_of, first_kind


@pytest.mark.parametrize(
    ("question", "reply", "said"),
    [
        # Options laid out, then asked which: the options are in the sentence before the question.
        (
            "We can fit you in at 8:50 on Monday, or at 13:15 on Tuesday. Which works best for you?",
            "tuesday",
            "Chose at 13:15 on Tuesday.",
        ),  # fmt: skip
        (
            "There's a window table at 7 or a booth at 8:30. Which would you like?",
            "the booth",
            "Chose the booth at 8:30.",
        ),
        # An option named by its place.
        (
            "There's a 6:05 coach with a changeover, or a 7:40 direct one. Which would you prefer?",
            "the first one",
            "Chose the 6:05 coach with a changeover.",
        ),  # fmt: skip
        ("Our fitter has Monday morning or Thursday afternoon.", "the latter", "Chose Thursday afternoon."),
        ("上午九点有张医生的号，下午三点有刘医生的号，您选哪个？", "第二个", "选择下午三点有刘医生的号。"),
        ("今天下午还是明天上午，您选哪个？", "前面那个吧", "选择今天下午。"),
    ],
)
def test_an_option_laid_out_before_a_bare_which_or_named_by_its_place_is_chosen(
    question: str, reply: str, said: str
) -> None:
    assert answer_of(question, reply) == [("decision", said)]


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("Which would you prefer?", "the second one"),  # nothing laid out: no place to read
        ("You could try the tagine or the curry. Which do you fancy?", "the first one"),  # ideas, not options
        ("Dr Adams said Bath is lovely this time of year.", "B"),  # capitals are no letters laid out
    ],
)
def test_a_place_named_without_options_laid_out_chooses_nothing(question: str, reply: str) -> None:
    assert answer_of(question, reply) == []


@pytest.mark.parametrize(
    "text",
    [
        "honestly you explain maths better than my tutor ever did",
        "你讲得比我们班主任清楚多了",
        "这个思路好，你比我请的那个顾问专业多了",
        "tell her happy birthday from me!!",
        "替我跟叔叔阿姨问声好",
        "周日去湿地公园骑车呗，叫上小雪",
        "那你雅思考了没",
        "你新家装修完了没有",
    ],
)
def test_talk_about_or_through_the_listener_keeps_nothing(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "no idea yet, might retrain, might just travel for a bit",
        "we might rent it out, might sell it, who knows",
        "我还在纠结，到底考研还是直接工作",
        "到底换电脑还是再将就一年，真没想好",
        "要是能调休三天，我们就去趟敦煌",
        "如果能抢到票，我肯定去看演唱会",
    ],
)
def test_what_is_undecided_or_only_wished_keeps_nothing(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("hiya, the broadband's been down since last night", "complaint"),
        ("our heating has been off since Tuesday", "complaint"),
        ("我的借记卡昨天被盗刷了两千块", "complaint"),
        # A reason that says the speaker cannot go is no errand of the moment: the decision stays.
        ("那我把游泳卡退了吧，反正一个月也去不了一次", "decision"),
    ],
)
def test_a_fault_or_a_decision_with_a_reason_is_kept(text: str, kind: str) -> None:
    assert first_kind(text) == kind


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("fyi sold the camper van last month", "sold the camper van"),
        ("ngl been learning Welsh on the train every morning", "has been learning Welsh"),
    ],
)
def test_an_english_sentence_that_drops_its_subject_is_the_speakers(text: str, said: str) -> None:
    facts = facts_of(text)
    assert facts and said in facts[0][1]


@pytest.mark.parametrize(
    "text",
    [
        "been quite a week, to be honest",  # it has been, not the speaker
        "starting a band isn't easy at all",  # a gerund, the subject of its own verb
    ],
)
def test_a_sentence_whose_subject_is_it_is_not_made_the_speakers(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    ("question", "reply", "said"),
    [
        # Options labelled by letters: the letter chooses what it labels.
        (
            "Two layouts: A) an open-plan kitchen, B) a separate utility room. Which fits?",
            "A, easier to clean",
            "Chose an open-plan kitchen.",
        ),  # fmt: skip
        ("有两个方案：A全包 B半包，选哪个？", "B吧，材料我们自己买", "选择半包，材料用户和家人自己买。"),
        # A choice asked between two things, answered with one.
        ("Great. Pickup on Monday or Wednesday?", "wednesday", "Chose Wednesday."),
        # The reply's words that only say it suits are left out.
        ("We can do 9:15 on Thursday or 16:40 on Friday.", "Friday arvo works", "Chose 16:40 on Friday."),
        # A Chinese reply's first clause names the option; the option laid out is said whole.
        ("最早能约7月8号和7月11号。", "11号吧，8号要出差", "选择7月11号，8号要出差。"),
        ("可以改成周二上午10点或周五下午3点取件。", "周五那个", "选择周五下午3点取件。"),
    ],
)
def test_an_option_named_by_letter_or_in_few_words_is_chosen(question: str, reply: str, said: str) -> None:
    assert answer_of(question, reply) == [("decision", said)]


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("Is the weather warm or cold over there?", "cold, as always"),  # asks after a state, not a choice
        ("Can I take your date of birth or your member number?", "the member number, 55120"),  # a detail asked
    ],
)
def test_an_either_question_that_is_no_choice_makes_no_decision(question: str, reply: str) -> None:
    assert all(kind != "decision" for kind, _text in answer_of(question, reply))


@pytest.mark.parametrize(
    "text",
    [
        "Is it refundable?",
        "Do you fit bike racks as well?",
        "Can my guitar go in the hold?",
        "你好，有防蓝光的镜片卖吗",
        "请问初三插班报名是在这里吗",
    ],
)
def test_a_question_to_the_business_about_its_goods_or_terms_is_an_inquiry(text: str) -> None:
    assert first_kind(text) == "inquiry"


@pytest.mark.parametrize("text", ["is it extra crowded on weekends?", "do you do pilates?"])
def test_a_question_to_a_friend_is_no_inquiry(text: str) -> None:
    assert first_kind(text) != "inquiry"


@pytest.mark.parametrize(
    "text",
    [
        # What went wrong with a service or goods, said without the word: a complaint before the health or the money
        # it is about (the corpus README's order).
        "my inhaler refill was supposed to be ready on Friday and it still isn't",
        "the courier lost the parcel and nobody emailed me about it",
        "the new sofa I ordered got delayed three weeks",
        "the vase has a crack down one side, came like that",
        "我在你们店买的胰岛素笔芯是过期的",
        "我备注了不要香菜还是放了，都第三次了",
        "物业费怎么这么贵，去年才一千出头",
        "说好周一来修，到现在也没人来看",
    ],
)
def test_a_fault_said_without_the_word_is_a_complaint(text: str) -> None:
    assert first_kind(text) == "complaint"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("I broke my wrist at football", "health"),
        ("我这周又偏头痛了", "health"),
        # The speaker late for their own plan is no service that failed them.
        ("I was meant to be back at the gym by now but my knee is still swollen", "health"),
    ],
)
def test_the_speakers_own_injury_stays_health(text: str, kind: str) -> None:
    assert first_kind(text) == kind
