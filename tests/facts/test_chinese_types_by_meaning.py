"""Chinese sentences that no rule or cue types take the type their meaning tells (facts/extraction/zh_types.py:
multilingual-e5-small's vectors beside the character pairs), on phrasings of our own (none from the corpus, the
batches or the exemplars); a description is no plan; with the encoder down the characters decide alone."""

from __future__ import annotations

import numpy as np
import pytest

from facts.extraction import classifier, zh_encoder
from facts.extraction.signals import only_describes
from facts.extraction.typer import cue_type, firm_type, slot_family, type_of

CASES = [
    ("年夜饭我来张罗，菜单我定", "commitment"),
    ("等他出院了我接他回家住一阵", "commitment"),
    ("那就定下来了，房子租南边那套", "decision"),
    ("榴莲我能连吃三块，越臭越香", "preference"),
    ("看电影我只看原声的，配音的听着别扭", "preference"),
    ("外卖送到都凉透了，汤还洒了一半", "complaint"),
    ("我在一家物流公司管仓库", "profile"),
]


@pytest.mark.parametrize(("sentence", "expected"), CASES)
def test_the_meaning_types_a_sentence_no_rule_or_cue_types(sentence: str, expected: str) -> None:
    assert firm_type(sentence, None, slot_family(None, sentence)) == "" and cue_type(sentence) == ""
    assert type_of(sentence, None, None, ("other", 0.9)) == expected
    assert type_of(sentence, None, None, None) == expected  # the MiniLM's type head never speaks for Chinese


def test_the_characters_alone_miss_most_of_them() -> None:
    model = classifier.model()
    assert model is not None and model.chinese is not None
    chars, vectors = model.chinese.heads()
    assert chars is not None and vectors is not None
    assert sum(chars.most_likely(s) != expected for s, expected in CASES) >= 4


def test_a_description_is_no_plan() -> None:
    assert only_describes("周末天气不错，风景很好")
    assert not only_describes("年夜饭我来张罗，菜单我定") and not only_describes("下周二上午")
    assert type_of("下礼拜山上应该很凉快", None, None, None) != "commitment"


def test_the_encoder_is_deterministic_and_batch_free() -> None:
    one = zh_encoder.embed(["我对花生过敏"])
    both = zh_encoder.embed(["我对花生过敏", "下周去北京出差"])
    again = zh_encoder.embed(["我对花生过敏", "下周去北京出差"])
    assert one is not None and both is not None and again is not None
    assert both.shape == (2, 384) and np.allclose(np.linalg.norm(both, axis=1), 1.0, atol=1e-4)
    assert np.array_equal(both, again) and np.array_equal(one[0], both[0])


def test_with_the_encoder_down_the_characters_decide_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    kept = [t for t in classifier.training_turns() if t.keep and t.type]
    head = classifier.fit_chinese(kept)
    chars, _ = head.heads()
    assert chars is not None
    monkeypatch.setattr(zh_encoder, "embed", lambda texts: None)
    for sentence, _expected in CASES:
        assert head.most_likely(sentence) == chars.most_likely(sentence)
