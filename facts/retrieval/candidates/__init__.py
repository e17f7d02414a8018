"""Candidate generation, one module per signal: each returns a ranked list, (id, raw score) best first.

vector.py (cosine to the query's embedding, in memory or PostgreSQL), keyword.py (BM25 over the full text),
entity.py (names, ids and the slots a query names), time.py (a time the query names), links.py (the answer after
a matching question, the speaker's next turn). Every statement is scoped to one subject (scope.FactFilter).
"""
