"""The gate's features from the int8 copy of the local model: near the model's own vectors, the same gate decisions
on sentences of both languages, the copy written once into VAR_DIR from the installed weights (no download)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest

from facts import embedding
from facts.embedding import LocalMiniLM
from facts.extraction import classifier
from facts.extraction.base import MessageView
from facts.extraction.rules import RuleExtractor

SENTENCES = [
    "My sister just started her new job as a nurse in Leeds.",
    "I can't eat anything with gluten, doctor's orders.",
    "We finally booked the flights to Lisbon for the second week of May.",
    "Haha that's hilarious, you always crack me up",
    "Thanks again, have a great weekend!",
    "Could you remind me what the return window is?",
    "我女儿下个月要去杭州读研究生了",
    "我对猫毛过敏，一直在吃抗过敏药",
    "上周六我们把客厅重新刷成了浅蓝色",
    "哈哈哈笑死我了",
    "好的好的，谢谢你啦",
    "你周末一般都干嘛呀？",
]


@pytest.fixture
def var_dir(settings: Any, tmp_path: Path) -> Path:
    settings.VAR_DIR = tmp_path
    return tmp_path


def test_the_int8_copy_gives_vectors_near_the_models_own(var_dir: Path) -> None:
    """Measured ~0.99 on the corpus's and LoCoMo's sentences, 0.95 at worst; and not the model itself (a cosine
    of 1 would mean nothing was quantized)."""
    model = LocalMiniLM()
    encoder = model.int8_encoder()
    assert encoder is not None
    fast = encoder.encode(SENTENCES)
    full = np.asarray(model.embed(SENTENCES), dtype=np.float32)
    assert fast.shape == (len(SENTENCES), 384)
    assert np.allclose(np.linalg.norm(fast, axis=1), 1.0, atol=1e-5)
    cosines = (fast * full).sum(axis=1)
    assert cosines.min() > 0.95 and cosines.mean() > 0.98, cosines
    assert cosines.max() < 0.99999
    # A text gets one vector, alone or beside texts of other lengths (the int8 scale is per text).
    assert np.array_equal(encoder.encode([SENTENCES[6]])[0], fast[6])


def test_the_weights_take_seven_bits_on_every_cpu(var_dir: Path) -> None:
    """The copy is quantized with reduce_range whatever the CPU (8-bit products can saturate on x86 without VNNI and
    not with it: a sentence's vector, and the gate's decision, would depend on the machine)."""
    encoder = LocalMiniLM().int8_encoder()
    assert encoder is not None and encoder.path.name.endswith("-int8-r7.onnx")
    model = onnx.load(str(encoder.path))
    weights = [onnx.numpy_helper.to_array(t) for t in model.graph.initializer if t.data_type == onnx.TensorProto.INT8]
    assert weights and all(int(np.abs(w.astype(np.int16)).max()) <= 64 for w in weights)


def test_the_copy_is_written_once_from_the_installed_weights(var_dir: Path) -> None:
    LocalMiniLM().int8_encoder()
    files = sorted((var_dir / "models").glob("*.onnx"))
    assert ["-int8" in f.name for f in files] == [True, False]  # the copy, and the float export (and a lock file)
    written = files[0].stat().st_mtime_ns
    assert LocalMiniLM().int8_encoder() is not None  # a new process reads the same file
    assert sorted((var_dir / "models").glob("*.onnx")) == files and files[0].stat().st_mtime_ns == written


def test_without_a_copy_the_gate_reads_the_models_own_vectors(settings: Any, tmp_path: Path) -> None:
    not_a_directory = tmp_path / "var"
    not_a_directory.write_text("a file where the models folder should go")
    settings.VAR_DIR = not_a_directory
    settings.GATE_FEATURES = "int8"
    model = LocalMiniLM()
    embedding.set_embedder(model)
    try:
        assert embedding.feature_encoder() is None
        features = embedding.embed_features(["I adopted a puppy last week."])
        assert float(features[0] @ np.array(model.embed(["I adopted a puppy last week."])[0])) > 0.99999
    finally:
        embedding.set_embedder(None)


def _decisions(settings: Any, features: str) -> list[tuple[str, ...]]:
    settings.GATE_FEATURES = features  # each features fit their own model, whose scores and types are their own
    when = dt.datetime(2026, 5, 4, 9, 0, tzinfo=dt.UTC)
    views = [MessageView(id=i + 1, role="user", name="", content=s, created_at=when) for i, s in enumerate(SENTENCES)]
    outputs = RuleExtractor().extract(views)
    return [(o.gate.reason, *sorted(c.type for c in o.candidates)) for o in (outputs[v.id] for v in views)]


def test_the_gate_decides_as_with_the_models_own_vectors(settings: Any) -> None:
    """Each features fit their own classifier (on the same features of the train turns): the decisions and types
    on sentences of both languages are the same, and the keep probabilities close."""
    int8 = _decisions(settings, "int8")
    full = _decisions(settings, "full")
    assert int8 == full
    assert any(len(d) > 1 for d in full) and any(len(d) == 1 for d in full)  # some kept, some dropped
    settings.GATE_FEATURES = "int8"
    fast = classifier.score(SENTENCES)
    settings.GATE_FEATURES = "full"
    slow = classifier.score(SENTENCES)
    assert fast is not None and slow is not None
    assert max(abs(a.keep - b.keep) for a, b in zip(fast, slow, strict=True)) < 0.1


MESSAGES = [
    "Ha, that sounds like a fun afternoon, enjoy it!",
    "Sam: Wow, what a view [shares a photo of a lake at sunset]",
    "哈哈，听起来挺好玩的，玩得开心！",
    "小林：这景色太美了吧",
]


def test_a_message_text_is_embedded_by_the_int8_copy(settings: Any, var_dir: Path) -> None:
    """MESSAGE_VECTORS=int8 (default): a whole message's text vector comes from the int8 copy, one text at a time, so
    the same text always gets the same vector whatever else its batch holds; near the model's own (English and
    Chinese). `full`: the model's own vectors."""
    settings.MESSAGE_VECTORS = "int8"
    model = LocalMiniLM()
    embedding.set_embedder(model)
    try:
        fast = np.asarray(embedding.embed_messages(MESSAGES), dtype=np.float32)
        full = np.asarray(model.embed(MESSAGES), dtype=np.float32)
        cosines = (fast * full).sum(axis=1)
        assert cosines.min() > 0.95 and cosines.max() < 0.99999, cosines
        for i, text in enumerate(MESSAGES):
            assert np.array_equal(np.asarray(embedding.embed_messages([text])[0], dtype=np.float32), fast[i])
        settings.MESSAGE_VECTORS = "full"
        assert np.allclose(np.asarray(embedding.embed_messages(MESSAGES)), full, atol=1e-5)
    finally:
        embedding.set_embedder(None)


def test_a_model_scores_with_its_own_weights_after_another_was_dropped() -> None:
    """Scores are remembered per model: a model made after another was dropped (CPython often gives it the dropped
    one's id, which the scores were once keyed by) scores with its own weights, never with the dropped one's."""
    base = classifier.model()
    assert base is not None
    text = "I adopted a greyhound called Pip last spring."
    vector = classifier.embed([text])
    ids: set[int] = set()
    reused = 0
    try:
        # Until a model has taken a dropped one's id a few times (how soon depends on what else the process has
        # allocated: within 30 models alone, not always in a whole suite's process).
        for shift in range(1, 301):
            model = dataclasses.replace(base, keep_b=base.keep_b + shift / 100)
            reused += id(model) in ids
            ids.add(id(model))
            classifier.use_model(model)
            classifier.prime([text])  # as the pipeline does for a batch's sentences
            scores = classifier.score([text])
            assert scores is not None
            assert scores[0].keep == pytest.approx(float(model.keep_probability(vector)[0]))
            del model
            if reused >= 3:
                break
    finally:
        classifier.use_model(None)
    assert reused >= 3  # models did take dropped ones' ids: the case this test is for
