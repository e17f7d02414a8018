"""The default, deterministic rule extractor for Chinese and English.

One candidate per informative sentence, rewritten in the third person about the speaker ("I fixed the
bike's brakes yesterday" from Priya on 8 May 2023 -> "Priya fixed the bike's brakes on 7 May 2023"),
so that every informative turn keeps its names, objects, places and dates. No model, microseconds per turn.
"""

from __future__ import annotations

import datetime as dt
import re

from facts.extraction.base import Candidate, Command, ExtractionOutput, GateDecision, MessageView
from facts.extraction.gate import sentence_worth_keeping, value_gate
from facts.extraction.slots import order_numbers, pet_slot, relationship_entities, slot_of, type_of
from facts.extraction.timeexpr import absolute_dates, resolve_text
from facts.text import detect_language, has_cjk, keywords

VERSION = "rules-1.0"

_SENTENCE_RE = re.compile(r"[^.!?。！？\n;；]+(?:[.!?。！？;；]+|$)")
_ABBREV_END = re.compile(r"\b(Mr|Mrs|Ms|Dr|St|vs|etc|e\.g|i\.e|No)\.$", re.I)

_REMEMBER_RE = re.compile(
    r"^\s*(?:please\s+|pls\s+|hey,?\s+)?(?:remember|don'?t forget|keep in mind|note)(?:\s+(?:this|that))?\s*[:,-]?\s*(.*)$"
    r"|^\s*(?:请|麻烦)?(?:帮我)?(?:记住|记一下|记下来?|别忘了)(?:这个|这件事)?[：:，,]?\s*(.*)$",
    re.IGNORECASE | re.DOTALL,
)
_FORGET_RE = re.compile(
    r"^\s*(?:please\s+|pls\s+)?(?:forget|delete|erase|remove)\s+(?:about\s+)?(?:that|this|it|what i (?:just )?said)"
    r"\s*(?:about\s+)?[:,-]?\s*(.*)$"
    r"|^\s*(?:please\s+)?forget\s+(.*)$"
    r"|^\s*(?:请|麻烦)?(?:帮我)?(?:忘掉|忘记|忘了|删掉|删除|别记)(?:我)?(?:刚才|刚刚|之前)?(?:说的|讲的)?(?:那句话|那个|这个)?[：:，,]?\s*(.*)$",
    re.IGNORECASE | re.DOTALL,
)

_IRREGULAR_PAST = frozenset(
    [
        "went",
        "got",
        "saw",
        "made",
        "took",
        "came",
        "gave",
        "found",
        "told",
        "thought",
        "felt",
        "left",
        "kept",
        "began",
        "brought",
        "bought",
        "caught",
        "taught",
        "ran",
        "won",
        "lost",
        "met",
        "paid",
        "sold",
        "sent",
        "spent",
        "built",
        "heard",
        "held",
        "read",
        "said",
        "sat",
        "stood",
        "understood",
        "wrote",
        "drove",
        "ate",
        "drank",
        "flew",
        "grew",
        "knew",
        "threw",
        "wore",
        "broke",
        "chose",
        "spoke",
        "forgot",
        "froze",
        "rode",
        "rose",
        "woke",
        "did",
        "had",
        "was",
        "were",
        "became",
        "fell",
        "hid",
        "led",
        "lit",
        "meant",
        "put",
        "quit",
        "set",
        "shut",
        "slept",
        "swam",
        "swung",
        "hung",
        "let",
        "cut",
        "hit",
        "hurt",
    ]
)
# Adverbs between "I" and the verb ("I really love"): conjugate the next word instead.
_COMMON_ADVERBS = frozenset(
    [
        "really",
        "also",
        "just",
        "never",
        "always",
        "still",
        "even",
        "recently",
        "finally",
        "actually",
        "usually",
        "often",
        "sometimes",
        "definitely",
        "totally",
        "already",
        "only",
    ]
)
_ADVERBS = _COMMON_ADVERBS | {"truly", "absolutely"}
# Words after "I" that are never conjugated: modals, past forms, quantifiers and the common adverbs.
_NO_CONJUGATE = _COMMON_ADVERBS | frozenset(
    [
        "was",
        "were",
        "had",
        "did",
        "will",
        "would",
        "can",
        "could",
        "should",
        "might",
        "must",
        "may",
        "shall",
        "used",
        "ever",
        "once",
        "again",
        "too",
        "both",
        "all",
        "guess",
        "think",
    ]
)
# Present-tense verbs that end like a past form ("I need" -> "Priya needs", not "Priya need").
_PRESENT_IN_ED = frozenset(["need", "feed", "bleed", "breed", "heed", "proceed", "succeed", "exceed", "speed", "shred"])
_PRONOUN_MAP = {"am": "is", "have": "has", "do": "does", "don't": "doesn't", "dont": "doesn't", "'m": "is",
                "haven't": "hasn't", "go": "goes"}  # fmt: skip


