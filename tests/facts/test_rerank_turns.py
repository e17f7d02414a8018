"""A raw turn's information factor in the re-rank: its content words are made from its text when it is scored
(rows read for the answer no longer carry them), and give the factor they gave when every row carried them."""

from __future__ import annotations

import datetime as dt

from facts.retrieval.rerank import Reranker, RerankTuning, turn_keywords
from facts.text import keywords

NOW = dt.datetime(2026, 12, 2, 12, tzinfo=dt.UTC)
TURNS = ["Thanks, Priya!", "I adopted a parrot called Kiwi yesterday.", "谢谢你，Priya！", "我们上个月搬到了杭州。", ""]


def test_a_turns_factor_reads_the_content_words_of_its_text() -> None:
    reranker = Reranker(NOW, frozenset(), frozenset({"priya"}), RerankTuning())
    for text in TURNS:
        row = {"id": 1, "text": text, "created_at": NOW - dt.timedelta(days=3)}
        assert turn_keywords(text) == tuple(keywords(text))
        assert reranker.factor(row, turn=True) == reranker.factor({**row, "keywords": keywords(text)})
    thanks, parrot = ({"text": t, "created_at": NOW} for t in TURNS[:2])
    assert reranker.factor(thanks, turn=True) < reranker.factor(parrot, turn=True) == reranker.factor(parrot)
