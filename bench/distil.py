"""Distil, don't hoard: the value gate and the typer on the corpus's holdout and on the LoCoMo dev split.

    .venv/bin/python -m bench.distil                  # holdout figures and LoCoMo figures
    .venv/bin/python -m bench.distil --cv             # also 4-fold cross-validation on the train split (tuning)
    .venv/bin/python -m bench.distil --sample 20      # and a random sample of facts from one conversation
    .venv/bin/python -m bench.distil --turns F.jsonl  # only turns labelled elsewhere (fresh, unseen phrasings)

Corpus (facts/extraction/corpus): each turn goes through the rule extractor as its message would (friends'
turns named, a customer's or an assistant user's unnamed, assistant turns as the assistant); a turn is kept
when it yields a fact. Gate precision and recall are for "keep"; type and slot accuracy are over the turns
labelled and predicted keep (the most likely fact's type; slot family None must match None).
LoCoMo: the extractor alone over every turn of the dev split, as the bench ingests them (role user, the
speaker's name, "<speaker>: <text>"): facts per turn, the share of quote-form facts ("X said: ..."), and the
facts made from greeting, thanks and sign-off turns (found by a word list of this module, not the gate's).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import re
import statistics
import sys
import time
from collections import Counter
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_site.settings")

# A sentence the extractor could not say of the speaker, reported verbatim ("X mentioned that Wow, ..."): quote form
# in all but name, counted beside it.
_REPORTED_RE = re.compile(r"^\s*\S+(?: \S+)? mentioned that |^\s*\S{1,12}提到")
_QUOTE_RE = re.compile(r"^\s*\S+(?: \S+)? (?:said|asked|says|asks)\s*[:：]|^\s*\S{1,12}(?:说|问)[:：]", re.I)
# Turns that are nothing but a greeting, thanks or a sign-off (independent of the gate's own patterns).
_CHATTER_WORDS = frozenset(
    [
        "hi",
        "hey",
        "hello",
        "hiya",
        "yo",
        "thanks",
        "thank",
        "you",
        "so",
        "much",
        "a",
        "lot",
        "again",
        "bye",
        "goodbye",
        "see",
        "ya",
        "later",
        "soon",
        "take",
        "care",
        "good",
        "night",
        "morning",
        "evening",
        "afternoon",
        "talk",
        "cheers",
        "have",
        "great",
        "nice",
        "day",
        "weekend",
        "catch",
    ]
)
_WORD_RE = re.compile(r"[a-z']+")


def _setup() -> None:
    import django

    django.setup()


def is_chatter_turn(text: str, speakers: set[str]) -> bool:
    words = [w for w in _WORD_RE.findall(text.lower()) if w not in {s.lower() for s in speakers}]
    return 0 < len(words) <= 8 and all(w in _CHATTER_WORDS for w in words)


def _corpus_views(turns: list[Any]) -> list[Any]:
    from facts.extraction.base import MessageView

    start = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)
    views = []
    said = [(t.dialogue, (t.role, t.speaker), t.text) for t in turns]
    for i, t in enumerate(turns):
        name = t.speaker if t.register == "friends" else ""
        before = (
            turns[i - 1] if i and turns[i - 1].dialogue == t.dialogue and turns[i - 1].role == "assistant" else None
        )
        context = recent_context(said, i) if t.role == "user" else {}
        views.append(MessageView(id=i + 1, role=t.role, name=name, content=t.text, created_at=start,
                                 previous_assistant_content=before.text if before else "", **context))  # fmt: skip
    return views


def recent_context(said: list[tuple[Any, Any, str]], i: int) -> dict[str, str]:
    """What the pipeline reads before turn `i` of (conversation, speaker, text) turns (facts/services/pipeline.py):
    the speaker's own turns among the four before it in its conversation, newest first, and the turn just before
    when someone else's."""
    where, who, _text = said[i]
    recent = [u for u in said[max(0, i - 4) : i][::-1] if u[0] == where]
    own = [text for _where, speaker, text in recent if speaker == who]
    other = recent[0][2] if recent and recent[0][1] != who else ""
    return {"previous_user_content": "\n".join(own), "previous_other_content": other}