def _sentences(text: str) -> list[tuple[str, int, int]]:
    out: list[tuple[str, int, int]] = []
    pending: tuple[str, int, int] | None = None
    for m in _SENTENCE_RE.finditer(text):
        raw = m.group(0)
        sentence = raw.strip()
        if not sentence:
            continue
        start = m.start() + (len(raw) - len(raw.lstrip()))
        end = start + len(sentence)
        if pending is not None:
            sentence = text[pending[1] : end]
            start = pending[1]
            pending = None
        if _ABBREV_END.search(sentence):
            pending = (sentence, start, end)
            continue
        out.append((sentence, start, end))
    if pending is not None:
        out.append(pending)
    return out


_SHARES_RE = re.compile(r"\s*\[shares? ([^\]]*)\]\s*$")
_CLAUSE_SPLIT_RE = re.compile(r",? and (?=I (?:have|live|work|am|moved|'m)\b)|，(?=我(?:有|住|在|是|叫|对|养|搬))")


def _clauses(sentence: str, start: int) -> list[tuple[str, int, int]]:
    """Split "I live in X and I have a dog" in two facts, each filling its own slot."""
    out: list[tuple[str, int, int]] = []
    cursor = 0
    for m in _CLAUSE_SPLIT_RE.finditer(sentence):
        part = sentence[cursor : m.start()]
        if len(keywords(part)) >= 1 and (slot_of(part) or pet_slot(part)):
            out.append((part.strip(), start + cursor, start + m.start()))
            cursor = m.end()
    rest = sentence[cursor:]
    out.append((rest.strip(), start + cursor, start + len(sentence)))
    return out


def _conjugate(verb: str) -> str:
    low = verb.lower()
    if low in _PRONOUN_MAP:
        return _PRONOUN_MAP[low]
    if (
        not low.isalpha()
        or low in _NO_CONJUGATE
        or low in _IRREGULAR_PAST
        or low.endswith("ed")
        and low not in _PRESENT_IN_ED
        or low.endswith("s")
        and not low.endswith("ss")
        or len(low) < 2
    ):
        return verb
    if low.endswith(("ss", "sh", "ch", "x", "o", "z")):
        return verb + "es"
    if low.endswith("y") and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


_I_RE = re.compile(r"\b(I)(?:'m|’m| am\b)|\b(I)(?:'ve|’ve)|\b(I)(?:'d|’d)|\b(I)(?:'ll|’ll)|\bI\b(?: (\w+(?:'t)?))?")


def third_person_en(sentence: str, name: str) -> str:
    """Rewrite first person about `name`: I -> name, my -> name's, me -> name, with verb agreement."""

    def repl_i(m: re.Match[str]) -> str:
        whole = m.group(0)
        if m.group(1):
            return f"{name} is"
        if m.group(2):
            return f"{name} has"
        if m.group(3):
            return (
                f"{name} had"
                if re.search(r"\b(been|gone|done|had|seen)\b", sentence[m.end() : m.end() + 30])
                else (f"{name} would")
            )
        if m.group(4):
            return f"{name} will"
        verb = m.group(5)
        if verb is None:
            return name
        if verb.lower() in _ADVERBS or verb.lower().endswith("ly"):
            following = re.match(r" (\w+(?:'t)?)", sentence[m.end() :])
            if following:  # "I really love" -> "Priya really loves": conjugate the next word later
                return f"{name} {verb}\x00"
            return f"{name} {verb}"
        return f"{name} {_conjugate(verb)}" if whole[1:].strip() else name

    out = _I_RE.sub(repl_i, sentence)
    out = re.sub(r"\x00 (\w+(?:'t)?)", lambda m: " " + _conjugate(m.group(1)), out)
    out = out.replace("\x00", "")
    out = re.sub(r"\b[Mm]y\b", f"{name}'s", out)
    out = re.sub(r"\b[Mm]ine\b", f"{name}'s", out)
    out = re.sub(r"\b[Mm]yself\b", name, out)
    out = re.sub(r"(?<=\w )me\b", name, out)
    if not out.startswith(name) and name not in out[: len(name) + 40]:
        out = f"{name} said: {out}" if not out.endswith("?") else f"{name} asked: {out}"
    return out


