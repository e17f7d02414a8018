"""The category signal: a question asking for a kind of thing a person has ("What sports does Ana play?",
"她喜欢哪些运动？") finds that person's turns and facts of that kind, though each item sits in its own session in its
own words and shares no word with the question ("went sailing with my cousins", "signed up for a judo class").

A category is a small general class (hobby and sport, food, place and travel, book and film, pet, family, work,
event, feeling): a cue in the question (its class nouns, English and Chinese), a vector (the mean of MiniLM's
embeddings of a few general English sentences of the kind, computed once per process) and, for Chinese text,
which MiniLM does not read, a lexicon of the kind's general words. The person is the speaker the question names
(their turns, the facts about them), else the user's own turns. Candidates are ranked by similarity to the
category's vector plus a share of the similarity to the question's: of the person's turns about the kind, those
nearer the question first. Deterministic, no LLM; one statement per kind of row.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from facts.embedding import EmbedderUnavailable, embed_texts, get_embedder
from facts.retrieval.query import QueryAnalysis
from facts.retrieval.scope import FactFilter, Key, Ranking, fetch, keyed, merged, message_where, vector_literal
from facts.text import has_cjk


@dataclass(frozen=True)
class Cue:
    """The question words asking for a category: English plurals (a list question), singulars, Chinese nouns."""

    plural: re.Pattern[str]
    singular: re.Pattern[str]
    chinese: re.Pattern[str]

    def asks(self, text: str, *, singular: bool) -> bool:
        if self.plural.search(text):
            return True
        if self.chinese.search(text):
            return singular or _ZH_LIST.search(text) is not None
        return singular and self.singular.search(text) is not None


# A Chinese question asks for a list with these (Chinese nouns have no plural): "她喜欢哪些运动", "养过几种宠物".
_ZH_LIST = re.compile(r"哪些|哪几|几种|几样|几个|都有什么|有什么")


@dataclass(frozen=True)
class Category:
    name: str
    cue: Cue  # the question asks for things of this kind
    prototypes: tuple[str, ...]  # general English sentences of the kind (no item of any benchmark)
    words_zh: str  # general Chinese words of the kind, space-separated

    @property
    def lexicon(self) -> list[str]:
        return self.words_zh.split()


def _cue(plural: str, singular: str, chinese: str) -> Cue:
    return Cue(
        re.compile(rf"\b(?:{plural})\b", re.IGNORECASE), re.compile(rf"\b(?:{singular})\b", re.IGNORECASE),
        re.compile(chinese),
    )  # fmt: skip


CATEGORIES: tuple[Category, ...] = (
    Category(
        "activity",
        _cue(
            r"activities|hobbies|sports|pastimes|exercises|instruments|crafts|classes|do for fun|"
            r"in (?:his|her|their|my|your) free time",
            r"activity|hobby|sport|pastime|leisure|exercise|instrument|craft|class",
            r"运动|爱好|兴趣|活动|消遣|业余|乐器|锻炼",
        ),
        (
            "I spent my free time on my favourite hobby this weekend.",
            "We played a sport together and it was great exercise.",
            "I signed up for a class to learn a new skill for fun.",
            "We went outdoors for a day of adventure in nature.",
            "I have been practising my instrument and making art.",
        ),
        "运动 爱好 跑步 游泳 爬山 徒步 健身 瑜伽 打球 篮球 足球 网球 羽毛球 骑车 钓鱼 露营 画画 唱歌 跳舞 弹琴 吉他 钢琴 书法 摄影 滑雪 下棋",
    ),
    Category(
        "food",
        _cue(
            r"foods|dishes|meals|cuisines|recipes|desserts|snacks|drinks",
            r"food|dish|meal|cuisine|recipe|dessert|snack|drink|cook(?:ed|s)?|bak(?:ed|es)",
            r"食物|美食|菜|吃|饮料|甜点|零食|做饭",
        ),
        (
            "I cooked a delicious dish for dinner tonight.",
            "We tried a new recipe and baked a dessert.",
            "My favourite food is something sweet and spicy.",
            "We had a great meal at a restaurant.",
        ),
        "吃 菜 饭 面 汤 蛋糕 甜点 零食 饮料 咖啡 茶 做饭 烤 餐厅 火锅",
    ),
    Category(
        "place",
        _cue(
            r"places|cities|countries|trips|destinations|vacations|holidays|states",
            r"place|city|country|trip|travel(?:l?ed|s)?|destination|visited|vacation|holiday",
            r"地方|城市|国家|旅行|旅游|去过|度假|景点",
        ),
        (
            "We travelled abroad and visited a beautiful city.",
            "I went on a trip to another country last summer.",
            "We spent our vacation at the beach and in the mountains.",
            "The place we stayed had an amazing view.",
        ),
        "旅行 旅游 度假 城市 国家 出国 海边 山 景点 机场 酒店 飞",
    ),
    Category(
        "media",
        _cue(
            r"books|novels|authors|movies|films|shows|series|songs|bands|albums|games|podcasts|artists|paintings",
            r"book|novel|author|movie|film|show|song|music|band|album|game|podcast|artist|painting|read(?:ing|s)?",
            r"书|小说|电影|电视剧|音乐|歌|游戏|作者|乐队|节目",
        ),
        (
            "I just finished reading a great book by my favourite author.",
            "We watched a movie and a new series last night.",
            "I have been listening to this album and song a lot.",
            "I played a video game all evening.",
        ),
        "书 小说 读 电影 电视剧 剧 音乐 歌 专辑 游戏 作者 看了 听了",
    ),
    Category(
        "pet",
        _cue(
            r"pets|animals",
            r"pet|animal",
            r"宠物|动物",
        ),
        (
            "My pet loves to play and sleep on the couch.",
            "We adopted a little animal and take care of it every day.",
        ),
        "宠物 狗 猫 小狗 小猫 兔子 鱼 鸟 遛狗 喂",
    ),
    Category(
        "family",
        _cue(
            r"relatives|kids|children|siblings|parents|family members",
            r"family|kid|child|sibling|parent",
            r"家人|家里人|亲戚|孩子|父母|兄弟姐妹",
        ),
        (
            "My family came over and the kids played together.",
            "I spent the day with my parents, my siblings and my children.",
        ),
        "家人 爸爸 妈妈 父母 孩子 儿子 女儿 哥哥 姐姐 弟弟 妹妹 老公 老婆",
    ),
    Category(
        "work",
        _cue(
            r"jobs|careers|projects|businesses",
            r"job|career|project|work|business",
            r"工作|职业|项目|事业|公司",
        ),
        (
            "I got a new job and started working on a big project.",
            "My career goal is to grow my business.",
        ),
        "工作 上班 项目 公司 老板 同事 职业 事业 创业 面试",
    ),
    Category(
        "event",
        _cue(
            r"events|occasions|celebrations|festivals|ceremonies|parties",
            r"event|occasion|celebrat\w*|festival|ceremony|party|participated|attended",
            r"活动|聚会|节日|庆祝|典礼|参加",
        ),
        (
            "I attended an event in the community last weekend.",
            "We celebrated at a party and a festival together.",
            "I took part in a charity fundraiser and volunteered.",
        ),
        "活动 聚会 节日 庆祝 典礼 参加 婚礼 生日 志愿 比赛",
    ),
)


@dataclass(frozen=True)
class CategoryTuning:
    limit: int = 20  # candidates per kind of row (turns, facts)
    min_similarity: float = 0.25  # to the category's vector: MiniLM gives 0.1-0.2 to sentences of other kinds
    query_share: float = 1.0  # the similarity to the question's vector, this share of it, breaks the ties
    singular: bool = False  # also a question naming one of the kind ("What book ..."), not only a list of them


def asked_categories(text: str, *, singular: bool = False) -> list[Category]:
    """The categories a question asks for (its class nouns), in CATEGORIES' order."""
    return [c for c in CATEGORIES if c.cue.asks(text, singular=singular)]


