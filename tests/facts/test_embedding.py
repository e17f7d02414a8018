"""The local embedder: a query through ONNX Runtime gives torch's vector, from weights exported on this machine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from facts.embedding import LocalMiniLM

QUERIES = [
    "What did I eat for dinner yesterday?",
    "我的狗最近掉毛厉害怎么办",
    "x",
    "  Café naïve ÉCOLE  ",
    "corgi " * 300,
]


@pytest.fixture
def var_dir(settings: Any, tmp_path: Path) -> Path:
    settings.VAR_DIR = tmp_path
    return tmp_path


def test_a_query_through_onnx_runtime_is_torchs_vector(settings: Any, var_dir: Path) -> None:
    """English, Chinese, one letter, accents and spaces, and a text past the model's 256 tokens: the same tokens
    as the model's tokenizer gives encode() (truncated the same way), and the same vector."""
    settings.EMBEDDINGS_QUERY_RUNTIME = "onnx"
    onnx = LocalMiniLM()
    settings.EMBEDDINGS_QUERY_RUNTIME = "torch"
    torch = LocalMiniLM()
    for query in QUERIES:
        settings.EMBEDDINGS_QUERY_RUNTIME = "onnx"
        fast = np.array(onnx.embed([query])[0])
        settings.EMBEDDINGS_QUERY_RUNTIME = "torch"
        reference = np.array(torch.embed([query])[0])
        assert fast.shape == (384,)
        assert abs(float(np.linalg.norm(fast)) - 1.0) < 1e-5
        assert float(fast @ reference) > 0.99999
        tokenizer = torch.model.tokenizer
        expected = tokenizer([query], truncation=True, max_length=torch.model.max_seq_length)["input_ids"][0]
        assert onnx.query_encoder is not None and onnx.query_encoder.token_ids(query) == list(expected)
    assert onnx.query_encoder is not None and torch.query_encoder is None


def test_the_export_is_written_once_and_reused(settings: Any, var_dir: Path) -> None:
    settings.EMBEDDINGS_QUERY_RUNTIME = "onnx"
    LocalMiniLM().embed(["first"])
    files = sorted((var_dir / "models").iterdir())
    assert len(files) == 1 and files[0].suffix == ".onnx"
    written = files[0].stat().st_mtime_ns
    LocalMiniLM().embed(["second"])  # a new process would build its own encoder from the same file
    assert sorted((var_dir / "models").iterdir()) == files
    assert files[0].stat().st_mtime_ns == written


def test_batches_go_through_torch(settings: Any, var_dir: Path) -> None:
    """Ingestion embeds in batches: torch, whatever the query runtime."""
    settings.EMBEDDINGS_QUERY_RUNTIME = "onnx"
    model = LocalMiniLM()
    vectors = model.embed(["one text", "another text"])
    assert len(vectors) == 2 and model.query_encoder is None


def test_without_onnx_runtime_torch_embeds_the_query(settings: Any, tmp_path: Path) -> None:
    """An encoder that cannot be built (no writable VAR_DIR, a broken install) costs speed, never the vector."""
    not_a_directory = tmp_path / "var"
    not_a_directory.write_text("a file where the models folder should go")
    settings.VAR_DIR = not_a_directory
    settings.EMBEDDINGS_QUERY_RUNTIME = "onnx"
    model = LocalMiniLM()
    vector = model.embed(["What did I eat for dinner yesterday?"])[0]
    settings.EMBEDDINGS_QUERY_RUNTIME = "torch"
    assert float(np.array(vector) @ np.array(LocalMiniLM().embed(["What did I eat for dinner yesterday?"])[0])) > 0.9999
    assert model.query_encoder is None


_QUANTIZE = """
import sys, time
from pathlib import Path
from facts.embedding_int8 import quantized_export
start = float(sys.argv[2])
time.sleep(max(0.0, start - time.time()))
print(quantized_export(Path(sys.argv[1])))
"""


def test_processes_starting_together_all_get_the_int8_copy(settings: Any, var_dir: Path) -> None:
    """Workers starting at once each build the gate's int8 copy: every one gets it (the quantizer's scratch file
    beside the export was shared, and a process that lost the race read the full model's vectors for life)."""
    import subprocess
    import sys
    import time

    settings.EMBEDDINGS_QUERY_RUNTIME = "onnx"
    LocalMiniLM().embed(["write the export"])
    (source,) = (var_dir / "models").glob("*.onnx")
    root = Path(__file__).resolve().parents[2]
    start = str(time.time() + 3.0)  # all three quantize from the same instant, after their imports
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _QUANTIZE, str(source), start],
            cwd=root,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(3)
    ]
    results = [proc.communicate(timeout=300) for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0, 0], [err[-2000:] for _, err in results]
    paths = {out.strip() for out, _ in results}
    assert len(paths) == 1 and Path(paths.pop()).stat().st_size > 1_000_000
    assert not list((var_dir / "models").glob("*inferred*")) and not list((var_dir / "models").glob("*.tmp"))
