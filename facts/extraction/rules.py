"""The default, deterministic rule extractor for Chinese and English.

One candidate per informative sentence, rewritten in the third person about the speaker ("I fixed the
bike's brakes yesterday" from Priya on 8 May 2023 -> "Priya fixed the bike's brakes on 7 May 2023"),
so that every informative turn keeps its names, objects, places and dates. No model, microseconds per turn.
"""

from __future__ import annotations

import datetime as dt
import re

from facts.extraction import classifier
from facts.extraction.answer import answer_sentence, asked_thing, is_code, names_the_user, said_as_is, slot_asked
from facts.extraction.antecedent import own_relative, with_antecedents
from facts.extraction.base import Candidate, Command, ExtractionOutput, GateDecision, MessageView
from facts.extraction.commands import find_command
from facts.extraction.confirm import (
    accepted_fact,
    confirmed_fact,
    confirmed_type,
    is_confirmation,
    offer_made,
    proposed,
    readback,
    taken_offer,
)
from facts.extraction.correction import as_correction, corrected_readback, corrected_type
from facts.extraction.elision import (
    empty_liking,
    empty_plan,
    listener_reaction,
    only_talk,
    points_at_picture,
    with_elided_subject,
    without_marker,
)
from facts.extraction.entities import entities_of
from facts.extraction.framing import asked_by_speaker, frame, trip_planned
from facts.extraction.gate import (
    Verdict,
    asks_leave,
    has_first_person,
    is_question,
    rule_verdict,
    statement_beside_question,
    strip_chatter,
)
from facts.extraction.open_answer import open_answer, short_form_unfit
from facts.extraction.person import business_named, third_person_en
from facts.extraction.person_zh import third_person_zh
from facts.extraction.pieces import without_opening_reaction
from facts.extraction.referent import with_referents
from facts.extraction.sentences import sentences as _sentences
from facts.extraction.slots import Slot, pet_slot, slot_of
from facts.extraction.timeexpr import resolve_text
from facts.extraction.typer import slot_family, type_of
from facts.text import detect_language, has_cjk, keywords

VERSION = "rules-2.0"
# A sentence a rule keeps needs this keep probability from the classifier; an undecided one needs the second.
KEEP_CONFIRM = 0.2
MAX_CLAUSES = 64  # clauses of one turn the gate reads (a turn keeps at most two facts)
MAX_READ_CHARS = 4000  # characters of one turn the rules read for facts (a chat turn is far shorter)
KEEP_UNDECIDED = 0.65
KEEP_PERSONAL = 0.5  # a first person without a hint
KEEP_HINTED = 0.35  # a first person with a hint of a commitment, decision, preference or dated event
STORY_FACTOR = 0.5  # a sentence kept for the turn's story ranks below the turn's own facts
# At most this many facts from one turn (the most likely to be worth keeping).
MAX_PER_TURN = 2

_REMIND_ME_RE = re.compile(
    r"^(?:(?:please|pls|can you|could you|and)\s+)*remind me to |^(?:请|记得|能|能不能|可以)?提醒我(?:一下)?", re.I
)


# From the start of a whitespace run only, and a caption of at most 500 characters (from every "[shares " of a
# long text, each try read to the end: quadratic).
_SHARES_RE = re.compile(r"(?<!\s)\s*\[shares? ([^\]]{0,500})\]\s*$")
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


_EMOJI_RE = re.compile(" ?[\U0001f000-\U0001faff\u2600-\u27bf\ufe0f\u200d]{1,16}")


