"""How the typer's paths carry to phrasings they were not tuned on: leave one group out, per path and language.

    .venv/bin/python -m bench.type_paths            # per path (firm, cue, open, confirm) and the open path forced
    .venv/bin/python -m bench.type_paths --fresh    # re-run the extractor (else its cached records are reused)
    .venv/bin/python -m bench.type_paths --labelled-pool --locomo   # the labelled-pool experiment (not shipped)

Groups: the corpus's train split by group (`en-fr`, `zh-svc`, ...) and each read batch of facts/extraction/corpus/batches (its
file name). The blind batch and the corpus's holdout are never read. Over the turns labelled and predicted keep,
the most likely fact's sentence, slot and family are recorded once (the extractor as bench.distil runs it); the
typer's paths are then re-run on these records, so a change to the typer is scored in seconds. "open forced" types
every record by the open path alone (what `type_of` says when no firm rule or cue fires), whatever decided it; a
bare "Yes" typed by the read-back it confirms is its own path ("confirm") and left out of "open forced". The rules
were written with these groups read, so firm and cue figures are optimistic; the open path is fitted on nothing.
The labelled pool (an experiment) is built without the scored group. Records are cached at TYPE_PATHS_CACHE: re-run
with --fresh after a change to the gate or the slots.
"""

from __future__ import annotations

import argparse
import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_site.settings")

READ_BATCHES = ("i-type3-a", "i-type3-b", "i-type4-c", "i-prec-d", "i-gate5-e", "s12-f")
_FRESH = Path(__file__).parent.parent / "facts" / "extraction" / "corpus" / "batches"
_CACHE = Path(os.environ.get("TYPE_PATHS_CACHE", "/tmp/type_paths_records.json"))


def _groups() -> list[tuple[str, list[Any]]]:
    from facts.extraction.corpus import CorpusTurn, load_turns

    train = [t for t in load_turns() if t.split == "train"]  # the holdout is never read
    out: list[tuple[str, list[Any]]] = []
    for key in sorted({"-".join(t.dialogue.split("-")[:2]) for t in train}):
        out.append((key, [t for t in train if "-".join(t.dialogue.split("-")[:2]) == key]))
    for name in READ_BATCHES:
        with open(_FRESH / f"{name}.jsonl", encoding="utf-8") as f:
            out.append((name, [CorpusTurn(**json.loads(line)) for line in f if line.strip()]))
    return out


def records(fresh: bool = False) -> list[dict[str, Any]]:
    """Per turn labelled and predicted keep: group, language, labelled type, the typed sentence, slot, family and
    the type the extractor gave."""
    if _CACHE.exists() and not fresh:
        return list(json.loads(_CACHE.read_text(encoding="utf-8")))
    import django

    django.setup()
    from bench.distil import _corpus_views
    from facts.extraction.confirm import readback
    from facts.extraction.rules import RuleExtractor

    extractor = RuleExtractor()
    out = []
    for group, turns in _groups():
        views = _corpus_views(turns)
        outputs = extractor.extract(views)
        for i, t in enumerate(turns):
            cands = outputs[i + 1].candidates
            if not (cands and t.keep):
                continue
            best = max(cands, key=lambda c: c.confidence)
            sentence = t.text[best.span_start : best.span_end] or t.text
            slot = [best.predicate, best.object_value, best.type] if best.predicate else None
            out.append({"group": group, "lang": t.lang, "want": t.type, "got": best.type, "sentence": sentence,
                        "slot": slot, "register": t.register, "text": t.text,
                        "confirms": readback(views[i].previous_assistant_content)
                        if outputs[i + 1].gate.reason.endswith("(confirms)") else ""})  # fmt: skip
    _CACHE.write_text(json.dumps(out, ensure_ascii=False), encoding="utf-8")
    return out


def _paths(rec: dict[str, Any]) -> tuple[str, str, str]:
    """The firm rule's type, the cue's, and the confirmed read-back's (a bare "Yes" takes what it confirms)."""
    from facts.extraction.confirm import confirmed_type
    from facts.extraction.slots import Slot
    from facts.extraction.typer import cue_type, firm_type, slot_family

    if rec["confirms"]:
        return "", "", confirmed_type(rec["confirms"])
    slot = Slot(*rec["slot"]) if rec["slot"] else None
    return firm_type(rec["sentence"], slot, slot_family(slot, rec["sentence"])), cue_type(rec["sentence"]), ""


def open_type(sentence: str) -> str:
    """What `type_of` says when no firm rule or cue fires (the classifier up)."""
    from facts.extraction.type_definitions import nearest_type, nearness_speaks
    from facts.extraction.typer import _standing, fallback_type

    if nearness_speaks(sentence):
        return _standing(nearest_type(sentence) or "other", sentence)
    return fallback_type(sentence)


