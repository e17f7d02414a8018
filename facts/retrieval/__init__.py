"""Deterministic hybrid recall with no LLM: query analysis, candidates from PostgreSQL, fusion and re-ranking.

`facts.selectors.fact_search` is the entry point; this package holds its parts:
query.py (language, words, entities, time expressions, type hints), candidates.py (vector, keyword,
entity, time and message candidates in SQL), fusion.py (weighted reciprocal-rank fusion and re-ranking),
search.py (the orchestration), tasks.py (access counting off the request).
"""
