"""Chinese marks no future: a day or a month ahead with the speaker's going is a plan ("这周日我回老家"), the same with a
done 了 is an event, and "today" with a thing done is an event. The body, and a service's faults, in more words (a
dislocation, failing eyes, a prescription, a frozen account, a membership not working, a caller kept on hold, luggage
lost), the law in traffic fines, car insurance and consumer loans. A child named by age or as ours at home is a
relative. Money passed between the people talking to settle up, and the group asked who will come or help, keep
nothing."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import facts_of, first_kind


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("这周日我回老家看我妈", "commitment"),
        ("那八号我去车站接你", "commitment"),
        ("这个礼拜六我回去给我爸过生日", "commitment"),
        ("这周末我去爬了黄山，终于登顶了", "event"),
        ("我这周六去考了科目二", "event"),
        ("我今天去银行办了张新卡", "event"),
        ("我今天收到录取通知书了", "event"),
        ("I'm flying to Lisbon next Friday for my cousin's graduation", "commitment"),
    ],
)
def test_a_day_ahead_is_a_plan_and_a_day_done_an_event(text: str, kind: str) -> None:
    assert first_kind(text) == kind


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("我右肩脱臼过两次", "health"),
        ("我眼睛不好，看不清小字", "health"),
        ("医生给我开了点胃药", "health"),
        ("I use a nebuliser twice a day", "health"),
        ("我的店铺账户被冻结了", "complaint"),
        ("买的会员一直没生效", "complaint"),
        ("外卖又漏送了一杯饮料", "complaint"),
        ("Your helpline kept me on hold for an hour", "complaint"),
        ("My refund has been on hold for ten days and nobody replies", "complaint"),
        ("航空公司把我托运的箱子弄丢了，三天了还没消息", "complaint"),
        ("the airline lost my bags on the way to Porto", "complaint"),
        ("the shower hasn't worked since we moved in", "complaint"),
        ("押金拖了两个多月才退", "complaint"),
        ("上周在环城高速超速被拍了，罚200扣3分", "legal"),
        ("车险下个月到期，一直在平安买的", "legal"),
        ("去年花呗欠了八千，这个月还完", "legal"),
        ("Got a penalty charge notice for the bus lane on Hope Street", "legal"),
    ],
)
def test_the_body_and_a_services_faults_in_more_words(text: str, kind: str) -> None:
    assert first_kind(text) == kind


@pytest.mark.parametrize(
    "text",
    [
        "我转你158",
        "好 你给我300就行",
        "just transfer me the 9 quid",
        "no rush, pay me back whenever",
        "谁明天帮我取个快递",
        "对了 谁今晚有空一起打球",
        "who's up for five-a-side on Thursday",
        "who wants the spare ticket for Saturday?",
    ],
)
def test_settling_up_and_asking_the_group_keep_nothing(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("谁能帮我代一节课😭 我周四要去医院复查", "health"),
        ("我每个月还我姐两千", "relationship"),
        ("I still owe my brother £400 for the car", "profile"),
    ],
)
def test_what_the_speaker_tells_beside_it_stays(text: str, kind: str) -> None:
    assert first_kind(text) == kind


@pytest.mark.parametrize(
    "text",
    ["our 14-month-old still wakes twice a night", "My toddler has a peanut allergy", "我家的才八个月，还不会爬",
     "我家那个一吃鸡蛋就起疹子"],
)  # fmt: skip
def test_a_child_named_by_age_or_as_ours_at_home_is_a_relative(text: str) -> None:
    assert first_kind(text) == "relationship"


@pytest.mark.parametrize("text", ["我家那个7kw的桩 一晚上才充六七成", "my 3 year old laptop finally died"])
def test_a_thing_at_home_or_of_an_age_is_no_relative(text: str) -> None:
    assert first_kind(text) not in {"relationship", "drop"}
