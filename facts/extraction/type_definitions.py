"""Types by definition: the type whose exemplar sentences a sentence is nearest, by the embedder alone.

Where no rule is sure of a kept sentence's type, the classifier's type head (fitted on the corpus's train turns)
has been right about a third of the time on phrasings it never saw: the MiniLM vector carries topic more than
type, and a head fitted on a thousand turns learns their topics. The exemplars below were written from the type
definitions of facts/extraction/corpus/README.md (what each type is, in English and Chinese), not from corpus
turns; the English kept turns of the blind batches (written from the same README by people who never saw the rules)
join them. Nothing is fitted: a sentence takes the type of its nearest exemplars (the mean cosine of the K most
similar of each type). Leave-one-group-out on the train split, over the English turns no rule types, this
was right on 32 of 58 against 13 for the head; Chinese turns score near every exemplar alike with MiniLM (6 of
34 against 4), so Chinese sentences take their type from a model that reads Chinese (zh_types.py) instead. Without an
embedder: None.
"""

from __future__ import annotations

import threading

import numpy as np

from facts import embedding as embedding_backend  # module import: safe when threads import it concurrently
from facts.extraction.corpus import load_batches
from facts.extraction.stored_vectors import embedder_name, stored_vectors
from facts.text import detect_language

K = 5  # exemplars per type whose similarities are averaged
_MEMO_SIZE = 2048

