"""Work or study ahead is who the speaker is next, not a plan: the corpus README's profile covers "a new job or
school, settled or planned, and retiring", and a move "done or planned". A future word says when, not what: going
part-time from a month, going back to work after leave, graduating, retiring, transferred to another office, a move
on a day ahead. A trip, a promise or an exam keeps its plan."""

from __future__ import annotations

import pytest

from facts.extraction.base import MessageView
from facts.extraction.rules import RuleExtractor
from tests.facts.user_turn import WHEN, first_kind


@pytest.mark.parametrize(
    "text",
    [
        "I'm going part-time from January, three days a week",
        "I'm back at work on the 12th after six months off",
        "I graduate next summer, then hopefully a masters",
        "my maternity leave ends in April so nursery it is",
        "I retire next year, can't come soon enough",
        "下个月我就返岗了，孩子交给婆婆",
        "我明年七月毕业，计算机专业",
        "我明年五月到龄，可以办退休了",
        "下周开始调到浦东那个办公室",
        "年后就开始去新公司上班了",
        "下下周三搬，东西还没打包",
        "18号搬，搬家公司已经约好了",
    ],
)
def test_work_study_and_moves_ahead_are_the_profile(text: str) -> None:
    assert first_kind(text) == "profile"


@pytest.mark.parametrize(
    "text",
    [
        "I'm flying to Oslo next week for a conference",
        "下个月我要去成都出差一周",
        "下周六我去帮你搬家",
        "明年三月考雅思，目标7分",
        "我们打算毕业旅行去云南",
    ],
)
def test_a_trip_a_promise_or_an_exam_ahead_stays_a_plan(text: str) -> None:
    assert first_kind(text) == "commitment"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("我闺女下学期转学到朝阳", "relationship"),
        ("我的居住证下个月到期", "legal"),
        ("my work permit runs out in June", "legal"),
        ("我手机屏幕摔碎了", "complaint"),
        ("我的路由器一直离线", "complaint"),
        ("快递到了，衬衫尺码不对", "complaint"),
        ("the doorbell camera keeps going offline", "complaint"),
        ("my laptop won't boot since the update", "complaint"),
    ],
)
def test_a_daughter_a_permit_and_a_device_at_fault(text: str, kind: str) -> None:
    assert first_kind(text) == kind


def test_a_residence_permit_is_no_residence() -> None:
    view = MessageView(id=1, role="user", name="", content="孩子上学要居住证和社保满一年", created_at=WHEN)
    out = RuleExtractor().extract([view])[1]
    assert out.candidates and not any(c.predicate.startswith("residence") for c in out.candidates)
