"""A health fact about someone else in the speaker's life is a relationship fact, the speaker's own stays health;
questions to a business about baggage, clinic hours and rent are inquiries; trying for a baby and contraception
are health; a condition with the speaker first ("我要是…") or after an interjection, and a past that did not happen,
are hypotheticals; stepping down from a role and notice given are work; faults said without the word (a detour, a
charge never agreed to, an order come without an item) are complaints; a yes said three times confirms. English
and Chinese, in phrasings of this file's own."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import answer_of, first_kind


@pytest.mark.parametrize(
    "text",
    [
        "Priya's got a nasty chest infection, she's on antibiotics till Friday.",
        "Chemo finished in April, he's much brighter these days.",
        "Grandad's hip replacement went well, he's walking with a frame now.",
        "我和我爸，他血压一直偏高，每天吃降压药",
        "老王前几天确诊了糖尿病，整个人都蔫了",
        "我家乐乐对牛奶过敏，一喝就起疹子",
    ],
)
def test_a_health_fact_about_a_third_person_is_a_relationship_fact(text: str) -> None:
    assert first_kind(text) == "relationship"


@pytest.mark.parametrize(
    "text",
    [
        "I broke my ankle playing five-a-side on Sunday.",
        "The operation went fine, the surgeon said she was happy with it.",  # the speaker's operation: no one else's body
        "I told her I'm allergic to penicillin.",
        "Ugh my knee's playing up again, the physio thinks it's a ligament.",  # "knee's": the knee is, no one's
        "我最近失眠特别严重，每天三点才睡着",
        "天天吃降压药，血压还是下不来",
    ],
)
def test_the_speakers_own_health_stays_health(text: str) -> None:
    assert first_kind(text) == "health"


@pytest.mark.parametrize(
    "text",
    [
        "你们托运行李限重多少？",
        "那套两居室月租多少，押一付三吗？",
        "周日门诊开吗",
        "能给房间加张婴儿床吗？",
    ],
)
def test_a_question_to_a_business_about_baggage_clinic_hours_or_rent_is_an_inquiry(text: str) -> None:
    assert first_kind(text) == "inquiry"


@pytest.mark.parametrize(
    "text",
    ["我们在备孕，叶酸要提前多久吃？", "I had a coil fitted last spring, is that a problem for the scan?"],
)
def test_trying_for_a_baby_and_contraception_are_health(text: str) -> None:
    assert first_kind(text) == "health"


@pytest.mark.parametrize(
    "text",
    [
        "我要是中了彩票，先给我妈在海边买套房",
        "要是咱们队拿了冠军，我请全队吃烧烤",
        "咱要是早点出发，现在都到了",
        "要是当初选了计算机，现在工资翻倍",
        "honestly if I had a garden I'd get a dog",
    ],
)
def test_a_condition_with_the_speaker_first_is_a_hypothetical(text: str) -> None:
    assert first_kind(text) == "drop"


@pytest.mark.parametrize(
    "text",
    [
        "I stepped down as head of the residents' association in the spring.",
        "Gave my four weeks at the hotel on Friday, off to the council's parks team after that.",
    ],
)
def test_stepping_down_and_notice_given_are_work(text: str) -> None:
    assert first_kind(text) == "profile"


@pytest.mark.parametrize(
    "text",
    [
        "The pizza came without the garlic dip, order 4471.",
        "There's £12.99 on my statement from some app, I never signed up for this.",
        "It's normally £9 to the station, I paid £23 this morning.",
        "昨晚那单司机绕了好大一圈，到家快一点了",
        "账单里多了笔扣款，我从来没开通过这个会员",
        "平时打车到公司三十多，这次收了我七十八",
    ],
)
def test_a_fault_said_without_the_word_is_a_complaint(text: str) -> None:
    assert first_kind(text) == "complaint"


def test_a_yes_said_three_times_confirms_the_read_back() -> None:
    assert answer_of("请问挂失的是尾号3378的借记卡吗？", "对对对") == [("other", "确认挂失的是尾号3378的借记卡。")]


@pytest.mark.parametrize(
    "text",
    [
        "【转】饭后百步走，活到九十九！转给家人看看",
        "Saw this on Instagram, apparently cold showers fix everything [link]",
        "要不你先问问物业，或者直接报修",
        "要不请个钟点工，一个月也就两千",
        "你要是周末有空，我带你去吃那家潮汕牛肉",
        "要是我是你，早就辞了",
        "这回再送错我就投诉了",
        "社保卡要提前多久补办",
        "冰箱里就剩两个鸡蛋一根葱，午饭做点啥",
        "what's the difference between a Roth and a traditional IRA",
        "帮我比较一下这两款扫地机器人",
        "could you help me with my cover letter",
        "菜单定了，发我看看",
        "did you see the leisure centre's shutting the pool in May",
        "七点，我在地铁站口等你",
        "吓死我了",
        "嘶，有点肉疼",
        "给我一份减脂餐的食谱，简单点的",
        "顺便问问，公积金一般每月交多少合适",
        "Draft a short note to my neighbour about the hedge.",
        "语气再随意一点，我们组长人很好说话",
        "way too corporate, make it friendlier, my team's pretty relaxed",
        "is the quiz night on the 12th or the 19th",
        "compare a 1 year and a 3 year broadband deal for me",
        "help me with this maths problem, a train leaves at 9 going 80 km/h",
        "ok but what if the interest rate goes up again",
        "要是下个月房价跌了能不能退定金",
        "if the plumber no-shows again I'm doing it myself",
    ],
)
def test_forwarded_news_suggestions_conditions_and_unmarked_questions_keep_nothing(text: str) -> None:
    assert first_kind(text) == "drop"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("想问一下老年卡怎么办理", "inquiry"),
        ("卫生间地漏那边一直在渗水，墙都泡软了", "complaint"),
        ("保洁阿姨今天又没来，这都第二次了", "complaint"),
        ("Had my hearing test on Monday, I need aids in my left ear.", "health"),
        ("我上个月查出白内障，医生说明年再做手术", "health"),
        ("我复试过了，九月去厦大读新闻学", "event"),  # (alone, "复试过了！" is still vetoed by the classifier)
    ],
)
def test_a_question_in_so_many_words_faults_and_the_body_in_new_words(text: str, kind: str) -> None:
    assert first_kind(text) == kind


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("帮我写个请假条，我下周三要去医院复查", "health"),  # the speaker again after the request: a fact of theirs
        ("太正式了，口语一点，我最讨厌满屏的感叹号", "preference"),  # a dislike after the feedback
        ("plan to move to Leeds in May, still looking at areas", "profile"),  # a plan of the speaker's, not work asked
        ("if I'm honest, the migraines are back again this month", "health"),  # "if I'm honest" sets no condition
    ],
)
def test_a_request_or_feedback_followed_by_the_speakers_own_fact_keeps_it(text: str, kind: str) -> None:
    assert first_kind(text) == kind


def test_a_pets_health_said_with_he_or_she_is_no_relatives() -> None:
    assert first_kind("Can I bring my dog to the barbecue, she's allergic to chicken") != "relationship"