def corpus_scores(turns: list[Any]) -> dict[str, Any]:
    """Gate precision/recall for keep, type and slot accuracy of the rule extractor over labelled turns."""
    from facts.extraction.rules import RuleExtractor

    extractor = RuleExtractor()
    outputs = extractor.extract(_corpus_views(turns))
    counts: Counter[str] = Counter()
    errors: list[dict[str, Any]] = []
    for i, t in enumerate(turns):
        cands = outputs[i + 1].candidates
        kept = bool(cands)
        counts["tp"] += kept and t.keep
        counts["fp"] += kept and not t.keep
        counts["fn"] += t.keep and not kept
        if kept and t.keep:
            best = max(cands, key=lambda c: c.confidence)
            source = _type_source(t.text, best)
            counts["both"] += 1
            counts[f"by_{source}"] += 1
            counts[f"by_{source}_right"] += best.type == t.type
            counts["typed"] += best.type == t.type
            counts[f"cm|{t.lang}|{t.type}|{best.type}"] += 1
            counts["slotted"] += _family_of(best) == t.slot
            if best.type != t.type:
                errors.append(
                    {"id": t.id, "kind": "type", "want": t.type, "got": best.type, "by": source, "text": t.text}
                )
        elif kept != t.keep:
            got = cands[0].text if cands else outputs[i + 1].gate.reason
            errors.append({"id": t.id, "kind": "fp" if kept else "fn", "want": t.reason, "got": got, "text": t.text})
    return {"turns": len(turns), **_figures(counts), "counts": dict(counts), "errors": errors}


def _figures(c: Counter[str] | dict[str, int]) -> dict[str, Any]:
    tp, fp, fn, both = c.get("tp", 0), c.get("fp", 0), c.get("fn", 0), c.get("both", 0)
    return {
        "gate_precision": round(tp / (tp + fp), 3) if tp + fp else 0.0,
        "gate_recall": round(tp / (tp + fn), 3) if tp + fn else 0.0,
        "type_accuracy": round(c.get("typed", 0) / both, 3) if both else None,
        "slot_accuracy": round(c.get("slotted", 0) / both, 3) if both else None,
    }


def confusion(counts: Counter[str] | dict[str, int]) -> dict[str, Any]:
    """Types of the turns labelled and predicted keep: per language, right/all by labelled type and the confusions
    (labelled -> predicted), most frequent first."""
    out: dict[str, Any] = {}
    for lang in sorted({k.split("|")[1] for k in counts if k.startswith("cm|")}):
        cells = {tuple(k.split("|")[2:]): n for k, n in counts.items() if k.startswith(f"cm|{lang}|")}
        types = sorted({w for w, _ in cells})
        right = {w: f"{cells.get((w, w), 0)}/{sum(n for (a, _), n in cells.items() if a == w)}" for w in types}
        wrong = sorted(((n, f"{w}->{g}") for (w, g), n in cells.items() if w != g), reverse=True)
        out[lang] = {"right": right, "confusions": {k: n for n, k in wrong}}
    return out


def _type_source(text: str, candidate: Any) -> str:
    """What decided the candidate's type: a firm rule, a weaker cue, or neither (the classifier or the shape)."""
    from facts.extraction.slots import Slot
    from facts.extraction.typer import cue_type, firm_type, slot_family

    sentence = text[candidate.span_start : candidate.span_end] or text
    slot = Slot(candidate.predicate, candidate.object_value, candidate.type) if candidate.predicate else None
    if firm_type(sentence, slot, slot_family(slot, sentence)):
        return "firm"
    return "cue" if cue_type(sentence) else "open"


def _family_of(candidate: Any) -> str | None:
    from facts.extraction.slots import Slot
    from facts.extraction.typer import slot_family

    slot = Slot(candidate.predicate, candidate.object_value, candidate.type) if candidate.predicate else None
    return slot_family(slot, candidate.text)


def labelled_file(path: str) -> dict[str, Any]:
    """Turns labelled outside the corpus (the corpus's fields, one JSON object a line), scored with the classifier
    fitted on the whole train split: how the extractor does on phrasings written after it was."""
    from facts.extraction.corpus import CorpusTurn

    with open(path, encoding="utf-8") as f:
        turns = [CorpusTurn(**json.loads(line)) for line in f if line.strip()]
    result = corpus_scores(turns)
    result["confusion"] = confusion(result.pop("counts"))
    return result


def holdout() -> dict[str, Any]:
    from facts.extraction.corpus import load_turns

    return corpus_scores([t for t in load_turns() if t.split == "holdout"])