_VECTORS: dict[tuple[str, str], tuple[float, ...]] = {}  # (category, embedder model) -> vector


def category_vector(name: str) -> tuple[float, ...] | None:
    """The category's vector: the normalised mean of its sentences' embeddings, computed once per process and
    embedder model (None while the embedder is down: asked again next time)."""
    try:
        key = (name, str(getattr(get_embedder(), "model_name", "")))
        if key not in _VECTORS:
            category = next(c for c in CATEGORIES if c.name == name)
            vectors = embed_texts(list(category.prototypes))
            mean = [sum(column) / len(vectors) for column in zip(*vectors, strict=True)]
            norm = math.sqrt(sum(x * x for x in mean)) or 1.0
            _VECTORS[key] = tuple(x / norm for x in mean)
    except EmbedderUnavailable:
        return None
    return _VECTORS[key]


def category_ranking(
    flt: FactFilter,
    analysis: QueryAnalysis,
    query_vector: list[float] | None,
    *,
    messages: bool,
    facts: bool,
    tuning: CategoryTuning,
) -> Ranking:
    """The person's turns (and facts) of the kinds the question asks for, best first (see the module's doc)."""
    categories = asked_categories(analysis.text, singular=tuning.singular)
    if not categories or not (messages or facts):
        return []
    person = Person(flt, analysis.names)
    found: Ranking = []
    for category in categories:
        if has_cjk(analysis.text):
            found += _holding(person, category.lexicon, messages, facts, tuning)
            continue
        vector = category_vector(category.name)
        if vector is not None and query_vector is not None:
            found += _nearest(person, list(vector), query_vector, messages, facts, tuning)
    best: dict[Key, float] = {}
    for key, score in found:
        best[key] = max(score, best.get(key, 0.0))
    return merged(list(best.items()))