EXEMPLARS: dict[str, tuple[str, ...]] = {
    "inquiry": (
        "Is this jacket available in a larger size?",
        "What time does your shop close on Sundays?",
        "Can you tell me where my parcel is right now?",
        "Do you deliver to rural addresses?",
        "How much does the premium plan cost per month?",
        "Does the warranty cover water damage?",
        "Could you look up whether my booking went through?",
        "Is there a branch near the station?",
        "这款有没有黑色的？",
        "你们几点关门？",
        "帮我查一下包裹到哪了。",
        "请问可以分期付款吗？",
        "这个套餐包含国际漫游吗？",
        "你们能上门安装吗？",
        "运费怎么算？",
        "保修期是多久？",
    ),
    "complaint": (
        "The blender I received arrived with a cracked lid.",
        "My internet has been cutting out every evening.",
        "You charged my card twice for the same order.",
        "The parcel never showed up even though it says delivered.",
        "The technician was supposed to come yesterday and nobody turned up.",
        "The shoes fell apart after a week.",
        "I was promised a call back and never heard anything.",
        "The heating in the flat you manage still doesn't work.",
        "买的吹风机用了两天就不出热风了。",
        "快递显示签收了但我根本没收到。",
        "你们扣了我两次钱。",
        "说好昨天上门，结果没人来。",
        "衣服洗了一次就缩水了。",
        "网络每天晚上都断。",
        "收到的杯子是碎的。",
        "客服答应回电话，一直没人回。",
    ),
    "decision": (
        "I'll go with the cheaper option.",
        "Let's cancel the order altogether.",
        "I've decided to keep the red one.",
        "Move my appointment to Thursday instead.",
        "I'd rather have a refund than a replacement.",
        "We chose the three-bedroom one in the end.",
        "Actually, switch me to the annual plan.",
        "I'm not renewing the contract.",
        "那就要蓝色那款吧。",
        "改到下周四吧。",
        "我决定不去了。",
        "还是退款吧，不换了。",
        "我选第二个方案。",
        "把会员取消掉。",
        "最后我们定了那套两居室。",
        "算了，不续了。",
    ),
    "relationship": (
        "My husband works night shifts at the hospital.",
        "My son has just started walking.",
        "My sister is allergic to cats.",
        "My dad retired last year and took up golf.",
        "My girlfriend and I broke up in the spring.",
        "We got engaged over the weekend.",
        "My mum can't eat anything spicy.",
        "My brother is studying law in Edinburgh.",
        "我老公在医院上夜班。",
        "我儿子刚会走路。",
        "我妹对猫过敏。",
        "我爸去年退休了。",
        "我和男朋友分手了。",
        "我们订婚了。",
        "我妈不能吃辣。",
        "我哥在读法律。",
    ),
    "health": (
        "I've been getting migraines most afternoons.",
        "The doctor put me on medication for my blood pressure.",
        "I sprained my ankle playing football.",
        "I've got a check-up with the dentist next week.",
        "I'm twelve weeks pregnant.",
        "I barely sleep more than four hours a night.",
        "My lower back has been hurting for months.",
        "I'm allergic to penicillin.",
        "我最近老是头疼。",
        "医生让我每天吃降压药。",
        "我打球扭伤了脚踝。",
        "下周要去复查。",
        "我怀孕三个月了。",
        "我晚上总是睡不着。",
        "我腰疼了好几个月。",
        "我对青霉素过敏。",
    ),
    "legal": (
        "My lease runs out at the end of June.",
        "We're remortgaging the house this year.",
        "My work visa expires in March.",
        "I need to renew my passport before the trip.",
        "I signed a two-year contract with the agency.",
        "My car insurance policy renews next month.",
        "We've hired a lawyer for the dispute with the builder.",
        "I passed my driving licence test.",
        "我的租约六月到期。",
        "房贷还有二十年。",
        "我的工作签证三月到期。",
        "出国前得换护照。",
        "我跟中介签了两年合同。",
        "车险下个月续保。",
        "我们请了律师打官司。",
        "驾照下个月要换证。",
    ),
    "profile": (
        "I live in a small flat near the river.",
        "I work as a nurse on the children's ward.",
        "I'm originally from Glasgow.",
        "I'm thirty-four.",
        "I speak Spanish and a bit of Portuguese.",
        "I have a black Labrador called Pepper.",
        "I cycle to the office every morning.",
        "I'm starting at a new school in September.",
        "I take a pottery class on Tuesdays.",
        "My phone number is on the account.",
        "I drive an old estate car.",
        "我住在河边的一个小区。",
        "我在儿童医院当护士。",
        "我老家是东北的。",
        "我今年三十四。",
        "我会说粤语。",
        "我养了一只拉布拉多。",
        "我每天骑车上班。",
        "我九月去新学校报到。",
        "我每周二晚上上陶艺课。",
        "我开一辆旧车。",
    ),
    "preference": (
        "I can't stand horror films.",
        "I love spicy food.",
        "I'm really into bouldering lately.",
        "I'd love to try scuba diving one day.",
        "I don't drink coffee at all.",
        "I'm vegetarian.",
        "Jazz isn't really my thing.",
        "My favourite season is autumn.",
        "我特别喜欢吃辣。",
        "我受不了恐怖片。",
        "最近迷上了攀岩。",
        "很想去试试潜水。",
        "我不喝咖啡。",
        "我吃素。",
        "爵士乐我不太感兴趣。",
        "我最喜欢秋天。",
    ),
    "commitment": (
        "I'm flying to Seoul next month.",
        "I'll send you the photos tonight.",
        "I'm running a half marathon in October.",
        "I've booked a table for Saturday.",
        "I'm taking my driving test in two weeks.",
        "I promised to help my neighbour move.",
        "I'm planning to repaint the kitchen this summer.",
        "My goal is to save for a deposit by next year.",
        "我下个月去首尔。",
        "今晚把照片发给你。",
        "我十月要跑半马。",
        "我订了周六的位子。",
        "两周后考科目二。",
        "我答应帮邻居搬家。",
        "今年夏天打算重新刷厨房。",
        "明年的目标是攒够首付。",
    ),
    "event": (
        "I ran my first 10k last Sunday.",
        "I lost my wallet on the bus yesterday.",
        "I passed the exam in the end.",
        "We went to the coast for the bank holiday.",
        "I met an old school friend at the station.",
        "My flight got cancelled this morning.",
        "I won a raffle at work.",
        "I finished the novel I was writing.",
        "上周日跑完了第一个十公里。",
        "昨天在公交上丢了钱包。",
        "考试终于过了。",
        "国庆去海边玩了。",
        "在车站碰到了老同学。",
        "今天早上航班取消了。",
        "公司抽奖中了一台咖啡机。",
        "我写完了那本小说。",
    ),
    "other": (
        "My budget is about two thousand a month.",
        "The order number is 55231.",
        "I earn around forty grand a year.",
        "The membership number is A88123.",
        "Rent is eleven hundred a month.",
        "The reference is QX-7712.",
        "我的预算是每月两千。",
        "订单号是55231。",
        "年收入大概二十万。",
        "会员号A88123。",
        "房租一个月三千五。",
        "单号是SF123456。",
    ),
}

_lock = threading.Lock()
# The exemplars embedded by one embedder, held with it (an id is unique only while its object lives), and the types of
# sentences by their features' kind (int8 copy or full), both dropped together when the embedder changes.
_built: dict[int, tuple[embedding_backend.Embedder, tuple[str, ...], np.ndarray, np.ndarray]] = {}
_memo: dict[tuple[str, str], str] = {}


def exemplar_rows() -> list[tuple[str, str]]:
    """(type, text) of every exemplar: the definitions' own, then the English kept user turns of the blind batches
    (facts/extraction/corpus/README.md, "Batches": labelled from the type definitions by writers who never saw the
    rules). Not the Chinese ones: MiniLM reads no Chinese (they teach zh_types.py's head, which does)."""
    rows = [(t, text) for t, texts in EXEMPLARS.items() for text in texts]
    labelled = [t for t in load_batches() if t.split == "train" and t.role == "user" and t.keep and t.lang == "en"]
    return rows + [(str(t.type), t.text) for t in labelled if t.type in EXEMPLARS]


def _embed(texts: list[str]) -> np.ndarray | None:
    try:
        return np.asarray(embedding_backend.embed_texts(texts), dtype=np.float32)
    except embedding_backend.EmbedderUnavailable:
        return None


