"""Water let into the home; a job lost with the whole team; a yes-no question to the listener without its mark; a
request to the assistant that opens with "you"; the assistant's read-back corrected; a choice made after thinking it
over, or of what a service offers. Phrasings of the tests' own, in English and Chinese."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import answer_of, facts_of, first_kind, rule_type_of


@pytest.mark.parametrize(
    "text",
    [
        "the cold water pipe in the loft burst on Sunday and soaked the landing",
        "our cellar is completely under water after the main split",
        "water's been dripping through the kitchen ceiling since the flat upstairs had a shower",
        "凌晨热水器的管子爆了，厨房地板全泡了",
        "楼上的水管崩开了，我家书柜里的书都泡坏了",
        "这场雨下完地下室被淹了，放的两箱酒全没了",
    ],
)
def test_water_let_into_the_home_is_a_complaint(text: str) -> None:
    assert first_kind(text) == "complaint"


@pytest.mark.parametrize(
    "text",
    ["我周末在家泡了个澡", "每天拿红枣泡水喝", "我快被论文淹了", "my inbox is flooded again", "she burst into tears"],
)
def test_a_bath_a_drink_a_pile_of_work_and_tears_are_no_flood(text: str) -> None:
    assert first_kind(text) != "complaint"


@pytest.mark.parametrize(
    "text",
    [
        "so they let 25 of us go at the print works this morning",
        "my whole department got axed in the restructure",
        "我之前在一家外贸公司做单证，今年整个组都裁掉了",
        "我原来在服装厂做质检，厂子去年倒闭了",
    ],
)
def test_a_job_lost_with_the_whole_team_is_who_the_speaker_is_now(text: str) -> None:
    assert first_kind(text) == "profile"


def test_a_shop_shut_or_a_branch_closed_is_no_job_lost() -> None:
    assert first_kind("the branch was shut in May so I bank online now") != "profile"
    assert first_kind("我们小区门口那家面馆倒闭了") != "profile"


@pytest.mark.parametrize(
    "text",
    ["did u remember to lock the back door", "do you still have the number for that roofer", "were you at the match"],
)
def test_a_yes_no_question_to_the_listener_without_its_mark_keeps_nothing(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("did you hear I got the apprenticeship at the garage", "profile"),
        ("have you seen my new flat yet, moved in Monday", "profile"),
    ],
)
def test_a_question_that_tells_the_speaker_s_news_keeps_it(text: str, kind: str) -> None:
    assert first_kind(text) == kind


@pytest.mark.parametrize("text", ["你给我推荐几本入门的理财书吧", "您帮我列一下搬家要准备的东西"])
def test_a_request_to_the_assistant_that_opens_with_you_keeps_nothing(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    ("question", "reply", "kind", "said"),
    [
        ("Happy to help. You live in Bristol, right?", "Bath not Bristol", "profile", "Bath"),
        ("So your new address is 3 Mill Lane?", "no, 8 Mill Lane not 3", "profile", "8 Mill Lane"),
        ("Just to confirm, you're allergic to ibuprofen?", "not ibuprofen, aspirin", "health", "aspirin"),
        ("好的。您之前说住在朝阳区对吧？", "不是朝阳，是通州", "profile", "通州"),
    ],
)
def test_a_read_back_corrected_keeps_the_right_detail(question: str, reply: str, kind: str, said: str) -> None:
    facts = answer_of(question, reply)
    assert len(facts) == 1
    assert facts[0][0] == kind
    assert said in facts[0][1]
    assert "Corrected" in facts[0][1] or "更正" in facts[0][1]


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("You live in Bristol, right?", "Bath not Cardiff"),  # the wrong detail is not the read-back's
        ("What city are you in?", "Bath not Bristol"),  # no read-back
        ("您住在朝阳区对吧？", "不是不是"),
    ],
)
def test_no_correction_is_read_without_the_read_back_s_detail(question: str, reply: str) -> None:
    assert not any("Corrected" in text or "更正" in text for _kind, text in answer_of(question, reply))


@pytest.mark.parametrize(
    "text", ["想了想还是报周末班吧，平时下班太晚", "考虑了一下，还是租离公司近的那套", "纠结了半天，就选那个二手的"]
)
def test_a_choice_made_after_thinking_it_over_is_a_decision(text: str) -> None:
    assert first_kind(text) == "decision"


def test_a_piece_of_advice_is_no_decision() -> None:
    assert first_kind("还是去医院看看吧") != "decision"


@pytest.mark.parametrize(
    ("question", "reply", "said"),
    [
        ("课程下个月开，给您预留一个名额？", "留吧", "留"),
        ("您这张卡最多可以分十二期，手续费另算。", "那就分十二期吧", "分十二期"),
    ],
)
def test_what_a_service_offers_taken_is_a_decision(question: str, reply: str, said: str) -> None:
    facts = answer_of(question, reply)
    assert facts and facts[0][0] == "decision"
    assert said in facts[0][1]


@pytest.mark.parametrize("text", ["I'm 52, too old to retrain?", "I am 34 now", "我45了，还来得及考证吗", "我今年38了"])
def test_an_age_said_alone_is_kept_as_who_the_speaker_is(text: str) -> None:
    assert first_kind(text) == "profile"


@pytest.mark.parametrize("text", ["I'm 20 minutes away", "I'm 99% sure it was Tuesday"])
def test_a_number_after_i_m_that_is_no_grown_up_s_age_is_no_age(text: str) -> None:
    assert first_kind(text) != "profile"


@pytest.mark.parametrize(
    "text",
    ["do you still have places on the Tuesday night welding course?", "any spaces left on the June first aid course?"],
)
def test_places_on_a_course_asked_of_a_service_are_an_inquiry(text: str) -> None:
    assert first_kind(text) == "inquiry"


@pytest.mark.parametrize(
    ("text", "kind"), [("楼上漏下来的水顺着灯罩往下滴", "complaint"), ("跑完步汗顺着后背往下流", "drop")]
)
def test_water_dripping_through_a_light_is_a_fault_sweat_is_not(text: str, kind: str) -> None:
    assert first_kind(text) == kind


def test_water_that_got_into_a_room_is_a_fault_and_a_wheeze_is_health() -> None:
    assert first_kind("the water got right into the back bedroom carpet overnight") == "complaint"
    assert first_kind("I've been wheezing at night since we moved into the damp flat") == "health"


def test_a_read_back_asked_as_can_i_confirm_is_corrected_as_the_fact_it_reads() -> None:
    facts = answer_of("Lovely, can I confirm the billing address as 4 Quay Street, Hull?", "no it's 14 not 4")
    assert len(facts) == 1
    assert facts[0][0] == "profile"
    assert "14 Quay Street" in facts[0][1] and "assistant" not in facts[0][1]


def test_someone_else_s_place_on_a_course_is_no_inquiry() -> None:
    assert first_kind("shall I ask Priya to hand your place on the sailing course to her cousin?") != "inquiry"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("my brother had a stroke at work on Monday", "relationship"),
        ("I had a minor stroke in the spring and I'm still tired all the time", "health"),
        ("我爸上周脑梗住院了", "relationship"),
        ("去年中风以后我右手一直不太灵活", "health"),
    ],
)
def test_a_stroke_is_health_and_a_relative_s_is_about_them(text: str, kind: str) -> None:
    assert first_kind(text) == kind


@pytest.mark.parametrize("text", ["what a stroke of luck that was", "我买的是中风险的基金"])
def test_luck_and_a_fund_s_risk_are_no_stroke(text: str) -> None:
    assert first_kind(text) != "health"


@pytest.mark.parametrize(
    "text",
    [
        "I got scammed out of £600 on a fake concert ticket site",
        "上个月我被骗了五千，刷单的",
        "我被电信诈骗转走了一万二",
    ],
)
def test_a_fraud_suffered_is_what_happened(text: str) -> None:
    assert first_kind(text) == "event"


@pytest.mark.parametrize("text", ["怕她被骗，我把她的转账限额调低了", "怎么防被骗啊"])
def test_a_fear_of_fraud_or_a_question_about_it_is_no_fraud_suffered(text: str) -> None:
    assert first_kind(text) != "event"


@pytest.mark.parametrize("text", ["my Steam account got hacked and they bought three games", "我的微博号被盗了"])
def test_an_account_taken_over_is_kept(text: str) -> None:
    assert first_kind(text) in {"complaint", "event"}


@pytest.mark.parametrize("text", ["我爱人中风以后左手一直没劲", "我对象脑梗以后说话一直不太利索"])
def test_a_spouse_called_by_another_word_is_the_one_whose_health_it_is(text: str) -> None:
    assert first_kind(text) == "relationship"


@pytest.mark.parametrize(
    "text", ["they let a few of us go home early because of the snow", "隔壁那家公司倒闭了，楼下天天有人来搬东西"]
)
def test_leaving_early_or_a_neighbouring_firm_gone_bust_is_no_job_lost(text: str) -> None:
    assert rule_type_of(text) != "profile"


@pytest.mark.parametrize("text", ["I've never been scammed, touch wood", "怎么防止被电信诈骗"])
def test_a_fraud_never_suffered_or_one_guarded_against_is_not_what_happened(text: str) -> None:
    assert first_kind(text) != "event"


def test_a_stroke_of_luck_is_no_stroke() -> None:
    assert first_kind("after a stroke of luck we got the last two tickets") != "health"
