"""A rescue dog and a relationship at a distance: the "he" or "she" of a sentence that names a pet (by its kind or
breed) is the pet, and what is said of it is who the speaker is, its illness too, unless the speaker's own body is
meant (猫毛过敏) or the pet is someone else's (他的猫); a pet fetched from a rescue or a breeder (救助站领的) is a
pet gained; "veggie" is a diet (a veg box is none); a couple's row and an anniversary are about the relationship;
meeting a partner's parents and an exam score (雅思考了7分) happened; a parcel that came smashed and a claim refused
or unpaid are complaints. Phrasings of this file's own, in both languages where the rule reads both."""

from __future__ import annotations

import pytest

from facts.extraction.typer import slot_family
from tests.facts.user_turn import first_kind, rule_type_of


@pytest.mark.parametrize(
    "text",
    [
        "She's a six year old whippet cross, we got her in the spring",
        "he's a staffie, about three, and scared of bin lorries",
    ],
)
def test_he_or_she_beside_a_breed_is_the_pet(text: str) -> None:
    assert rule_type_of(text) == "profile"


@pytest.mark.parametrize(
    "text", ["my little cockapoo has an ear infection again", "我家那只英短最近肠胃炎，一直拉肚子"]
)
def test_a_pets_illness_is_the_speakers_pet(text: str) -> None:
    assert rule_type_of(text) == "profile"


@pytest.mark.parametrize(
    "text", ["我对猫毛过敏，去朋友家都得吃药", "I'm allergic to my flatmate's dog, sneezing all day"]
)
def test_the_speakers_own_allergy_to_a_pet_is_health(text: str) -> None:
    assert first_kind(text) == "health"


@pytest.mark.parametrize("text", ["她的狗三岁了，叫可乐", "her dog is called Biscuit, he's two"])
def test_someone_elses_pet_is_not_the_speakers(text: str) -> None:
    assert rule_type_of(text) != "profile"


@pytest.mark.parametrize(
    "text",
    [
        "we collected her from the rescue centre on Sunday",
        "picked him up from a breeder in Kent last month",
        "上个月从救助站接回来的，三岁左右的小黑狗",
    ],
)
def test_a_pet_fetched_from_a_rescue_is_a_pet_gained(text: str) -> None:
    assert slot_family(None, text) == "pet"
    assert first_kind(text) == "profile"


def test_veggie_is_a_diet_and_a_veg_box_is_not() -> None:
    assert first_kind("btw I'm veggie, so no fish either") == "preference"
    assert first_kind("I'm veg box mad this summer") != "preference"


@pytest.mark.parametrize(
    "text",
    [
        "me and Priya had a huge row about the move last night",
        "it's our first anniversary on friday and I've got nothing planned",
        "下个月就是我们在一起两周年纪念日",
    ],
)
def test_a_couples_row_and_an_anniversary_keep(text: str) -> None:
    assert first_kind(text) != "drop"


@pytest.mark.parametrize(
    "text", ["finally met Tom's parents at the weekend, they were lovely", "托福考了 102 分，够申请了"]
)
def test_meeting_the_parents_and_an_exam_score_happened(text: str) -> None:
    assert first_kind(text) == "event"


@pytest.mark.parametrize(
    "text",
    [
        "the box arrived with one side crushed and the lamp broken",
        "宠物险理赔被拒了，说是既往症",
        "they declined my claim and gave no reason",
        "the claim from June still hasn't been paid",
    ],
)
def test_a_parcel_smashed_and_a_claim_refused_are_complaints(text: str) -> None:
    assert rule_type_of(text) == "complaint"


def test_a_fish_bone_or_a_horse_race_is_no_pet() -> None:
    assert rule_type_of("She had a fish bone stuck in her throat all night") != "profile"