# Ways to hold turns out of the classifier's fit. "dialogue": 4 folds of dialogues (every 4th); the others leave one
# whole group out, so the held turns' phrasing, register or language is one the classifier never saw (as on holdout).
CV_KINDS = ("dialogue", "group", "register", "lang", "batch")


def _fold_key(kind: str, dialogue: str) -> str:
    lang, register, number = dialogue.split("-")
    return {
        "group": f"{lang}-{register}",
        "register": register,
        "lang": lang,
        "batch": "first" if int(number) <= 12 else "wider",
    }[kind]


def cross_validate(folds: int = 4, kind: str = "dialogue") -> dict[str, Any]:
    """Tuning figures without the holdout: fit the classifier without some train dialogues, score them.

    "dialogue" averages 4 folds (figures comparable with earlier notes); the leave-one-out kinds pool the counts
    over their folds. The rules are not refitted: no CV shows how far they fit the train phrasings."""
    import numpy as np

    from facts.extraction import classifier
    from facts.extraction.corpus import load_turns

    train = [t for t in load_turns() if t.split == "train"]
    dialogues = sorted({t.dialogue for t in train})
    if kind == "dialogue":
        held_sets = [{d for j, d in enumerate(dialogues) if j % folds == k} for k in range(folds)]
    else:
        keys = sorted({_fold_key(kind, d) for d in dialogues})
        held_sets = [{d for d in dialogues if _fold_key(kind, d) == key} for key in keys]
    users = classifier.training_turns(train)
    vectors = classifier.training_vectors([t.text for t in users])  # as the product fits (disk cache)
    assert vectors is not None
    results = []
    try:
        for held in held_sets:
            idx = [i for i, t in enumerate(users) if t.dialogue not in held]
            classifier.use_model(classifier.fit([users[i] for i in idx], vectors[np.array(idx)]))
            results.append(corpus_scores([t for t in train if t.dialogue in held]))
    finally:
        classifier.use_model(None)
    pooled: Counter[str] = Counter()
    for r in results:
        pooled.update(r["counts"])
    out: dict[str, Any] = {"kind": kind, "folds": len(held_sets)}
    if kind == "dialogue":
        keys4 = ("gate_precision", "gate_recall", "type_accuracy", "slot_accuracy")
        out.update({k: round(statistics.fmean(r[k] for r in results), 3) for k in keys4})
    else:
        out.update(_figures(pooled))
    out["type_by_source"] = {
        s: f"{pooled[f'by_{s}_right']}/{pooled[f'by_{s}']}" for s in ("firm", "cue", "open") if pooled[f"by_{s}"]
    }
    out["errors"] = [e for r in results for e in r["errors"]]
    out["confusion"] = confusion(pooled)
    return out


def locomo(sample: int = 0, seed: int = 7) -> dict[str, Any]:
    """The extractor alone over the LoCoMo dev split's turns."""
    from bench.common import load_locomo
    from facts.extraction.base import MessageView
    from facts.extraction.rules import RuleExtractor

    extractor = RuleExtractor()
    turns = facts = quotes = reported = chatter_turns = chatter_facts = 0
    seconds = 0.0  # the extractor's CPU time, all threads (the rules and the gate's int8 features)
    reasons: Counter[str] = Counter()
    samples: dict[str, list[str]] = {}
    for conv in load_locomo():
        speakers = {t.speaker for t in conv.turns}
        said = [(t.session, t.speaker, t.content) for t in conv.turns]
        views = [
            MessageView(
                id=i + 1,
                role="user",
                name=t.speaker,
                content=t.content,
                created_at=t.created_at,
                **recent_context(said, i),
            )  # fmt: skip
            for i, t in enumerate(conv.turns)
        ]
        started = time.process_time()
        outputs = extractor.extract(views)
        seconds += time.process_time() - started
        texts: list[str] = []
        for i, t in enumerate(conv.turns):
            out = outputs[i + 1]
            turns += 1
            facts += len(out.candidates)
            quotes += sum(1 for c in out.candidates if _QUOTE_RE.search(c.text))
            reported += sum(1 for c in out.candidates if _REPORTED_RE.search(c.text))
            texts.extend(c.text for c in out.candidates)
            if not out.gate.keep:
                reasons[out.gate.reason] += 1
            if is_chatter_turn(t.content.split(":", 1)[-1], speakers):
                chatter_turns += 1
                chatter_facts += len(out.candidates)
        samples[conv.sample_id] = texts
    result: dict[str, Any] = {
        "turns": turns,
        "facts": facts,
        "facts_per_turn": round(facts / turns, 3),
        "quote_form_share": round(quotes / facts, 4) if facts else 0.0,
        "reported_speech_share": round(reported / facts, 4) if facts else 0.0,
        "greeting_thanks_signoff_turns": chatter_turns,
        "greeting_thanks_signoff_facts": chatter_facts,
        "top_drop_reasons": reasons.most_common(8),
        "extract_cpu_seconds": round(seconds, 2),
        "extract_turns_per_cpu_second": round(turns / seconds, 1) if seconds else 0.0,
    }
    if sample:
        first = sorted(samples)[0]
        result["sample_conversation"] = first
        result["sample"] = random.Random(seed).sample(samples[first], min(sample, len(samples[first])))
    return result


