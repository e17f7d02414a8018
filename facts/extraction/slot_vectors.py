"""The embedding's second opinion on slots: the MiniLM vector the pipeline already computed for a candidate,
compared with a few prototype sentences per slot family (English and Chinese, embedded once per process).

Two uses, both after the rules (facts/extraction/families.py) have read the sentence:

- a slot read from a weak cue ("I'm in Paris", "我在广州") stays only when the sentence means the family more
  than it means the prototypes of things that are not slots (a trip, an outing, a feeling);
- a first-person sentence the rules gave no slot, whose vector is clearly nearest one family with a named
  place or organisation in it ("Home these days is a canal boat moored in Bath"), gets that family's slot.

Runs outside any transaction (the pipeline's embed stage); without an embedder it does nothing.
"""

from __future__ import annotations

import logging
import re
import threading

import numpy as np

from facts import embedding as embedding_backend  # module import: safe when threads import it concurrently
from facts.extraction.base import Candidate
from facts.extraction.families import family_of
from facts.text import has_cjk

logger = logging.getLogger(__name__)

# Families a vector may add on its own: the value is the named place or organisation in the sentence.
ADOPTABLE = {"residence": "place", "employer": "org", "school": "org"}
# A sentence joins a family when its nearest prototype is at least this similar and beats every other family and
# the non-slot prototypes by MARGIN. On the corpus's first-person English user turns (435 turns, 24 with these
# slots) 0.4 / 0.12 flags 3 turns wrongly, of which a trip is excluded by _TRIP and the others name no place or
# organisation (so get no value). MiniLM does not tell Chinese families apart (every Chinese turn scores ~0.7
# against every family), so Chinese sentences get no vote: the rules alone decide there.
ADOPT_SIMILARITY = 0.4
MARGIN = 0.12
_TRIP = re.compile(r"\b(travel\w*|trip|holiday|vacation|visit\w*|conference|for the (?:week|weekend|day)|flying|flight)\b",
                   re.I)  # fmt: skip

PROTOTYPES: dict[str, list[str]] = {
    "residence": [
        "User lives in Leeds.", "User moved to a new flat in Berlin.", "User's home is now in Portland.",
        "User relocated to Toronto last month.", "User's new address is 12 High Street, Bristol.",
        "User bought a house in Brighton.", "用户住在海淀区。", "用户搬家到了上海。", "用户的新家在杭州。",
    ],
    "employer": [
        "User works at Google.", "User started a new job at a bank in London.", "User joined Microsoft last week.",
        "User got hired by Spotify.", "User switched jobs and is now at Amazon.", "用户在腾讯工作。",
        "用户跳槽去了阿里巴巴。", "用户入职了京东。",
    ],
    "school": [
        "User studies at the University of Edinburgh.", "User is doing a master's degree at MIT.",
        "User got into Oxford.", "User started a PhD at Stanford.", "用户在北京大学读研究生。", "用户考上了复旦大学。",
    ],
    "not_a_slot": [
        "User is in Paris for a conference this week.", "User went to a concert last night.",
        "User visited her sister in Leeds.", "User is travelling in Japan.", "User had lunch at a cafe in town.",
        "User likes pizza.", "User is tired today.", "User saw a film at the cinema.", "用户这周在北京出差。",
        "用户昨天去公园散步了。", "用户在商场买了衣服。", "用户很喜欢吃火锅。",
    ],
}  # fmt: skip

_lock = threading.Lock()
_matrix: dict[str, np.ndarray] | None = None
_FIRST_PERSON = re.compile(r"\b(i|i'm|i've|we|we're|we've|my|our|me|us)\b", re.I)


def _prototype_vectors() -> dict[str, np.ndarray] | None:
    """Each family's prototype vectors, embedded once per process (None when the embedder is unavailable)."""
    global _matrix
    if _matrix is None:
        with _lock:
            if _matrix is None:
                names = [(family, text) for family, texts in PROTOTYPES.items() for text in texts]
                try:
                    vectors = embedding_backend.embed_texts([text for _, text in names])
                except embedding_backend.EmbedderUnavailable:
                    return None
                built: dict[str, list[list[float]]] = {}
                for (family, _), vector in zip(names, vectors, strict=True):
                    built.setdefault(family, []).append(vector)
                _matrix = {family: np.asarray(rows, dtype=np.float32) for family, rows in built.items()}
    return _matrix


def family_scores(vector: list[float]) -> dict[str, float]:
    """Cosine similarity of a sentence vector to each family's nearest prototype."""
    prototypes = _prototype_vectors()
    if prototypes is None:
        return {}
    v = np.asarray(vector, dtype=np.float32)
    v = v / (float(np.linalg.norm(v)) or 1.0)
    return {family: float(np.max(rows @ v)) for family, rows in prototypes.items()}


def slots_second_opinion(
    *, content: str, speaker: str, candidates: list[Candidate], vectors: list[list[float] | None]
) -> None:
    """Overrule weak slot readings and add slots the rules missed, in place, from each candidate's vector."""
    for candidate, vector in zip(candidates, vectors, strict=True):
        sentence = content[candidate.span_start : candidate.span_end] if candidate.span_start is not None else ""
        if vector is None or candidate.type == "inquiry" or has_cjk(sentence) or has_cjk(candidate.text):
            continue
        if candidate.predicate:
            found = family_of(sentence, has_cjk(sentence)) if sentence else None
            if found is not None and found.weak and found.predicate == candidate.predicate:
                scores = family_scores(vector)
                if scores and scores.get(found.predicate, 0.0) < scores["not_a_slot"]:
                    candidate.predicate = candidate.object_value = candidate.subject_entity = ""
            continue
        if not sentence or not _FIRST_PERSON.search(sentence) or _TRIP.search(sentence) or sentence.endswith("?"):
            continue
        _adopt(candidate, vector, speaker)


def _adopt(candidate: Candidate, vector: list[float], speaker: str) -> None:
    scores = family_scores(vector)
    if not scores:
        return
    family = max(ADOPTABLE, key=lambda f: scores[f])
    best = scores[family]
    others = max(s for f, s in scores.items() if f != family)
    if best < ADOPT_SIMILARITY or best - others < MARGIN:
        return
    kind = ADOPTABLE[family]
    named = [e for e in candidate.entities if e.get("text") and e.get("kind") in {"place", "org"}]
    # The family's own kind first; a lone place-or-organisation name otherwise (the entity reader cannot always
    # tell "Brooklyn" in "I call Brooklyn home" from a company).
    value = next((e["text"] for e in named if e["kind"] == kind), "") or (named[0]["text"] if len(named) == 1 else "")
    if not value:
        return
    candidate.predicate, candidate.object_value, candidate.subject_entity = family, value, speaker
    if candidate.type in {"other", "event"}:
        candidate.type = "profile"
