"""Deterministic hybrid recall with no LLM: `facts.selectors.fact_search` calls `search.run_search`, which runs the
stages over one `SearchState`:

analyse (query.py, timerange.py) -> candidates, one module per signal (candidates/: vector, keyword, entity, time,
category, and the reply and continuation links), the query embedding beside them (query_vector.py) -> fuse
(fusion.py) -> re-rank (rerank.py) -> collapse (collapse.py: diversify, fold near-duplicates, cut).

scope.py says which rows a search may return; rows.py reads the rows the later stages need; vector_cache.py holds
large subjects in memory; config.py builds the tuning of every stage once. access.py and tasks.py count reads off
the request.
"""
