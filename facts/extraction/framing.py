"""How a kept sentence with no first person is said of the speaker, without quoting them ("X said: ..." never).

An inquiry keeps its subject ("do you ship to Canada?" -> "Asked whether they ship to Canada."), a complaint asked
as a question its grievance ("为什么你们的快递这么慢？" -> "抱怨你们的快递这么慢"); a statement is said of the speaker or
dropped when it is not about them.
"""

from __future__ import annotations

import re

from facts.extraction.elision import not_about_speaker, with_elided_subject, without_marker
from facts.extraction.person import listener_third
from facts.text import has_cjk

_ASK_EN = re.compile(
    r"^(?:(?:and|so|also|quick question[^:]*:)\s*)?(do|does|can|could|will|would|is|are|did)\s+(.*?)[?\s]*$", re.I
)


def frame(sentence: str, speaker: str, *, type_: str, question: bool) -> str:
    """A kept sentence without first person, said of the speaker without quoting them ("X said: ..." never).

    An inquiry keeps its subject ("do you ship to Canada?" -> "Asked whether they ship to Canada."); anything
    else not about the speaker is dropped ("")."""
    named = speaker not in {"User", "用户", ""}
    body = sentence.strip().rstrip("?？.。!！ ")
    if has_cjk(body):
        if question:
            body = _ZH_ASKING_RE.sub("", body) or body
            if type_ == "complaint":  # "为什么你们的快递这么慢？" -> "抱怨你们的快递这么慢"
                body = _ZH_WHY_RE.sub("", body) or body
                return (f"{speaker}抱怨" if named else "抱怨") + body
            return (f"{speaker}咨询" if named else "咨询") + body if type_ == "inquiry" else ""
        if _ZH_REACTION_RE.match(body):  # "哇太厉害了，…": a reaction to the listener, nothing of the speaker's
            return ""
        return f"{speaker}提到{body}" if named else body
    if question:
        if type_ not in {"inquiry", "complaint"}:
            return ""
        m = _ASK_EN.match(body)
        wh = not m and re.match(r"(?:which|what|when|where|who|whose|how|why)\b", body, re.I)  # "asked which ..."
        what = listener_third(m.group(2) if m else body[:1].lower() + body[1:] if wh else body, m.group(1) if m else "")
        verb = "Asked whether" if m else "Asked" if wh else "Asked about"
        if type_ == "complaint":  # "Why is your courier so slow?" -> "complained, asking why is their courier so slow"
            verb = "Complained, asking whether" if m else "Complained, asking" if wh else "Complained about"
        return f"{speaker} {verb[0].lower() + verb[1:]} {what}" if named else f"{verb} {what}"
    if not_about_speaker(body, complaint=type_ == "complaint"):  # "Your courier left it in the rain" is one
        return ""
    body = without_marker(body)
    elided = with_elided_subject(body, speaker)
    if elided is not None:
        return elided
    if not named:
        return body[:1].upper() + body[1:]
    if _COMMON_FIRST.match(body):
        body = body[:1].lower() + body[1:]
    return f"{speaker} mentioned that {body}"


# "你好，想问下你们的自提点几点关门？" -> "咨询你们的自提点几点关门": the greeting and the asking words go.
_ZH_ASKING_RE = re.compile(
    r"^(?:(?:你好|您好|在吗|哈喽)[，,！!\s]*)?(?:(?:我)?想(?:咨询|问)(?:一)?下|请问(?:一下)?|问(?:一)?下)?[，,\s]*"
)
_ZH_WHY_RE = re.compile(r"^(?:为什么|为啥|怎么)")
_ZH_REACTION_RE = re.compile(r"(?:哇+|啊+[？?]?|哈哈+|天哪|天啊|哎呀|哎哟|我的天|呀)[，,！!？?\s]*")
_COMMON_FIRST = re.compile(
    r"^(the|a|an|it|its|it's|this|that|these|those|there|our|we|they|their|some|one|no|all|she|he|she's|he's|his|her|"
    r"much|many|most|more|lots|plenty|every|everything|everyone|something|someone|nothing|anything|each|both|"
    r"what|when|where|how|why|which|if|since|because|after|before|while|during|with|for|in|on|at|to|from|as|"
    r"[a-z]+ly)\b",
    re.I,
)
