"""A crime the speaker suffered and its report to the police; a referral to a counsellor, an op on a joint, a clinic's
number taken; a ranked choice and a plan picked by its tier; a child called by name at a stage of school; a service's
places and monthly terms asked about. Phrasings of the tests' own, in English and Chinese."""

from __future__ import annotations

import pytest

from facts.extraction.lexicon import CRIME_RE
from tests.facts.user_turn import facts_of, first_kind, rule_type_of


@pytest.mark.parametrize(
    "text",
    [
        "We got burgled on Friday night while we were at my in-laws'.",
        "someone broke into the van overnight and took all my tools",
        "my e-bike got nicked from the station racks this morning",
        "I was mugged on the way back from the gig, they took my phone",
        "I rang 999 straight away, the police turned up within the hour",
        "came back from the shops and someone had broken in, the whole place is upside down. what do I do now",
        "昨晚家里进贼了，抽屉全被翻了一遍",
        "我电动车昨天在小区楼下被偷了",
        "已经报警了，派出所的人下午来过",
        "刚到家发现门锁被撬了，东西翻得乱七八糟，我现在该怎么办",
    ],
)
def test_a_crime_suffered_is_kept_as_what_happened(text: str) -> None:
    assert first_kind(text) == "event"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # A claim on a policy is legal; a relative's loss is about the relative; a fault found after is a complaint.
        ("我家上个月被盗了，想问下家财险怎么申请理赔", "legal"),
        ("My dad's car was broken into outside his flat last week.", "relationship"),
        ("我爸的手机在地铁上被偷了", "relationship"),
        ("上周我家被撬了，查了监控才发现单元门禁坏了半个月都没人来修", "complaint"),
    ],
)
def test_a_crime_beside_a_stronger_fact_takes_that_fact_s_type(text: str, kind: str) -> None:
    assert first_kind(text) == kind


@pytest.mark.parametrize(
    "text",
    [
        "要不要报警啊，感觉像是被骗了",
        "卧槽 你报警没",
        "has your car ever been broken into?",
        "I finally broke in the new walking boots",
    ],
)
def test_no_crime_is_read_into_a_question_or_an_idiom(text: str) -> None:
    assert first_kind(text) != "event"


@pytest.mark.parametrize(
    "text",
    [
        "my doctor referred me to a psychologist, the first appointment is on the 9th",
        "I'm off work next week for my shoulder op",
        "明天上午去医院挂了个皮肤科的号",
        "下周二还要回去复诊，看看伤口长得怎么样",
    ],
)
def test_a_referral_an_op_and_a_clinic_visit_are_health(text: str) -> None:
    assert first_kind(text) == "health"


def test_a_ward_the_speaker_works_in_is_still_no_health() -> None:
    assert first_kind("我是皮肤科的护士，下个月调去门诊") != "health"


@pytest.mark.parametrize(
    "text",
    [
        "right, I'll go for the £12.50 one, the cheaper one looks flimsy",
        "Oakfield first, Marsh Lane second, and Priory as a backup",
        "exchange please, the bigger size should fit him better",
        "那就家庭版，多一个账号也够用了",
        "那就选高配套餐，流量不够用太难受",
    ],
)
def test_an_option_picked_is_a_decision(text: str) -> None:
    assert first_kind(text) == "decision"


def test_a_motto_of_firsts_is_no_choice() -> None:
    assert first_kind("health first, money second, that's how I see it") != "decision"


@pytest.mark.parametrize(
    "text",
    [
        "Isla starts reception in September and she's already asking about her uniform",
        "Rory's in year 2 now and he reads better than me",
        "我们糖糖下个月就上大班了",
        "果果今年九月上一年级，在家附近的实验小学",
    ],
)
def test_a_child_called_by_name_at_school_is_a_relationship_fact(text: str) -> None:
    assert rule_type_of(text) == "relationship"


@pytest.mark.parametrize(
    "text",
    [
        "天天早上都要催半天才起床",  # a doubled word that is no name
        "I'm in year 2 of my apprenticeship at the garage",  # the speaker's own year
    ],
)
def test_no_child_is_read_into_doubled_words_or_the_speaker_s_own_year(text: str) -> None:
    assert rule_type_of(text) != "relationship"


@pytest.mark.parametrize(
    "text",
    [
        "你好，想咨询下周六的亲子烘焙课还有名额吗",
        "hi 您好 请问暑期托管班还有名额吗",
        "这个会员是按月扣费吗",
        "请问出国要的无犯罪记录证明在哪里开",
    ],
)
def test_places_monthly_terms_and_certificates_asked_of_a_service_are_inquiries(text: str) -> None:
    facts = facts_of(text)
    assert facts and facts[0][0] == "inquiry"


