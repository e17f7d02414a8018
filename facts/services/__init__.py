"""Writes to facts, in five modules: `pipeline` (extraction from messages), `reconcile` (merge, supersede,
conflict), `commands` (what the API, the portal and the admin call), `curation` (the admin's re-embed and
merge) and `writes` (bulk writes).

The public functions are re-exported here: callers write `from facts import services; services.fact_create(...)`.
"""

from __future__ import annotations

from facts.exceptions import ExtractionFailed
from facts.services.commands import (
    candidate_from_text,
    conflict_resolve,
    fact_archive,
    fact_correct,
    fact_create,
    fact_delete,
    fact_forget,
    fact_pin,
    fact_restore,
    fact_unpin,
)
from facts.services.curation import fact_reembed, facts_merge
from facts.services.pipeline import messages_extract, messages_extract_now
from facts.services.reconcile import ReconcileResult, fact_insert, fact_reconcile, history_record

__all__ = [
    "ExtractionFailed",
    "ReconcileResult",
    "candidate_from_text",
    "conflict_resolve",
    "fact_archive",
    "fact_correct",
    "fact_create",
    "fact_delete",
    "fact_forget",
    "fact_insert",
    "fact_pin",
    "fact_reembed",
    "fact_reconcile",
    "fact_restore",
    "fact_unpin",
    "facts_merge",
    "history_record",
    "messages_extract",
    "messages_extract_now",
]
