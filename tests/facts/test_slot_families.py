"""Slot families across paraphrases (English and Chinese): the newer value supersedes the old one, which leaves
search with its history kept; the embedding's second opinion; phrasings unlike those of the corpus."""

from __future__ import annotations

import pytest

from facts.extraction.families import same_value
from facts.extraction.slots import pet_slot, slot_of, states_a_change
from facts.models import Fact, FactHistory


def _ingest(persona, *contents: str, when: str = "2024-03-04T09:00:00Z", **extra):  # type: ignore[no-untyped-def]
    response = persona.ingest(*contents, created_at=when, **extra)
    assert response.status_code == 200, response.json()
    return response.json()["facts"]


@pytest.mark.parametrize(
    ("sentence", "predicate", "value"),
    [
        ("Last spring we relocated to Vienna for good.", "residence", "Vienna"),
        ("We signed for a little terraced house in Norwich!", None, None),  # no home cue the rules know
        ("My address is now 7 Orchard Lane, Bath.", "residence", "7 Orchard Lane, Bath"),
        ("I've been living in Montreal since the spring.", "residence", "Montreal"),
        ("去年冬天我们一家定居在了苏州", "residence", "苏州"),
        ("房子卖了，我搬回老家长沙了", "residence", "老家长沙"),
        ("I got hired by Stripe as an analyst.", "employer", "Stripe"),
        ("I'm employed as a paralegal these days.", "job", "paralegal"),
        ("我刚入职网易，做游戏策划", "employer", "网易"),
        ("国庆后我就跳到滴滴了", "employer", "滴滴"),
        ("I'm doing my teacher training at Goldsmiths College.", "school", "Goldsmiths College"),
        ("我考上了浙江大学的研究生", "school", "浙江大学"),
        ("We tied the knot in a tiny ceremony last month.", "relationship_status", "married"),
        ("He and I split up over the summer.", "relationship_status", "single"),
        ("我和女朋友上周分手了", "relationship_status", "single"),
        ("我上个月领证了", "relationship_status", "married"),
        ("I gave up meat after watching a documentary.", "diet", "vegetarian"),
        ("我这半年开始吃纯素", "diet", "vegan"),
        ("Reach me on +44 7700 900555 from now on.", "phone", "+447700900555"),
        ("以后打我这个电话：186-1234-9876", "phone", "18612349876"),
        ("我现在在宁波。", "residence", "宁波"),
        # a move from one place to another names the new home (it was read as an employer "from" the old one)
        ("In the spring I moved from Glasgow to Dundee.", "residence", "Dundee"),
        ("We relocated from New York to Austin last year.", "residence", "Austin"),
        ("Send the invoice to lena.k@example.org please.", "email", "lena.k@example.org"),
        ("我的邮箱换成了 zhou.ming@example.cn", "email", "zhou.ming@example.cn"),
    ],
)
def test_a_family_is_read_across_paraphrases(sentence: str, predicate: str | None, value: str | None) -> None:
    slot = slot_of(sentence)
    if predicate is None:
        assert slot is None or slot.predicate not in {"residence", "relationship_status"}
        return
    assert slot is not None and slot.predicate == predicate, slot
    assert slot.object_value == value


@pytest.mark.parametrize(
    ("sentence", "predicate"),
    [
        ("We've got a tabby cat called Pudding.", "pet:pudding"),
        ("My dog is a scruffy little terrier named Pip.", "pet:pip"),
        ("我家养了一只三花猫，叫汤圆。", "pet:汤圆"),
        ("我的猫是一只英短，名叫奶茶。", "pet:奶茶"),
        ("My dog is sick today.", None),
        ("我家的狗今天生病了。", None),
        ("我的狗是一只金毛。", None),
    ],
)
def test_a_pet_is_named_across_phrasings(sentence: str, predicate: str | None) -> None:
    slot = pet_slot(sentence)
    assert (slot.predicate if slot is not None else None) == predicate, slot


@pytest.mark.parametrize(
    "sentence",
    [
        "My brother lives in Glasgow.",
        "I don't live in Denver any more.",
        "If I moved to Oslo I'd need a car.",
        "I'm in Rome for the weekend.",
        "Where do you live?",
        "我爸妈住在青岛。",
        "我已经不住在徐汇了。",
        "你住在哪个区？",
        "我朋友在字节上班。",
        "他在清华读书。",
        "My wife is a vet at the animal hospital.",
        # "我在X" where X is no place; a stay counted in months is a visit
        "我在还房贷，每个月还八千。",
        "我现在在学吉他。",
        "我在备孕，所以不喝酒。",
        "我每年冬天都去三亚住两个月。",
        "I moved over from sales to the product team at Monzo.",
    ],
)
def test_a_sentence_about_someone_else_or_not_a_fact_fills_no_slot_of_the_speaker(sentence: str) -> None:
    slot = slot_of(sentence)
    assert slot is None or slot.predicate not in {"residence", "employer", "job", "school"}, slot


def test_values_that_name_one_thing_are_one_value() -> None:
    assert (
        same_value("朝阳", "朝阳区") and same_value("Acme Ltd", "acme") and same_value("138 1234 5678", "13812345678")
    )
    assert not same_value("海淀区", "朝阳区") and not same_value("", "")


