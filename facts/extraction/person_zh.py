"""The Chinese speaker said in the third person: 我 -> the speaker's name (用户 for an unnamed user), 我们 -> the
speaker's people, a group of theirs or the two of them."""

from __future__ import annotations

import re

from facts.extraction.lexicon import ZH_KIN_LEAD, ZH_KIN_OPENS_RE
from facts.extraction.person import UNNAMED

_MARK = "\x01"


_ZH_KIN = "老婆|老公|妻子|丈夫|爱人|对象|媳妇|婆婆|公公|岳父|岳母|丈母娘|老丈人|老妈|老爸|男朋友|女朋友|儿子|女儿|闺女|孩子|宝宝|妈妈|爸爸|父母|哥哥|姐姐|弟弟|妹妹|爷爷|奶奶|外婆|外公|家|妈|爸|哥|姐|弟|妹"


# 我们 before a group or a place of the speaker's (their company, class, team, estate), or "the two of us".
_OUR_GROUP_RE = re.compile(
    r"们(?:(俩|两个(?!月|年|星期|礼拜|小时))|(?=公司|单位|班|学校|团队|部门|小区|组(?!织)|宿舍|专业|医院|店|村|楼|老板|领导|老师|经理|科室|学院|系(?!统)))"
)
_ASKED_TO_ZH_RE = re.compile(r"^(?:请|麻烦|帮我)?(取消|停掉|退掉|暂停|冻结)(?:我的|我们的)")
# A one-character kinship word said as a word of its own (我妈, 我姐): not the head of 姐夫, 哥们, 爸妈, 弟媳 ...
_SHORT_KIN_RE = re.compile(r"^([妈爸哥姐弟妹])(?![妈爸哥姐弟妹夫媳们嫂儿子家俩])")
# "我姐和我": the speaker first, as said of them ("用户和姐姐", not "用户姐和自己").
_KIN_AND_ME_RE = re.compile(rf"我({_ZH_KIN})([和跟与])我(?!们)")


def third_person_zh(sentence: str, name: str) -> str:
    """我 -> the speaker's name at its first mention (用户 for an unnamed user: "我对花生过敏" -> "用户对花生过敏"),
    later 我的 -> 自己的; a sentence without 我 is returned as it is."""
    sentence = _kin_owned(sentence)
    if "我" not in sentence:
        return sentence
    sentence = _ASKED_TO_ZH_RE.sub(r"我要求\1", sentence)  # "取消我的会员": the speaker asks it
    unnamed = name in UNNAMED
    who = "用户" if unnamed else name
    sentence = _KIN_AND_ME_RE.sub(r"我\2我\1", sentence)
    out = sentence.replace("我们", f"{_MARK}们")
    out = out.replace("我的", f"{_MARK}的").replace("我", _MARK)
    first = out.index(_MARK)
    head, tail = out[:first], out[first + 1 :]
    group = _OUR_GROUP_RE.match(tail)
    if tail.startswith("们家"):  # 我们家 is the speaker's household: 用户家, not 用户和家人家
        tail = who + tail[1:]
    elif group and group.group(1):  # 我们俩: the two of them ("用户和对方下个月结婚")
        tail = who + "和对方" + tail[group.end() :]
    elif group:  # 我们公司, 我们班, 我们小区: a group or place of the speaker's
        tail = who + "的" + tail[1:]
    elif tail.startswith("们"):
        tail = ("用户和家人" if unnamed else f"{name}他们") + tail[1:]
    elif re.match(_ZH_KIN, tail) and not tail.startswith("家"):  # 我姐 -> 用户的姐姐, 我老公 -> 用户的老公
        tail = who + "的" + _SHORT_KIN_RE.sub(r"\1\1", tail)
    else:
        tail = who + tail
    tail = tail.replace(f"{_MARK}们", "他们").replace(f"{_MARK}的", "自己的")
    # A later 我姐 is 姐姐 ("用户和姐姐"): the relative is the speaker's without saying so again.
    tail = re.sub(_MARK + _SHORT_KIN_RE.pattern[1:], r"\1\1", tail)
    tail = re.sub(_MARK + r"(?=" + _ZH_KIN + ")", "", tail)
    # The speaker is named once: a later 我 opening a clause is dropped, as Chinese drops a known subject ("，每天…"),
    # unless "和/跟" follows; elsewhere it is 自己 ("公司把自己调过去", "他们欠自己两个月工资").
    tail = re.sub(rf"(?<=[，,；;])\s*{_MARK}(?![和跟与])", "", tail)
    return head + tail.replace(_MARK, "自己")


_KIN_LEAD_RE = re.compile(ZH_KIN_LEAD)


def _kin_owned(sentence: str) -> str:
    """The speaker's 我 said before a spouse or a parent that opens a clause with 我 dropped ("老公换工作了" ->
    "我老公换工作了", so "用户的老公换工作了"); the sentence as it is when 我 comes first or no such clause opens it."""
    opens = ZH_KIN_OPENS_RE.search(sentence)
    if not opens or "我" in sentence[: opens.start()]:
        return sentence
    lead = _KIN_LEAD_RE.match(sentence, opens.start())
    at = lead.end() if lead else opens.start()
    return sentence[:at] + "我" + sentence[at:]
