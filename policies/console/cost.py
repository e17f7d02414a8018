"""The cost calculator: a month of long-context prompting against the same month with this memory.

The seed analysis' model (docs/console.md works an example by hand): N conversations a day, each `input_tokens`
from the user and `output_tokens` from the model, over `days` days.

- Long context: every conversation sends the whole history window (`history_days` of conversations, input and
  output) plus its own input, and gets its output back.
- Memory: every conversation sends the context this service assembled (`context_tokens`) plus its own input;
  extraction costs an LLM call for the share of turns the LLM extractor handles (rules cost nothing), embedding
  costs the turn's tokens once at the embedding price (zero with the local model), and storage costs the facts
  kept, by the GB-month.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

MILLION = 1_000_000


@dataclass(frozen=True)
class CostInputs:
    conversations_per_day: float = 100
    input_tokens: float = 200
    output_tokens: float = 300
    history_days: float = 30
    days: float = 30
    price_input: float = 3.00  # per million tokens
    price_output: float = 15.00  # per million tokens
    context_tokens: float = 2000  # the context API's default token budget
    llm_share: float = 0.0  # share of turns extracted by the LLM (0 with the rule extractor)
    extraction_overhead_tokens: float = 400  # the extractor's instructions and schema, sent with each turn
    extraction_output_tokens: float = 100
    price_embedding: float = 0.0  # per million tokens; the local model costs nothing per token
    stored_facts: float = 0
    bytes_per_fact: float = 2500  # row, 384-d vector, indexes
    price_storage_gb_month: float = 0.10

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


@dataclass(frozen=True)
class CostResult:
    conversations: float
    long_context_input_tokens: float
    long_context_output_tokens: float
    long_context_cost: float
    memory_input_tokens: float
    memory_answer_cost: float
    extraction_cost: float
    embedding_cost: float
    storage_cost: float
    memory_cost: float
    saved: float
    saved_share: float  # 0..1 of the long-context cost


def cost_compare(inputs: CostInputs) -> CostResult:
    """Both costs of one month under `inputs` (prices per million tokens, storage per GB-month)."""
    i = inputs
    conversations = i.conversations_per_day * i.days
    window = i.history_days * i.conversations_per_day * (i.input_tokens + i.output_tokens)
    lc_in = conversations * (window + i.input_tokens)
    out = conversations * i.output_tokens
    long_context = (lc_in * i.price_input + out * i.price_output) / MILLION
    mem_in = conversations * (i.context_tokens + i.input_tokens)
    answer = (mem_in * i.price_input + out * i.price_output) / MILLION
    extraction_calls = conversations * i.llm_share
    extraction = (
        extraction_calls
        * (
            (i.input_tokens + i.output_tokens + i.extraction_overhead_tokens) * i.price_input
            + i.extraction_output_tokens * i.price_output
        )
        / MILLION
    )
    embedding = conversations * (i.input_tokens + i.output_tokens) * i.price_embedding / MILLION
    storage = i.stored_facts * i.bytes_per_fact / 1e9 * i.price_storage_gb_month * (i.days / 30)
    memory = answer + extraction + embedding + storage
    return CostResult(
        conversations=conversations,
        long_context_input_tokens=lc_in,
        long_context_output_tokens=out,
        long_context_cost=long_context,
        memory_input_tokens=mem_in,
        memory_answer_cost=answer,
        extraction_cost=extraction,
        embedding_cost=embedding,
        storage_cost=storage,
        memory_cost=memory,
        saved=long_context - memory,
        saved_share=(long_context - memory) / long_context if long_context else 0.0,
    )
