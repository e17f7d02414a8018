"""PostgreSQL helpers the apps share for their bulk writes: the search-vector SQL and a binary vector cursor.

App-free (no model is imported): conversations writes messages with them, facts writes facts.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import psycopg
from django.contrib.postgres.search import SearchVectorField
from django.db import connection
from django.db.models.expressions import RawSQL
from pgvector.psycopg.vector import VectorBinaryDumper
from psycopg.types import TypeInfo

# A row's search vector: English stemming (weight A) plus the plain word forms (weight B; Chinese text is
# pre-segmented into words), as SQL over one text parameter given twice. Bulk INSERTs and UPDATEs use it as is,
# the ORM through `search_vector_expr`: one definition for every write of a search vector.
SEARCH_VECTOR_SQL = (
    "setweight(to_tsvector('english'::regconfig, COALESCE(%s, '')), 'A') || "
    "setweight(to_tsvector('simple'::regconfig, COALESCE(%s, '')), 'B')"
)


def search_vector_expr(text_value: str) -> RawSQL:
    """The search vector of `text_value` as an ORM expression, computed by PostgreSQL."""
    return RawSQL(SEARCH_VECTOR_SQL, (text_value, text_value), output_field=SearchVectorField())


_VECTOR_TYPES: dict[tuple[str, str, str], Any] = {}  # pgvector's type (its oid differs per database)


@contextmanager
def binary_cursor() -> Iterator[Any]:
    """Yield a psycopg cursor on Django's connection (same transaction) with server-side parameters.

    Vectors (numpy arrays, see `as_array`) are sent in pgvector's binary form: no float is formatted as text,
    no large statement is quoted client-side.
    """
    connection.ensure_connection()
    raw = connection.connection
    where = connection.settings_dict
    key = (str(where.get("HOST") or ""), str(where.get("PORT") or ""), str(where["NAME"]))
    info = _VECTOR_TYPES.get(key)
    if info is None:
        info = _VECTOR_TYPES[key] = TypeInfo.fetch(raw, "vector")
    with psycopg.Cursor(raw) as cursor:
        info.register(cursor)
        cursor.adapters.register_dumper(np.ndarray, type("", (VectorBinaryDumper,), {"oid": info.oid}))
        yield cursor


def as_array(vector: Any) -> Any:
    """A vector as the float32 array `binary_cursor` sends in binary (None stays None: SQL NULL)."""
    return None if vector is None else np.asarray(vector, dtype=np.float32)