def third_person_zh(sentence: str, name: str) -> str:
    out = sentence.replace("我们", f"{name}和家人" if name == "用户" else f"{name}他们")
    out = out.replace("我的", f"{name}的").replace("我", name)
    if name not in out:
        out = f"{name}说：{out}" if not out.endswith(("?", "？")) else f"{name}问：{out}"
    return out


_CAPS_RE = re.compile(r"(?<![\w'])([A-Z][a-zA-Z'’-]+(?:\s+[A-Z][a-zA-Z'’-]+){0,3})")
_AMOUNT_RE = re.compile(
    r"(?:[$¥€£]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|million|thousand))?)|(?:\d[\d,]*(?:\.\d+)?\s?(?:dollars|usd|rmb|yuan|euros?|"
    r"pounds|元|块钱|块|万元|万|%|percent))",
    re.IGNORECASE,
)
_PLACE_PREP = re.compile(r"\b(in|to|from|at|near|visited|visit)\s+$", re.I)
_ORG_HINT = re.compile(r"\b(Inc|Corp|Company|University|College|School|Hospital|Bank|Group|Club|Center|Centre)\b")
_NOT_NAMES = frozenset(
    [
        "I",
        "I'm",
        "I've",
        "I'd",
        "I'll",
        "The",
        "A",
        "An",
        "It",
        "It's",
        "That",
        "This",
        "These",
        "Those",
        "There",
        "They",
        "We",
        "You",
        "He",
        "She",
        "My",
        "Your",
        "Our",
        "Their",
        "His",
        "Her",
        "What",
        "When",
        "Where",
        "Why",
        "How",
        "Who",
        "Which",
        "Hey",
        "Hi",
        "Hello",
        "Thanks",
        "Thank",
        "Oh",
        "Wow",
        "Yeah",
        "Yes",
        "No",
        "Ok",
        "Okay",
        "So",
        "And",
        "But",
        "Or",
        "If",
        "Just",
        "Also",
        "Really",
        "Well",
        "Sure",
        "Great",
        "Cool",
        "Nice",
        "Awesome",
        "Haha",
        "Lol",
        "Love",
        "Glad",
        "Sounds",
        "Good",
        "Bye",
        "Let",
        "Let's",
        "Do",
        "Did",
        "Is",
        "Are",
        "Was",
        "Were",
        "Have",
        "Has",
        "Had",
        "Can",
        "Could",
        "Would",
        "Should",
        "Will",
        "Not",
        "Don't",
        "Didn't",
        "Can't",
        "Same",
        "Me",
        "Maybe",
        "Definitely",
        "Totally",
        "Absolutely",
        "Of",
        "Course",
        "Congrats",
        "Congratulations",
        "Sorry",
        "Please",
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ]
)
_MONTH_WORDS = frozenset(
    [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ]
)