def run(*, cv: bool = False, sample: int = 0, only_cv: bool = False, cv_kind: str = "dialogue") -> dict[str, Any]:
    _setup()
    result: dict[str, Any] = {}
    if not only_cv:
        result = {"holdout": holdout(), "locomo_dev": locomo(sample=sample)}
        result["holdout"].pop("errors")
        result["holdout"].pop("counts")
    if cv or only_cv:
        result["train_cv"] = cross_validate(kind=cv_kind)
    result["targets"] = {
        "gate_precision": ">= 0.9", "gate_recall": ">= 0.8", "type_accuracy": ">= 0.85",
        "facts_per_turn": "<= 0.6", "quote_form_share": "<= 0.05", "greeting_thanks_signoff_facts": "0",
    }  # fmt: skip
    return result


def markdown(r: dict[str, Any]) -> list[str]:
    h, loc = r.get("holdout", {}), r.get("locomo_dev", {})
    if not h or not loc:
        return []
    return [
        "## Distil (value gate and typer; bench.distil)",
        "",
        f"Corpus holdout ({h['turns']} turns): gate precision {h['gate_precision']} (target 0.9), recall "
        f"{h['gate_recall']} (0.8), type accuracy {h['type_accuracy']} (0.85), slot accuracy {h['slot_accuracy']}.",
        f"LoCoMo dev ({loc['turns']} turns, extractor alone): {loc['facts_per_turn']} facts per turn (target 0.6), "
        f'quote-form {loc["quote_form_share"]:.1%} (5%; reported speech "X mentioned that ..." '
        f"{loc.get('reported_speech_share', 0):.1%}), greeting/thanks/sign-off turns "
        f"{loc['greeting_thanks_signoff_turns']} yielding {loc['greeting_thanks_signoff_facts']} facts (0); the extractor "
        f"{loc.get('extract_turns_per_cpu_second', 0)} turns per CPU second.",
        "",
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cv", action="store_true", help="4-fold cross-validation on the train split")
    parser.add_argument("--sample", type=int, default=0, help="random facts of one LoCoMo conversation")
    parser.add_argument("--errors", action="store_true", help="print the cross-validation errors (train only)")
    parser.add_argument("--only-cv", action="store_true", help="only the cross-validation (while tuning)")
    parser.add_argument(
        "--cv-by", choices=CV_KINDS, default="dialogue",
        help="folds: 4 of dialogues, or leave one group (lang-register) / register / language / batch out",
    )  # fmt: skip
    parser.add_argument("--turns", help="score only the labelled turns of this JSONL file (the corpus's fields)")
    args = parser.parse_args(argv)
    if args.turns:
        _setup()
        scored = labelled_file(args.turns)
        errors = scored.pop("errors")
        if not args.errors:
            scored.pop("confusion")
        json.dump(scored, sys.stdout, ensure_ascii=False, indent=1)
        print()
        for e in errors if args.errors else []:
            print(json.dumps(e, ensure_ascii=False))
        return
    result = run(cv=args.cv or args.errors, sample=args.sample, only_cv=args.only_cv, cv_kind=args.cv_by)
    errors = result.get("train_cv", {}).pop("errors", [])
    if not args.errors:
        result.get("train_cv", {}).pop("confusion", None)
    result.get("train_cv", {}).pop("counts", None)
    json.dump(result, sys.stdout, ensure_ascii=False, indent=1)
    print()
    if args.errors:
        for e in errors:
            print(json.dumps(e, ensure_ascii=False))


if __name__ == "__main__":
    main()