@pytest.mark.parametrize(
    ("text", "changed"),
    [
        ("These days Sam would like to try oysters.", True),
        ("用户最近开始喜欢喝茶", True),
        ("Sam loves oysters.", False),
        ("用户想尝尝辣的。", False),
    ],
)
def test_a_statement_that_says_it_is_a_change(text: str, changed: bool) -> None:
    assert states_a_change(text) is changed


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("old", "new", "predicate", "query"),
    [
        ("我住在昌平区。", "我们去年底搬家了，如今住在大兴区", "residence", "大兴区"),
        ("我一直住在西城区", "我上周末搬去了通州那边，离公司近", "residence", "通州"),
        ("I live in Dublin.", "We finally got the keys to our new flat in Cork last week.", "residence", "Cork"),
        ("I work for Deloitte.", "I joined Accenture in March.", "employer", "Accenture"),
        ("我在百度上班。", "我这个月跳槽到了小米", "employer", "小米"),
        ("I'm single.", "We got engaged over the weekend!", "relationship_status", "engaged"),
        ("我单身。", "我下个月结婚了！", "relationship_status", "结婚"),
        ("I'm vegetarian.", "I started eating meat again after the trip.", "diet", "meat"),
        ("我吃素。", "我现在不吃素了，开始吃肉", "diet", "吃肉"),
        ("My number is 020 7946 0018.", "Please use my new mobile: 07700 900123.", "phone", "mobile"),
        ("我的手机号是13911112222", "我换号了，新号码是 137 0000 3333", "phone", "号码"),
    ],
)
def test_a_paraphrased_new_value_supersedes_and_the_old_leaves_search(  # type: ignore[no-untyped-def]
    alice, old: str, new: str, predicate: str, query: str
) -> None:
    first = _ingest(alice, old)
    assert first and first[0]["predicate"] == predicate
    second = [f for f in _ingest(alice, new, when="2024-05-20T09:00:00Z") if f["predicate"] == predicate]
    assert second and second[0]["status"] == "active"
    old_fact = Fact.objects.get(pk=first[0]["id"])
    assert old_fact.status == "superseded" and old_fact.valid_to is not None
    assert FactHistory.objects.filter(fact_uid=old_fact.uid, event="superseded").exists()  # history kept
    ids = [r["id"] for r in alice.search(query, limit=10).json()["results"]]
    assert second[0]["id"] in ids and old_fact.pk not in ids
    history = alice.get(f"facts/{old_fact.pk}/history").json()
    assert any(e["event"] == "superseded" for e in history["results"])


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("old", "new"),
    [("I live in Shanghai.", "我上个月搬到了杭州。"), ("我住在深圳。", "I moved to Singapore in June.")],
)
def test_a_move_said_in_the_other_language_supersedes(alice, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    first = _ingest(alice, old)[0]
    _ingest(alice, new, when="2024-06-20T09:00:00Z")
    assert Fact.objects.get(pk=first["id"]).status == "superseded"
    assert Fact.objects.filter(subject__external_id="alice", predicate="residence", status="active").count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("mine", "other"),
    [("我住在闵行区。", "我姐姐住在浦东。"), ("I live in Bristol.", "My parents moved to Cardiff.")],
)
def test_someone_elses_move_does_not_supersede_the_speakers(alice, mine: str, other: str) -> None:  # type: ignore[no-untyped-def]
    first = _ingest(alice, mine)[0]
    _ingest(alice, other, when="2024-06-20T09:00:00Z")
    assert Fact.objects.get(pk=first["id"]).status == "active"


@pytest.mark.django_db
def test_a_trip_does_not_move_the_speaker(alice) -> None:  # type: ignore[no-untyped-def]
    home = _ingest(alice, "I live in Porto.")[0]
    _ingest(alice, "I'm in Lisbon for a work conference this week.", when="2024-06-20T09:00:00Z")
    assert Fact.objects.get(pk=home["id"]).status == "active"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("old", "new", "query"),
    [
        ("I don't eat lamb at all.", "These days I'd like to try lamb.", "lamb"),
        ("我从来不吃羊肉。", "我最近开始喜欢羊肉了", "羊肉"),
        ("I can't stand jazz.", "I've started enjoying jazz lately.", "jazz"),
        ("我受不了香菜。", "这阵子我开始爱吃香菜了", "香菜"),
    ],
)
def test_a_preference_that_says_it_changed_ranks_first_and_the_old_leaves_search(  # type: ignore[no-untyped-def]
    alice, old: str, new: str, query: str
) -> None:
    first = _ingest(alice, old)[0]
    second = _ingest(alice, new, when="2024-05-20T09:00:00Z")[0]
    assert second["predicate"] == first["predicate"] and second["status"] == "active"
    assert Fact.objects.get(pk=first["id"]).status == "superseded"
    results = alice.search(query, limit=10).json()["results"]
    assert results and results[0]["id"] == second["id"]
    assert first["id"] not in [r["id"] for r in results]


@pytest.mark.parametrize(
    ("sentence", "predicate"),
    [
        ("I love it!", None),
        ("Honestly I can't stand them.", None),
        ("I love playing the cello.", "preference:cello"),
        ("I love watching horror films.", "preference:horror"),
        ("I love swimming in the lake.", "preference:swimming"),
    ],
)
def test_a_preference_names_its_topic_or_none(sentence: str, predicate: str | None) -> None:
    """A pronoun is no topic; a light gerund ("playing", "watching") is not the topic its object is."""
    slot = slot_of(sentence)
    assert (slot.predicate if slot is not None else None) == predicate, slot