class RuleExtractor:
    name = "rules"
    version = VERSION

    def extract(self, messages: list[MessageView]) -> dict[int, ExtractionOutput]:
        texts = [self._speaker(m, m.content, 0)[1] for m in messages if m.role == "user"]
        classifier.prime([c for text in texts for c in _open_clauses(text)])
        return {m.id: self.extract_one(m) for m in messages}

    def extract_one(self, message: MessageView) -> ExtractionOutput:
        if message.role == "system":
            return ExtractionOutput(gate=GateDecision(False, "system message"), candidates=[])
        if message.role == "assistant" and not message.name:
            return ExtractionOutput(gate=GateDecision(False, "assistant"), candidates=[])
        command = find_command(message.content)
        if command is not None:
            return self._command_output(message, command)
        confirmed = self._confirmation(message)
        if confirmed is not None:
            return ExtractionOutput(
                gate=GateDecision(True, f"keep: {confirmed.type} (confirms)"), candidates=[confirmed]
            )
        candidates, reasons = self.gated_candidates(message, message.content, offset=0)
        # A reply the gate keeps only as said ("07700 900123.", "sure, jo@x.com") is better said with what it answers.
        bare = len(candidates) == 1 and said_as_is(candidates[0].text, message.content)
        answer = self._answer(message) if not candidates or bare else None
        if answer is None and len(candidates) <= 1:  # a fragment after an open question (open_answer.py)
            answer = self._open_answer(message)
        if answer is not None:
            return ExtractionOutput(gate=GateDecision(True, f"keep: {answer.type} (answers)"), candidates=[answer])
        if not candidates:
            return ExtractionOutput(gate=GateDecision(False, _drop_reason(reasons)), candidates=[])
        kept = sorted(dict.fromkeys(c.type for c in candidates))
        dropped = sorted(dict.fromkeys(r for r in reasons if r))
        reason = "keep: " + ", ".join(kept) + (f" (dropped: {', '.join(dropped)})" if dropped else "")
        return ExtractionOutput(gate=GateDecision(True, reason), candidates=candidates)

    def _confirmation(self, message: MessageView) -> Candidate | None:
        """The assistant's read-back the user's bare "Yes." / "对" confirms, as a fact of the user's turn."""
        if message.role != "user" or not message.previous_assistant_content:
            return None
        speaker, content, offset = self._speaker(message, message.content, 0)
        confirms = is_confirmation(content)  # ... or corrects: "Leeds not Manchester" (correction.py)
        fixed = "" if confirms else corrected_readback(content, message.previous_assistant_content)
        if not (confirms or fixed):
            return None
        question = fixed or readback(message.previous_assistant_content)
        # "Shall I confirm?" after "There's a 15:10 on the 24th.": the yes accepts the sentence before.
        detail = "" if question else proposed(message.previous_assistant_content)
        if not (question or detail):
            return None
        said = question or detail
        candidate = self._candidate(message, said, offset, offset + len(content), speaker, None, None, framed=False)
        if candidate is None:
            return None
        said_back = confirmed_fact(question, speaker) if question else accepted_fact(detail, speaker)
        said_back = as_correction(said_back) if fixed else said_back
        candidate.text = resolve_text(said_back, message.created_at)[0]  # "下周三" read back: the date it names
        found = confirmed_type(question) if question else "decision"
        if fixed:  # a correction states a fact: typed as the user would say it, else as the read-back reads
            found = corrected_type(question) or (
                candidate.type if candidate.type not in {"inquiry", "decision"} else "profile"
            )
        candidate.type = found
        candidate.keywords = keywords(candidate.text)
        candidate.confidence = 0.8
        return candidate

    def _answer(self, message: MessageView) -> Candidate | None:
        """The user's short reply to the assistant's question for a thing of theirs, said with what was asked."""
        if message.role != "user" or not message.previous_assistant_content:
            return None
        speaker, content, offset = self._speaker(message, message.content, 0)
        thing = asked_thing(message.previous_assistant_content)
        if short_form_unfit(thing, message.previous_assistant_content):
            return None  # "你对什么过敏？": said with its question (_open_answer); "你在干嘛呢？": nothing
        said = answer_sentence(content, thing)
        if not said:
            return None
        asked = slot_asked(thing, content)
        slot = slot_of(said) or pet_slot(said) or slot_of(content) or asked
        score = classifier.score([said])
        predicted = (score[0].type, score[0].type_confidence) if score else None
        candidate = self._candidate(
            message, said, offset, offset + len(content), speaker, slot, predicted, framed=False
        )
        if candidate is not None:
            candidate.span_start, candidate.span_end = offset, offset + len(content)
            no_when = candidate.type == "event" and candidate.event_time is None  # a thing of theirs, told with no when
            if names_the_user(thing) or asked is not None:
                candidate.type = "profile"
            elif is_code(content):  # an id or a number alone ("6620", "HV-204417")
                candidate.type = "other"
            elif no_when:
                candidate.type = "profile"
        return candidate

    def _open_answer(self, message: MessageView) -> Candidate | None:
        """The user's short reply to the assistant's open question about them, said after that question, when the gate
        keeps the two together (open_answer.py)."""
        if message.role != "user" or not message.previous_assistant_content:
            return None
        speaker, content, offset = self._speaker(message, message.content, 0)
        said = open_answer(content, message.previous_assistant_content)
        if not said:
            return None
        slot = slot_of(said) or pet_slot(said) or slot_of(content)
        scores = classifier.score([said])
        score = scores[0] if scores else None
        # Answering the user's own question is the rule's reason to keep it; the classifier may still call it chatter.
        if not _decide(Verdict(True, "answers"), score, said)[0]:
            return None
        predicted = (score.type, score.type_confidence) if score is not None else None
        candidate = self._candidate(
            message, said, offset, offset + len(content), speaker, slot, predicted, framed=False
        )
        if candidate is not None:
            candidate.span_start, candidate.span_end = offset, offset + len(content)
            candidate.confidence = round(score.keep, 3) if score is not None else candidate.confidence
        return candidate

    def _command_output(self, message: MessageView, command: Command) -> ExtractionOutput:
        gate = GateDecision(True, f"explicit command: {command.kind}")
        if command.kind == "forget" or not command.target or len(keywords(command.target)) == 0:
            return ExtractionOutput(gate=gate, candidates=[], commands=[command])
        offset = message.content.find(command.target)
        candidates = self.gated_candidates(message, command.target, offset=max(offset, 0), asked=True)[0]
        for candidate in candidates:
            candidate.pinned = True
            candidate.importance = 1.0
            candidate.confidence = max(candidate.confidence, 0.95)
        # A "remember X" with its own content pins X; nothing from the previous message.
        return ExtractionOutput(gate=gate, candidates=candidates, commands=[] if candidates else [command])

    def gated_candidates(
        self, message: MessageView, content: str, *, offset: int, asked: bool = False
    ) -> tuple[list[Candidate], list[str]]:
        """The candidates of the sentences the gate keeps, and the reason codes of those it drops (`asked`: the
        speaker asked to remember them, a credential too)."""
        speaker, content, offset = self._speaker(message, content, offset)
        content = content[:MAX_READ_CHARS]  # a document pasted as a turn: its head is read, all of it stays searchable
        shares = _SHARES_RE.search(content)
        if shares:
            # A picture's caption says what the picture shows, not what the person is: it stays in the raw turn.
            content = content[: shares.start()]
        # At most MAX_CLAUSES clauses a turn: the rest of a very long turn stays in the raw message (searchable).
        clauses = [c for s, start, _e in _sentences(content) for c in _clauses(s, start)][:MAX_CLAUSES]
        # "I adopted a kitten. She's called Miso.": the pronoun said as the thing; its name, kind or age is kept.
        clauses, lasting = with_antecedents([(own_relative(c), s, e) for c, s, e in clauses])
        if message.role == "user":  # "He's having surgery next week" after "my brother's been unwell": the brother
            clauses = with_referents(clauses, message.previous_user_content, message.previous_other_content)
        slots = [slot_of(c) or pet_slot(c) for c, _s, _e in clauses]
        # A reply that takes the assistant's offer ("Go on then, switch me.", "那就分三期吧") is the user's decision.
        offer = message.previous_assistant_content if offer_made(message.previous_assistant_content) else ""
        taken = [taken_offer(c, offer, speaker) if offer else "" for c, _s, _e in clauses]
        # A trip the speaker asks to have planned is their plan ("帮我规划一下五一去西安的行程").
        trips = [trip_planned(c, speaker) for c, _s, _e in clauses]
        verdicts = [
            Verdict(True, "offer taken") if taken[i] else Verdict(True, "trip") if trips[i] else
            Verdict(True, "possession") if i in lasting else rule_verdict(c, has_slot=slot is not None)
            for i, ((c, _s, _e), slot) in enumerate(zip(clauses, slots, strict=True))
        ]  # fmt: skip
        verdicts = [Verdict(True, "asked", sure=True) if asked and v.reason == "secret" else v for v in verdicts]
        open_ = [i for i, v in enumerate(verdicts) if v.keep is not False]
        scores = classifier.score([clauses[i][0] for i in open_]) if open_ else []
        listed: list[classifier.Score | None] = list(scores) if scores else [None] * len(open_)
        by_index = dict(zip(open_, listed, strict=True))
        reasons: list[str] = [v.reason for v in verdicts if v.keep is False]
        kept: list[tuple[float, Candidate]] = []
        decided = {i: _decide(verdicts[i], by_index[i], clauses[i][0]) for i in open_}
        if any(keep for keep, _why in decided.values()):
            # The turn tells the speaker's story: a sentence about someone or something in it, by name or pronoun
            # ("Biscuit is a clown: he buried a sock under the sofa!"), is part of that story.
            for i in open_:
                if not decided[i][0] and _continues_story(verdicts[i], by_index[i], clauses[i][0]):
                    decided[i] = (True, "story")
        for i in open_:
            score = by_index[i]
            keep, why = decided[i]
            if not keep:
                reasons.append(why)
                continue
            clause, c_start, c_end = clauses[i]
            predicted = (score.type, score.type_confidence) if score is not None else None
            candidate = self._candidate(message, clause, c_start + offset, c_end + offset, speaker, slots[i], predicted,
                                        framed=not (taken[i] or trips[i]))  # fmt: skip
            if candidate is not None and taken[i]:
                candidate.type, candidate.text = "decision", candidate.text if taken[i] == clause.strip() else taken[i]
            if candidate is not None and trips[i]:
                candidate.type, candidate.text = "commitment", resolve_text(trips[i], message.created_at)[0]
            if candidate is None:
                reasons.append("not about the speaker")
                continue
            likely = score.keep if score is not None else 0.5
            if why == "story":  # worth keeping with the turn, less likely than what the speaker says of themself
                likely *= STORY_FACTOR
            if i in lasting and candidate.type not in {"profile", "relationship"}:
                candidate.type = "profile"  # the name, kind or age of a pet or thing the speaker has
            candidate.confidence = round(likely, 3) if score is not None else candidate.confidence
            kept.append((likely, candidate))
        best = sorted(kept, key=lambda pair: -pair[0])[:MAX_PER_TURN]
        if len(kept) > len(best):
            reasons.append("over the per-turn limit")
        chosen = {id(c) for _p, c in best}
        return [c for _p, c in kept if id(c) in chosen], reasons

    def candidates(self, message: MessageView, content: str, *, offset: int) -> list[Candidate]:
        return self.gated_candidates(message, content, offset=offset)[0]

    @staticmethod
    def _speaker(message: MessageView, content: str, offset: int) -> tuple[str, str, int]:
        """The speaker's name and the content without a "Priya: " prefix (a client that prefixes the speaker)."""
        lang_of_message = detect_language(content)
        default_speaker = "用户" if lang_of_message == "zh" and message.role == "user" else "User"
        speaker = message.name or default_speaker
        prefix = re.match(rf"\s*{re.escape(speaker)}\s*[:：]\s*", content) if message.name else None
        if prefix:
            offset += prefix.end()
            content = content[prefix.end() :]
        return speaker, content, offset

    def _candidate(
        self,
        message: MessageView,
        sentence: str,
        start: int,
        end: int,
        speaker: str,
        slot: Slot | None,
        predicted: tuple[str, float] | None,
        *,
        framed: bool = True,
    ) -> Candidate | None:
        """The fact of one kept sentence in natural third person; None when it cannot be said of the speaker."""
        question = is_question(sentence)
        # A pronoun alone talked of, liked or planned, or the listener's affairs: nothing (a question keeps its subject).
        if not question and _empty_statement(sentence):
            return None
        ref = message.created_at
        lang = detect_language(sentence)
        family = slot_family(slot, sentence)
        type_ = type_of(sentence, slot, family, predicted)
        resolved, times = resolve_text(strip_chatter(without_opening_reaction(sentence)).rstrip(), ref)
        reminder = _REMIND_ME_RE.search(resolved)
        if reminder:  # a reminder asked for is said as the plan ("remind me to buy X" -> "needs to buy X")
            said = "我要" if has_cjk(reminder.group(0)) else "I need to "
            resolved, question = re.sub(r"吗?[?？]*$", "", _REMIND_ME_RE.sub(said, resolved)), False
        zh = lang == "zh" or has_cjk(sentence) and not re.search(r"\bI\b", sentence)
        # A dropped subject is the speaker's ("Sold my old van" -> "Sam sold their old van", "Exhausted" -> "is").
        elided = None if zh or question else with_elided_subject(without_marker(resolved), speaker)
        text = elided if elided is not None else third_person(resolved, speaker, zh=zh)
        if framed and text == resolved:  # no first person in it: frame it, never quote it
            head = zh and question and type_ == "health" and statement_beside_question(resolved)  # "总睡不着，咋办"
            text = head or frame(resolved, speaker, type_=type_, question=question)
            if not text:
                return None
        elif framed and question:  # "Can I pay by card?": asked, not a question of the speaker's; or the fact stated
            ask_as = type_ if type_ in {"inquiry", "complaint"} else "inquiry" if asks_leave(resolved) else ""
            asked = asked_by_speaker(resolved, speaker, ask_as) if ask_as else ""
            head = "" if asked else statement_beside_question(resolved)
            type_ = ask_as if asked else type_  # "Can I change my delivery address to ...?": asked of the business
            text = asked or (third_person(head, speaker, zh=zh) if head else text)
        if type_ == "complaint":  # the business complained to is named as such, not "you"
            text = business_named(text)
        # A clause cut from a longer sentence ends as a sentence; an emoji, an exclamation or a closing please is tone.
        text = re.sub(r",?\s{1,3}(?:please|pls|thanks|thank you)\W{0,3}$", "", _EMOJI_RE.sub("", text), flags=re.I)
        text = text.rstrip(",;:，；：、!！ ")
        if not text.endswith((".", "?", "。", "？", "…")):
            zh_end = has_cjk(text) and (has_cjk(text[-1:]) or not re.search(r"[a-z]{2,} [a-z]{2,}", text, re.I))
            text += "。" if zh_end else "."
        entities = entities_of(sentence, text, speaker if message.name else "")
        known = {e["text"].lower() for e in entities}
        if slot is not None and slot.entity_kind and slot.object_value and slot.object_value.lower() not in known:
            entities.append({"text": slot.object_value, "kind": slot.entity_kind})
        event_time = times[0].when if times else None
        expires_at = self._expiry(sentence, ref, times)
        confidence = 0.5 if question else (0.85 if slot is not None else 0.7)
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


