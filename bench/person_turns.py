"""Ways to rank the named person's own turns, measured without the search: where multi-hop evidence sits.

    .venv/bin/python -m bench.person_turns              # BENCH_DATABASE_NAME: an ingested bench database

For every LoCoMo dev question of categories 1-4 with evidence, the turns of the speakers the question names (all
turns when it names none) are ranked by a score computed from the turns' stored vectors and the query's vector with
the common names taken out (focus.py, share 1), and recall@10 of the evidence turns is read from that ranking, per
category. The scores (bench/README.md, i-hop4):

- `turn`: the cosine to the turn's vector (what the vector signal over messages does);
- `kinds w`: plus w x the best cosine to general sentences of each kind a list question asks for (category.py's
  cues, KINDS below: a type-level label of each turn);
- `mmr l`: the top 10 picked greedily from the best 40, less l x the cosine to the turns already picked;
- `next b` / `prev a`: plus b (a) x the next (previous) turn's cosine in the same session;
- `sentences s`: s x the turn's cosine + (1 - s) x its best sentence's (turns split at sentence ends and photo
  captions; the sentence vectors are computed here, cached under var/, about a minute for the five conversations).

Offline and deterministic; the figures are an upper view of each idea (no fusion, no facts, no other signal), so
an idea that loses here is not tried in the search, and one that wins is measured there with bench.search_crossfit.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import statistics
from collections.abc import Callable
from typing import Any

import numpy as np

os.environ.setdefault("OMP_NUM_THREADS", "1")

from bench.common import BENCH_DB, BENCH_TENANT, ROOT, database_url_for, django_setup, load_locomo  # noqa: E402

CACHE = ROOT / "var" / "person_turns"

# General sentences of the kinds a list question asks for (category.py's cue names), written from each kind's
# definition, none from a benchmark: the type-level label of a turn is its best cosine to its kind's sentences.
KINDS: dict[str, tuple[str, ...]] = {
    "activity": (
        "We went hiking in the mountains and camped overnight.",
        "I go running every morning to stay fit.",
        "I have been painting a landscape on canvas.",
        "I have been practising the guitar and the piano.",
        "I took a yoga class and went swimming afterwards.",
    ),
    "food": ("I cooked a delicious dinner from a new recipe.", "I baked cookies and a cake for the family."),
    "place": ("We took a trip abroad and visited a beautiful city.", "I went on vacation to the beach last summer."),
    "media": (
        "I just finished reading a great novel.",
        "We watched a movie at the cinema last night.",
        "I listen to this album all the time.",
    ),
    "pet": ("My dog loves to play fetch in the yard.", "We adopted a kitten from the shelter."),
    "family": ("I spent the day with my kids and my husband.", "My parents came to visit for a family dinner."),
    "work": ("I got a new job and started working on a big project.", "I am starting my own business."),
    "event": ("We celebrated a birthday with a big party.", "I attended a wedding and a festival last weekend."),
}

Score = Callable[[dict[str, Any], "Conv"], np.ndarray]


class Conv:
    """One conversation's turns as stored: ids (dia ids), speakers, text, unit vectors, session neighbours."""

    def __init__(self, sample_id: str, rows: list[tuple[str, str, str, str]]) -> None:
        self.sample_id = sample_id
        self.ids = [r[0] for r in rows]
        self.names = np.array([r[1] for r in rows])
        self.text = [r[3] for r in rows]
        vectors = np.array([json.loads(r[2]) for r in rows], dtype=np.float32)
        self.vectors = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
        at = {d: i for i, d in enumerate(self.ids)}
        self.prev, self.next = np.arange(len(rows)), np.arange(len(rows))
        for i, d in enumerate(self.ids):
            session, _, n = d.partition(":")
            self.prev[i] = at.get(f"{session}:{int(n) - 1}", i)
            self.next[i] = at.get(f"{session}:{int(n) + 1}", i)
        self._sentences: tuple[np.ndarray, np.ndarray] | None = None

    def sentences(self) -> tuple[np.ndarray, np.ndarray]:
        """(unit vectors of the turns' sentences, the turn each belongs to), computed once and cached under var/."""
        if self._sentences is None:
            from facts.embedding import embed_texts

            texts, owner = [], []
            for i, turn in enumerate(self.text):
                speaker, _, body = turn.partition(": ")
                parts = [s for s in re.split(r"(?<=[.!?])\s+|\s*\[shares|\]", body) if len(s.split()) >= 3]
                for part in parts or [body]:
                    texts.append(f"{speaker}: {part}")
                    owner.append(i)
            path = CACHE / f"{self.sample_id}-{len(texts)}.npy"
            if path.exists():
                vectors = np.load(path)
            else:
                vectors = np.array(embed_texts(texts), dtype=np.float32)
                CACHE.mkdir(parents=True, exist_ok=True)
                np.save(path, vectors)
            self._sentences = vectors / np.linalg.norm(vectors, axis=1, keepdims=True), np.array(owner)
        return self._sentences