def entities_of(sentence: str, fact_text: str, speaker: str) -> list[dict[str, str]]:
    """People, pets, places, organisations, products, order numbers, dates and amounts, as {text, kind}."""
    found: dict[str, dict[str, str]] = {}

    def add(text: str, kind: str) -> None:
        text = text.strip(" ,.'’")
        if text and text.lower() not in {k.lower() for k in found}:
            found[text] = {"text": text, "kind": kind}

    if speaker and speaker not in {"User", "用户", "Assistant"}:
        add(speaker, "person")
    for ent in relationship_entities(sentence):
        add(ent["text"], ent["kind"])
    for number in order_numbers(sentence):
        add(number, "order")
    for date in absolute_dates(fact_text):
        add(date, "date")
    for amount in _AMOUNT_RE.findall(sentence):
        add(amount, "amount")
    if has_cjk(sentence):
        _zh_entities(sentence, add)
    for m in _CAPS_RE.finditer(sentence):
        words = [w for w in m.group(1).split() if w not in _NOT_NAMES and w.strip("'’") not in _NOT_NAMES]
        if not words or all(w in _MONTH_WORDS for w in words):
            continue
        phrase = " ".join(words)
        if m.start() == 0 and len(words) == 1 and phrase.lower() in _COMMON_START:
            continue
        before = sentence[: m.start()]
        if _ORG_HINT.search(phrase):
            kind = "org"
        elif _PLACE_PREP.search(before):
            kind = "place" if re.search(r"\b(in|to|from|near|visited|visit)\s+$", before, re.I) else "org"
        elif re.search(r"\b(bought|ordered|got|purchased|using|use|play|playing|read|reading|watched|watching)\s+"
                       r"(?:a |an |the |my |new )*$", before, re.I):  # fmt: skip
            kind = "product"
        elif phrase.isupper() and len(phrase) > 1:
            kind = "org"
        else:
            kind = "person"
        add(phrase, kind)
    return list(found.values())


_COMMON_START = frozenset({"after", "before", "during", "since", "today", "yesterday", "tomorrow", "last", "next"})


_NOT_ZH_NAME = re.compile(r"[周月天年号日过敏说想要去了]")


def _zh_entities(sentence: str, add) -> None:  # type: ignore[no-untyped-def]
    import jieba.posseg as pseg

    from facts.text import _jieba

    _jieba()
    kinds = {"nr": "person", "nrfg": "person", "nrt": "person", "ns": "place", "nt": "org", "nz": "product"}
    for word, flag in pseg.lcut(sentence):
        kind = kinds.get(flag)
        if kind and len(word) >= 2 and word not in {"用户"} and not (kind == "person" and _NOT_ZH_NAME.search(word)):
            add(word, kind)


_TEMPORARY_RE = re.compile(
    r"\b(right now|at the moment|currently|this week|these days|for now|temporarily|today|tonight)\b"
    r"|现在|目前|这几天|这周|暂时|今天|今晚|最近",
    re.IGNORECASE,
)
_TEMP_STATE_RE = re.compile(
    r"\b(sick|ill|busy|tired|travel\w*|on vacation|on holiday|away|visiting|staying|waiting|stuck|in a meeting)\b"
    r"|生病|感冒|出差|旅行|度假|在外地|很忙|发烧",
    re.IGNORECASE,
)

_IMPORTANCE = {"health": 0.8, "legal": 0.8, "complaint": 0.75, "commitment": 0.7, "decision": 0.65, "profile": 0.65,
               "relationship": 0.6, "preference": 0.6, "event": 0.5, "inquiry": 0.3, "other": 0.4}  # fmt: skip


def find_command(content: str) -> Command | None:
    m = _FORGET_RE.match(content)
    if m:
        target = next((g for g in m.groups() if g), "") or ""
        return Command("forget", target.strip())
    m = _REMEMBER_RE.match(content)
    if m:
        target = next((g for g in m.groups() if g), "") or ""
        return Command("remember", target.strip())
    return None