class LabelledPool:
    """The experiment of i-typer5 (not in the product): the labelled users' kept turns of the train split (English,
    the only language MiniLM reads) join the written exemplars as one pool, a type scored by the mean cosine of its
    K nearest members (exemplars and turns alike), the scored group's own turns left out."""

    def __init__(self) -> None:
        import numpy as np

        from facts.extraction import type_definitions as td

        self.types = tuple(td.EXEMPLARS)
        self.exemplars = _unit([t for ty in self.types for t in td.EXEMPLARS[ty]])
        self.exemplar_index = np.array([i for i, ty in enumerate(self.types) for _ in td.EXEMPLARS[ty]])
        turns = [(key, t) for key, ts in _groups() if key not in READ_BATCHES for t in ts]
        kept = [(key, t) for key, t in turns if t.keep and t.role == "user" and t.type and t.lang == "en"]
        self.groups = np.array([key for key, _ in kept])
        self.vectors = _unit([t.text for _, t in kept])
        self.index = np.array([self.types.index(str(t.type)) for _, t in kept])
        self.held: str | None = None

    def nearest_type(self, sentence: str) -> str | None:
        import numpy as np

        from facts.extraction.type_definitions import type_scores

        mask = self.groups != self.held
        vector = _unit([sentence])
        pool = np.concatenate([self.exemplars, self.vectors[mask]])
        index = np.concatenate([self.exemplar_index, self.index[mask]])
        return self.types[int(np.argmax(type_scores(vector, self.types, index, pool)[0]))]


def _unit(texts: list[str]) -> Any:
    import numpy as np

    from facts import embedding

    vectors = np.asarray(embedding.embed_texts(texts), dtype=np.float32)
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)


def _memoised_embedder() -> None:
    """Embed each text once in this run."""
    from facts import embedding

    plain, memo = embedding.embed_texts, {}

    def embed_texts(texts: list[str]) -> list[list[float]]:
        missing = [t for t in dict.fromkeys(texts) if t not in memo]
        memo.update(zip(missing, plain(missing) if missing else [], strict=True))
        return [memo[t] for t in texts]

    embedding.embed_texts = embed_texts  # type: ignore[assignment]


def use_pool(pool: LabelledPool | None) -> None:
    """Type by the labelled pool instead of the exemplars alone (None: back)."""
    from facts.extraction import type_definitions

    if not hasattr(type_definitions, "_plain_nearest"):
        type_definitions._plain_nearest = type_definitions.nearest_type  # type: ignore[attr-defined]
    type_definitions.nearest_type = (  # type: ignore[assignment]
        pool.nearest_type if pool is not None else type_definitions._plain_nearest  # type: ignore[attr-defined]
    )


def locomo_shift(pool: LabelledPool) -> dict[str, int]:
    """Facts of the LoCoMo dev split (extractor alone) and how many the pool would type otherwise (counts only)."""
    from bench.common import load_locomo
    from facts.extraction.base import MessageView
    from facts.extraction.rules import RuleExtractor

    extractor, counts = RuleExtractor(), Counter[str]()
    for conv in load_locomo():
        views = [MessageView(id=i + 1, role="user", name=t.speaker, content=t.content, created_at=t.created_at)
                 for i, t in enumerate(conv.turns)]  # fmt: skip
        outputs = extractor.extract(views)
        for i, t in enumerate(conv.turns):
            for c in outputs[i + 1].candidates:
                sentence = t.content[c.span_start : c.span_end] or t.content
                rec = {
                    "sentence": sentence,
                    "confirms": "",
                    "slot": [c.predicate, c.object_value, c.type] if c.predicate else None,
                }
                counts["facts"] += 1
                if any(_paths(rec)):
                    continue
                counts["open"] += 1
                before = open_type(sentence)
                use_pool(pool)
                counts["open_type_changed"] += open_type(sentence) != before
                use_pool(None)
    return dict(counts)


def score(recs: list[dict[str, Any]], pool: LabelledPool | None = None) -> dict[str, Any]:
    """Right/all per path and language (by what decided the type), the open path forced, and the whole typer."""
    counts: Counter[str] = Counter()
    for group in sorted({r["group"] for r in recs}):
        held = [r for r in recs if r["group"] == group]
        if pool is not None:
            pool.held = group
        for rec in held:
            firm, cue, confirmed = _paths(rec)
            opened = open_type(rec["sentence"])
            lang = "zh" if rec["lang"] != "en" else "en"
            path = "confirm" if confirmed else "firm" if firm else "cue" if cue else "open"
            typed = confirmed or firm or cue or opened
            where = "batches" if group in READ_BATCHES else "train"
            for key in (f"{path}|{lang}", f"all|{lang}", f"all|{lang}|{where}"):
                counts[key + "|n"] += 1
                counts[key + "|right"] += typed == rec["want"]
            if not confirmed:  # a bare "Yes" says nothing by itself
                for key in (f"open_forced|{lang}", f"open_forced|{lang}|{where}"):
                    counts[key + "|n"] += 1
                    counts[key + "|right"] += opened == rec["want"]
            counts["reconstructed"] += typed == rec["got"]
    keys = sorted({k.rsplit("|", 1)[0] for k in counts if k.endswith("|n")})
    out: dict[str, Any] = {k: f"{counts[k + '|right']}/{counts[k + '|n']}" for k in keys}
    out["reconstructed_as_extractor"] = f"{counts['reconstructed']}/{len(recs)}"
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fresh", action="store_true", help="re-run the extractor over the groups")
    parser.add_argument("--labelled-pool", action="store_true", help="also score the labelled pool (not shipped)")
    parser.add_argument("--locomo", action="store_true", help="with --labelled-pool: LoCoMo facts it would retype")
    args = parser.parse_args(argv)
    recs = records(fresh=args.fresh)
    import django

    django.setup()
    result: dict[str, Any] = {"typer": score(recs)}
    if args.labelled_pool:
        _memoised_embedder()
        pool = LabelledPool()
        use_pool(pool)
        result["with_labelled_pool"] = score(recs, pool)
        use_pool(None)
        if args.locomo:
            pool.held = None
            result["locomo_dev"] = locomo_shift(pool)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