def load() -> tuple[list[dict[str, Any]], dict[str, Conv]]:
    """The questions (with their focused vectors, persons and cues) and the conversations' turns."""
    from django.db import connection

    from conversations.models import Subject
    from facts.embedding import embed_texts
    from facts.retrieval.candidates.category import asked_categories
    from facts.retrieval.focus import focused
    from facts.retrieval.query import analyze

    questions: list[dict[str, Any]] = []
    convs: dict[str, Conv] = {}
    for conv in load_locomo():
        subject = Subject.objects.get(tenant__name=BENCH_TENANT, external_id=conv.subject_id)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT external_id, lower(name), embedding::text, content FROM conversations_message "
                "WHERE subject_id = %s AND embedding IS NOT NULL ORDER BY created_at, id",
                [subject.pk],
            )
            convs[conv.sample_id] = c = Conv(conv.sample_id, cursor.fetchall())
        speakers = set(c.names.tolist())
        asked = [q for q in conv.qa if q.category in (1, 2, 3, 4) and q.evidence]
        for q, vector in zip(asked, embed_texts([q.question for q in asked]), strict=True):
            names = [n for n in analyze(q.question, now=dt.datetime.now(dt.UTC)).names if n in speakers]
            questions.append(
                {
                    "conv": conv.sample_id,
                    "cat": q.category,
                    "evidence": set(q.evidence),
                    "persons": names,
                    "kinds": [k.name for k in asked_categories(q.question)],
                    "vector": np.array(focused(list(vector), names, share=1.0), dtype=np.float32),
                }
            )
    return questions, convs


def recall(questions: list[dict[str, Any]], convs: dict[str, Conv], score: Score, mmr: float = 0.0) -> dict[int, float]:
    """Recall@10 of the evidence turns in the named persons' turns ranked by `score`, per category."""
    by_cat: dict[int, list[float]] = {}
    for q in questions:
        c = convs[q["conv"]]
        mine = np.isin(c.names, q["persons"]) if q["persons"] else np.ones(len(c.ids), dtype=bool)
        s = np.where(mine, score(q, c), -9.0)
        order = list(np.argsort(-s, kind="stable")[: 40 if mmr else 10])
        top: list[int] = []
        while len(top) < 10 and order:
            best = max(
                order, key=lambda i: s[i] - mmr * max((float(c.vectors[i] @ c.vectors[j]) for j in top), default=0)
            )
            top.append(best)
            order.remove(best)
        found = {c.ids[i] for i in top}
        by_cat.setdefault(q["cat"], []).append(len(found & q["evidence"]) / len(q["evidence"]))
    return {cat: round(statistics.fmean(v), 4) for cat, v in sorted(by_cat.items())}


def scores() -> dict[str, Score]:
    from facts.embedding import embed_texts

    kinds = {name: np.array(embed_texts(list(texts)), dtype=np.float32) for name, texts in KINDS.items()}

    def turn(q: dict[str, Any], c: Conv) -> np.ndarray:
        return c.vectors @ q["vector"]

    def kind(w: float) -> Score:
        return lambda q, c: turn(q, c) + w * sum((np.max(c.vectors @ kinds[k].T, axis=1) for k in q["kinds"]), 0.0)

    def neighbour(prev: float, nxt: float) -> Score:
        def f(q: dict[str, Any], c: Conv) -> np.ndarray:
            s = turn(q, c)
            return s + prev * s[c.prev] + nxt * s[c.next]

        return f

    def sentences(share: float) -> Score:
        def f(q: dict[str, Any], c: Conv) -> np.ndarray:
            vectors, owner = c.sentences()
            best = np.full(len(c.ids), -1.0, dtype=np.float32)
            np.maximum.at(best, owner, vectors @ q["vector"])
            return share * turn(q, c) + (1 - share) * best

        return f

    return {
        "turn": turn,
        **{f"kinds {w}": kind(w) for w in (0.3, 0.6)},
        **{f"next {b}": neighbour(0.0, b) for b in (0.2, 0.4)},
        **{f"prev {a}": neighbour(a, 0.0) for a in (0.2, 0.4)},
        **{f"sentences {s}": sentences(s) for s in (0.0, 0.3, 0.5, 0.7)},
    }


def main(argv: list[str] | None = None) -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args(argv)
    django_setup(database_url_for(BENCH_DB))
    questions, convs = load()
    cued = [q for q in questions if q["kinds"]]
    ways = scores()
    for name, score in ways.items():
        print(f"{name}: all {recall(questions, convs, score)}; list cue ({len(cued)}) {recall(cued, convs, score)}")
    turn = ways["turn"]
    for lam in (0.05, 0.1, 0.2):
        print(f"mmr {lam}: all {recall(questions, convs, turn, mmr=lam)}")


if __name__ == "__main__":
    main()