@dataclass(frozen=True)
class Person:
    """Whose rows a category question reads: the speakers it names (their turns, the facts about them), else the
    user's own turns and all the subject's facts."""

    flt: FactFilter
    names: list[str]

    def messages(self) -> tuple[str, list[Any]]:
        where, params = message_where(self.flt.subject_id, self.flt.since, self.flt.until)
        if self.names:
            return f"{where} AND lower(name) = ANY(%s)", [*params, self.names]
        return f"{where} AND role = 'user'", params

    def facts(self) -> tuple[str, list[Any]]:
        where, params = self.flt.sql()
        if self.names:
            about = "(lower(subject_entity) = ANY(%s) OR entity_keys && %s::varchar[])"
            return f"{where} AND {about}", [*params, self.names, self.names]
        return where, params


def _nearest(
    person: Person, vector: list[float], query_vector: list[float], messages: bool, facts: bool, tuning: CategoryTuning
) -> Ranking:
    """Rows at least `min_similarity` similar to the category's vector, by that plus a share of the query's."""
    cat, q = vector_literal(vector), vector_literal(query_vector)
    found: Ranking = []
    tables = [("message", "conversations_message", *person.messages())] if messages else []
    tables += [("fact", "facts_fact", *person.facts())] if facts else []
    for kind, table, where, params in tables:
        rows = fetch(
            f"SELECT id, c + %s * (1 - (embedding <=> %s::vector)) AS s FROM (SELECT id, embedding, "
            f"1 - (embedding <=> %s::vector) AS c FROM {table} WHERE {where} AND embedding IS NOT NULL) r "
            "WHERE c >= %s ORDER BY s DESC, id LIMIT %s",
            [tuning.query_share, q, cat, *params, tuning.min_similarity, tuning.limit],
        )
        found += keyed(kind, [(int(pk), float(score)) for pk, score in rows])
    return found


def _holding(person: Person, lexicon: list[str], messages: bool, facts: bool, tuning: CategoryTuning) -> Ranking:
    """Rows holding words of the category's lexicon (Chinese, which MiniLM does not read), by how many, then newest."""
    patterns = ["%" + w + "%" for w in lexicon]
    found: Ranking = []
    tables = [("message", "conversations_message", "content", *person.messages())] if messages else []
    tables += [("fact", "facts_fact", "text", *person.facts())] if facts else []
    for kind, table, column, where, params in tables:
        rows = fetch(
            f"SELECT id, (SELECT count(*) FROM unnest(%s::text[]) p WHERE {column} LIKE p) AS n FROM {table} "
            f"WHERE {where} AND {column} LIKE ANY(%s) ORDER BY n DESC, created_at DESC, id DESC LIMIT %s",
            [patterns, *params, patterns, tuning.limit],
        )
        found += keyed(kind, [(int(pk), float(n)) for pk, n in rows])
    return found