def third_person(sentence: str, speaker: str, *, zh: bool) -> str:
    return third_person_zh(sentence, speaker) if zh else third_person_en(sentence, speaker)


def _empty_statement(sentence: str) -> bool:
    """A statement whose content is elsewhere or is the listener's: talking later, liking or planning a pronoun,
    the speaker's attitude to the listener's affairs."""
    plain = strip_chatter(sentence)
    return (
        only_talk(plain)
        or empty_liking(plain)
        or empty_plan(plain)
        or listener_reaction(plain)
        or points_at_picture(plain)
    )


def _open_clauses(content: str) -> list[str]:
    """The clauses of a message the rules leave open (for scoring a batch at once)."""
    clauses = [c for s, start, _e in _sentences(content) for c, _s, _e2 in _clauses(s, start)][:MAX_CLAUSES]
    return [clause for clause in clauses if rule_verdict(clause).keep is not False]


# A filled slot of the speaker's, or a pet or a possession gained or given up ("Hey, I adopted a cat."): durable by
# its words, and what the classifier's turn-level vectors know least.
_NO_VETO = frozenset({"slot", "possession", "offer taken", "trip"})


def _decide(verdict: Verdict, score: classifier.Score | None, sentence: str) -> tuple[bool, str]:
    """Keep a sentence the rules keep unless the classifier is sure it is chatter; keep an undecided one only
    when the classifier is confident (without a classifier: only with a first person and a hint)."""
    if verdict.keep:
        # A filled slot of the speaker's ("I can't stand jazz", "我对花生过敏") is what the classifier's turn-level
        # vectors know least: no veto on it.
        # So is what a rule marks sure (a term of the business's trade, a grievance asked of it: gate.Verdict).
        if score is None or score.keep >= KEEP_CONFIRM or verdict.reason in _NO_VETO or verdict.sure:
            return True, verdict.reason
        return False, "low value"
    if score is None:
        keep = has_first_person(sentence) and verdict.reason not in {"personal", "content", "question"}
        return keep, verdict.reason if keep else "low value"
    needed = {"commitment": KEEP_HINTED, "decision": KEEP_HINTED, "preference": KEEP_HINTED, "event": KEEP_HINTED,
              "personal": KEEP_PERSONAL}.get(verdict.reason, KEEP_UNDECIDED)  # fmt: skip
    if score.keep >= needed:
        return True, verdict.reason
    return False, "low value"


# A clause whose subject is a third party's pronoun ("Biscuit is a clown: he buried a sock", "She's 4", "他...").
_THIRD_SUBJECT_RE = re.compile(r"(?:^|[:;,，：；]\s*)(?:(?i:he|she|they)(?:'s|'re)? \w|[他她它](?!们?[说觉认想]))")


def _continues_story(verdict: Verdict, score: classifier.Score | None, sentence: str) -> bool:
    """In a turn the gate keeps, an undecided statement with a third party as a subject, with content, goes with
    it (a capitalised first word is no sign of a name: "Seattle is great", "Learning German is tough")."""
    if verdict.reason != "content" or score is None or score.keep < KEEP_CONFIRM or is_question(sentence):
        return False
    body = strip_chatter(sentence)
    return bool(_THIRD_SUBJECT_RE.search(body)) and len(keywords(body)) >= 3


def _drop_reason(reasons: list[str]) -> str:
    """The message's reason code when nothing is kept: the first chatter reason, else the first reason."""
    for reason in reasons:
        if reason not in {"low value", "empty", "over the per-turn limit"}:
            return reason
    return reasons[0] if reasons else "empty"