class RuleExtractor:
    name = "rules"
    version = VERSION

    def extract(self, messages: list[MessageView]) -> dict[int, ExtractionOutput]:
        return {m.id: self.extract_one(m) for m in messages}

    def extract_one(self, message: MessageView) -> ExtractionOutput:
        if message.role == "system":
            return ExtractionOutput(gate=GateDecision(False, "system message"), candidates=[])
        if message.role == "assistant" and not message.name:
            return ExtractionOutput(gate=GateDecision(False, "assistant turn"), candidates=[])
        command = find_command(message.content)
        if command is not None:
            return self._command_output(message, command)
        gate = value_gate(message.content)
        if not gate.keep:
            return ExtractionOutput(gate=gate, candidates=[])
        candidates = self.candidates(message, message.content, offset=0)
        if not candidates:
            return ExtractionOutput(gate=GateDecision(False, "no informative sentence"), candidates=[])
        return ExtractionOutput(gate=gate, candidates=candidates)

    def _command_output(self, message: MessageView, command: Command) -> ExtractionOutput:
        gate = GateDecision(True, f"explicit command: {command.kind}")
        if command.kind == "forget" or not command.target or len(keywords(command.target)) == 0:
            return ExtractionOutput(gate=gate, candidates=[], commands=[command])
        offset = message.content.find(command.target)
        candidates = self.candidates(message, command.target, offset=max(offset, 0))
        for candidate in candidates:
            candidate.pinned = True
            candidate.importance = 1.0
            candidate.confidence = max(candidate.confidence, 0.95)
        # A "remember X" with its own content pins X; nothing from the previous message.
        return ExtractionOutput(gate=gate, candidates=candidates, commands=[] if candidates else [command])

    def candidates(self, message: MessageView, content: str, *, offset: int) -> list[Candidate]:
        lang_of_message = detect_language(content)
        default_speaker = "用户" if lang_of_message == "zh" and message.role == "user" else "User"
        speaker = message.name or default_speaker
        out: list[Candidate] = []
        # "Priya: I went ..." (a client that prefixes the speaker): the prefix is not part of the fact.
        prefix = re.match(rf"\s*{re.escape(speaker)}\s*[:：]\s*", content) if message.name else None
        if prefix:
            offset += prefix.end()
            content = content[prefix.end() :]
        # "[shares a photo of a red car]": what the speaker showed is a fact of its own.
        shared: list[Candidate] = []
        shares = _SHARES_RE.search(content)
        if shares:
            caption = shares.group(1).strip()
            content = content[: shares.start()]
            if caption:
                shared.append(self._shared(message, caption, offset + shares.start(), offset + shares.end(), speaker))
        for sentence, start, _end in _sentences(content):
            for clause, c_start, c_end in _clauses(sentence, start):
                if not sentence_worth_keeping(clause):
                    continue
                out.append(self._candidate(message, clause, c_start + offset, c_end + offset, speaker))
        return out + shared

    def _shared(self, message: MessageView, caption: str, start: int, end: int, speaker: str) -> Candidate:
        candidate = self._candidate(message, caption, start, end, speaker)
        candidate.text = f"{speaker} shared {caption.rstrip('.')}."
        candidate.keywords = keywords(candidate.text)
        candidate.type = "event"
        return candidate

    def _candidate(self, message: MessageView, sentence: str, start: int, end: int, speaker: str) -> Candidate:
        ref = message.created_at
        lang = detect_language(sentence)
        is_question = sentence.rstrip().endswith(("?", "？")) or (
            lang == "zh" and sentence.rstrip("。！ ").endswith("吗")
        )
        resolved, times = resolve_text(sentence.rstrip(), ref)
        if lang == "zh" or has_cjk(sentence) and not re.search(r"\bI\b", sentence):
            text = third_person_zh(resolved, speaker)
        else:
            text = third_person_en(resolved, speaker)
        if not text.endswith((".", "!", "?", "。", "！", "？")):
            text += "。" if has_cjk(text[-1:]) else "."
        slot = slot_of(sentence) or pet_slot(sentence)
        type_ = type_of(sentence, slot, is_question)
        entities = entities_of(sentence, text, speaker if message.name else "")
        known = {e["text"].lower() for e in entities}
        if slot is not None and slot.entity_kind and slot.object_value and slot.object_value.lower() not in known:
            entities.append({"text": slot.object_value, "kind": slot.entity_kind})
        event_time = times[0].when if times else None
        expires_at = self._expiry(sentence, ref, times)
        confidence = 0.5 if is_question else (0.85 if slot is not None else 0.7)
        return Candidate(
            message_id=message.id,
            text=text,
            type=type_,
            subject_entity=speaker if slot is not None else "",
            predicate=slot.predicate if slot is not None else "",
            object_value=slot.object_value if slot is not None else "",
            entities=entities,
            keywords=keywords(text),
            confidence=confidence,
            importance=_IMPORTANCE.get(type_, 0.5),
            valid_from=ref,
            event_time=event_time,
            expires_at=expires_at,
            span_start=start,
            span_end=end,
            language=lang,
            extractor="rules",
        )

    @staticmethod
    def _expiry(sentence: str, ref: dt.datetime, times: list) -> dt.datetime | None:  # type: ignore[type-arg]
        for t in times:
            if t.temporary_until is not None and _TEMP_STATE_RE.search(sentence):
                return t.temporary_until
        if _TEMPORARY_RE.search(sentence) and _TEMP_STATE_RE.search(sentence):
            return ref + dt.timedelta(days=7)
        return None
