"""The speaker's own question to the business about a thing of theirs ("Can I update my phone number to ...?",
"我可以把手机号改成…吗？") is an inquiry said as asked, not a statement with its question mark, nor a statement cut at
its last comma. Phrasings of this file's own, in both languages."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import facts_of


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            "Could I change my delivery address to 3 Quay Street, Galway?",
            "Asked whether they could change the delivery address to 3 Quay Street, Galway.",
        ),
        (
            "Can we change our contact number to 07700 900777?",
            "Asked whether they can change the contact number to 07700 900777.",
        ),
        ("我可以把收件地址改成成都高新区吗？", "咨询是否可以把收件地址改成成都高新区。"),
        ("能不能把我的手机号换成13900001111？", "咨询能否把手机号换成13900001111。"),
    ],
)
def test_the_speakers_own_question_is_asked(text: str, fact: str) -> None:
    assert facts_of(text) == [("inquiry", fact)]