@pytest.mark.parametrize(
    "text",
    [
        "we're starting our first round of IVF in April",
        "the embryologist rang, we've got three embryos frozen",
        "had an early miscarriage in the summer, we're trying again",
        "I need to book the 12-week scan before the end of the month",
        "honestly I'm terrified of needles and the injections start Monday",
        "这是第二次移植了，医生说内膜条件还可以",
        "下个月开始促排，每天要打两针",
        "上次八周胎停了，这次特别紧张",
    ],
)
def test_trying_for_a_baby_with_help_is_health(text: str) -> None:
    assert first_kind(text) == "health"


@pytest.mark.parametrize(
    "text",
    [
        "my brother and I are the executors, the solicitor says it could take a year",
        "we're still waiting for probate before the flat can go on the market",
        "grandad left the farm to my uncle and nothing to anyone else",
        "外公走之前立了遗嘱，老房子给了我舅",
        "继承公证还在办，公证处说要全家人到场",
    ],
)
def test_a_will_probate_and_an_inheritance_are_legal(text: str) -> None:
    assert first_kind(text) == "legal"


def test_no_will_power_is_no_will() -> None:
    assert first_kind("I've got no will power when there's cake around") != "legal"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("我妈肺癌复发了，医生说要再化疗，我们还在纠结要不要让她做", "relationship"),
        ("my dad's been moved to a hospice near Harrogate", "relationship"),
        ("the work scheme gives me eight counselling sessions, first one's on Tuesday", "health"),
        ("想问下宠物险能不能报绝育手术", "inquiry"),
    ],
)
def test_a_fact_told_before_a_hesitation_and_care_at_the_end_of_life(text: str, kind: str) -> None:
    assert first_kind(text) == kind


@pytest.mark.parametrize("text", ["还没定要不要去看医生", "nothing decided yet about the operation"])
def test_a_hesitation_alone_is_still_vague(text: str) -> None:
    assert first_kind(text) == "drop"


@pytest.mark.parametrize(
    "text",
    [
        "sent off the ET1 this morning after early conciliation went nowhere",
        "the tribunal hearing is set for the 3rd of June in Leeds",
        "we got a county court judgment for £2,400 and he still hasn't paid",
        "my old boss hasn't paid my last two months' wages",
        "filed a small claim against the decorator for the full 1.8k",
        "公司拖了我两个月工资，一共一万六",
        "已经去劳动监察投诉了，下周让公司带考勤去",
        "判决书下来三个月了，对方还是不给钱，准备申请强制执行",
    ],
)
def test_a_dispute_taken_formal_and_wages_owed_are_legal(text: str) -> None:
    assert first_kind(text) == "legal"


@pytest.mark.parametrize(
    "text",
    ["the semi-final hearing of the talent show is on Saturday", "my hearing aids need new batteries"],
)
def test_a_hearing_that_is_no_court_s_is_not_legal(text: str) -> None:
    assert first_kind(text) != "legal"


@pytest.mark.parametrize(
    "text",
    [
        "my 7 year old has just been diagnosed with coeliac disease",
        "our 6-year-old was in A&E last night with an asthma attack",
        "my 9yo needs grommets, the op is in March",
    ],
)
def test_a_child_called_by_age_is_the_one_whose_health_it_is(text: str) -> None:
    assert first_kind(text) == "relationship"


def test_the_speaker_s_own_body_beside_a_child_stays_health() -> None:
    assert first_kind("I've had sciatica since carrying my 2 year old around all summer") == "health"


@pytest.mark.parametrize(
    "text",
    [
        "I swiped my card at the barrier and nothing happened",
        "演唱会门票十分钟就被抢光了",
        "我们最大的客户被对手撬走了",
        "I called 999 when my neighbour collapsed in the street",
    ],
)
def test_a_card_swiped_tickets_snapped_up_a_client_poached_or_an_ambulance_called_is_no_crime(text: str) -> None:
    assert CRIME_RE.search(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "I inherited my dad's temper, sadly",
        "我继承了我妈的好脾气",
        "poor judgement in hiring him, honestly",
        "你欠我一杯奶茶，等工资发了再请我",
    ],
)
def test_a_trait_inherited_judgement_in_general_and_a_treat_owed_are_not_legal(text: str) -> None:
    assert first_kind(text) != "legal"


@pytest.mark.parametrize("text", ["这个项目最后流产了，白忙活三个月", "my period of notice is three months"])
def test_a_project_aborted_and_a_notice_period_are_not_health(text: str) -> None:
    assert first_kind(text) != "health"


def test_someone_at_a_front_desk_is_no_child() -> None:
    assert rule_type_of("Sarah is at reception until six today") != "relationship"
