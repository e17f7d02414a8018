"""Chinese sentences that no rule or cue types take the type their characters tell (facts/extraction/hanzi.py),
on phrasings of their own (none from the corpus or the exemplars); with the embedder down, the shape says profile."""

from __future__ import annotations

import numpy as np
import pytest

from facts.extraction import classifier, hanzi
from facts.extraction.typer import cue_type, firm_type, slot_family, type_of


def test_features_are_character_pairs_and_latin_words() -> None:
    assert hanzi.features("我在Shopee做UI，三年了") == ["我在", "shopee", "做", "ui", "三年", "年了"]
    assert hanzi.features("哦") == ["哦"]


def test_the_heads_are_fitted_deterministically() -> None:
    kept = [t for t in classifier.training_turns() if t.keep and t.type]
    (chars, vectors), (chars2, vectors2) = classifier.fit_chinese(kept).heads(), classifier.fit_chinese(kept).heads()
    assert chars is not None and chars2 is not None and vectors is not None and vectors2 is not None
    assert chars.types == chars2.types and chars.vocab == chars2.vocab
    assert np.array_equal(chars.w, chars2.w) and np.array_equal(chars.b, chars2.b)
    assert vectors.types == vectors2.types
    assert np.array_equal(vectors.w, vectors2.w) and np.array_equal(vectors.mean, vectors2.mean)


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("这段时间老是犯困，白天打不起精神", "health"),
        ("寄过来的床单颜色跟图片差太多了", "complaint"),
        ("师傅装完走了，水龙头一直滴水", "complaint"),  # (an event by the meaning head until session 28's batches)
        # Guards: what the shape said and the characters agree with.
        ("我在一家银行做柜员", "profile"),
        ("我是东北人，在上海待了十年了", "profile"),
    ],
)
def test_where_no_rule_or_cue_fires_the_characters_type_a_chinese_sentence(sentence: str, expected: str) -> None:
    assert firm_type(sentence, None, slot_family(None, sentence)) == "" and cue_type(sentence) == ""
    assert type_of(sentence, None, None, ("other", 0.9)) == expected


def test_with_the_embedder_down_the_shape_says_profile(settings) -> None:  # type: ignore[no-untyped-def]
    settings.EMBEDDINGS_DISABLED = True
    assert classifier.chinese_type("师傅装完走了，水龙头一直滴水") is None
    assert type_of("师傅装完走了，水龙头一直滴水", None, None, None) == "profile"