def _held(embedder: embedding_backend.Embedder) -> tuple[tuple[str, ...], np.ndarray, np.ndarray] | None:
    held = _built.get(id(embedder))
    return held[1:] if held is not None and held[0] is embedder else None


def _exemplar_vectors() -> tuple[tuple[str, ...], np.ndarray, np.ndarray] | None:
    """The types, each exemplar's type index and unit vector (embedded once per embedder)."""
    try:
        embedder = embedding_backend.get_embedder()
    except embedding_backend.EmbedderUnavailable:
        return None
    built = _held(embedder)
    if built is None:
        with _lock:
            built = _held(embedder)
            if built is None:
                types = tuple(EXEMPLARS)
                defined = sum(len(texts) for texts in EXEMPLARS.values())  # (the definitions' come first)
                rows = [
                    (types.index(t) + (j >= defined) * len(types), text) for j, (t, text) in enumerate(exemplar_rows())
                ]
                stored = stored_vectors(
                    [text for _, text in rows],
                    kind="exemplars",
                    name=f"{embedder_name(embedder)}:texts",
                    embed=_embed,
                )
                if stored is None:
                    return None
                vectors = stored.astype(np.float32)
                vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
                built = (types, np.array([i for i, _ in rows]), vectors)
                _built.clear()
                _memo.clear()
                _built[id(embedder)] = (embedder, *built)
    return built


def type_scores(vectors: np.ndarray, types: tuple[str, ...], index: np.ndarray, exemplars: np.ndarray) -> np.ndarray:
    """Per unit-length sentence vector (rows) and type (columns), the mean cosine to the type's K most similar
    exemplars. An exemplar's index is its type's for a definition's sentence, that plus len(types) for a batch's turn:
    where a type has both, each kind's mean weighs half, so that many labelled turns on one topic ("billing") do not
    outvote what the definitions say of the type (the weight chosen on blind batches, bench/README.md)."""
    sims = vectors @ exemplars.T

    def nearest(i: int) -> np.ndarray | None:
        cols = index == i
        return -np.sort(-sims[:, cols], axis=1)[:, :K].mean(axis=1) if cols.any() else None

    scores = []
    for i in range(len(types)):
        parts = [p for p in (nearest(i), nearest(i + len(types))) if p is not None]
        scores.append(sum(parts) / len(parts) if parts else np.full(len(vectors), -1.0))
    return np.stack(scores, axis=1)


def nearness_speaks(sentence: str) -> bool:
    """Whether the embedder reads the sentence's language (an English-only one reads no Chinese): else nearness to
    the exemplars, and the classifier's head over the same vectors, are noise and the sentence's shape types it."""
    return embedding_backend.vector_speaks(detect_language(sentence))


def nearest_type(sentence: str) -> str | None:
    """The type whose exemplars the sentence is nearest, or None when the embedder is unavailable."""
    built = _exemplar_vectors()
    if built is None:
        return None
    types, index, exemplars = built
    try:
        key = embedding_backend.feature_kind()
    except embedding_backend.EmbedderUnavailable:
        return None
    memo = _memo.get((key, sentence))
    if memo is not None:
        return memo
    try:
        # The features the gate's classifier reads, as `remember` is given them: a sentence's type never depends on
        # whether its batch primed it (the int8 copy's vector and the full model's differ at a cosine of ~0.99).
        vector = np.asarray(embedding_backend.embed_features([sentence])[0], dtype=np.float32)
    except embedding_backend.EmbedderUnavailable:
        return None
    return _remembered(key, [sentence], vector[None, :], types, index, exemplars)[0]


def remember(sentences: list[str], vectors: np.ndarray) -> None:
    """Note the nearest type of sentences whose vectors the caller has already computed (the gate's classifier
    embeds every open sentence), so that `nearest_type` does not embed them a second time. Only once the
    exemplars are embedded (by the first `nearest_type`): a process whose sentences all have a rule's type never
    embeds them."""
    try:
        built = _held(embedding_backend.get_embedder())
        key = embedding_backend.feature_kind()
    except embedding_backend.EmbedderUnavailable:
        return
    if built is None or len(sentences) == 0:
        return
    types, index, exemplars = built
    rows = [i for i, sentence in enumerate(sentences) if nearness_speaks(sentence)]  # the others' is never read
    if rows:
        kept = np.asarray(vectors, dtype=np.float32)[rows]
        _remembered(key, [sentences[i] for i in rows], kept, types, index, exemplars)


def _remembered(
    key: str,
    sentences: list[str],
    vectors: np.ndarray,
    types: tuple[str, ...],
    index: np.ndarray,
    exemplars: np.ndarray,
) -> list[str]:
    vectors = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
    best = [types[int(i)] for i in np.argmax(type_scores(vectors, types, index, exemplars), axis=1)]
    if len(_memo) + len(sentences) > _MEMO_SIZE:
        _memo.clear()
    _memo.update({(key, sentence): type_ for sentence, type_ in zip(sentences, best, strict=True)})
    return best
