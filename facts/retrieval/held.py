"""One subject's searchable facts as a process holds them (vector_cache's entries), and how a few changed facts
are brought into an entry without reading the subject again.

An entry's rows are positions in its arrays: the facts read whole (in id order), then those a refresh appended
(a new fact, or a new state of a held one, whose old row is then dead). `order` lists the live rows in id order
(None while every row is live and in id order, as after a whole read): the search functions walk it, so ties
fall by id as in PostgreSQL. Vectors and sign-bit codes sit in buffers with room to spare: a refresh writes its
rows past the last row of the entry it starts from and shares the rest, so an entry a search is still reading
never changes under it (an entry is never written once made). Refreshes start only from the entry the process
holds at that moment (vector_cache, under its lock), so no two write the same buffer rows.

A dead row keeps its vector until the subject is read whole again (asked for once dead rows are many) or the
entry's age runs out, as a stale entry's rows did before; its text goes at once.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from bisect import bisect_right
from dataclasses import dataclass, field

import numpy as np

from conversations.models import EMBEDDING_DIMENSIONS

_NO_EXPIRY = np.inf
_NO_ROWS = np.empty(0, dtype=np.int32)
_OBJECT_BYTES = 120  # a Python str or array's own size, and its dict or list slot, roughly

# A fact as read for memory: id, vector_send(embedding) (None without a vector), expires_at,
# GREATEST(length(search_vector), 1), tsvector_to_array(search_vector), text.
FactRow = tuple[int, bytes | None, dt.datetime | None, int, list[str] | None, str]


@dataclass(frozen=True)
class Buffers:
    """Storage an entry's vectors and codes are the first rows of, with room for rows a refresh appends."""

    vectors: np.ndarray  # float32 (capacity, dims)
    codes: np.ndarray  # uint64 (dims / 64, capacity)

    @classmethod
    def holding(cls, rows: int) -> Buffers:
        capacity = rows + rows // 16 + 2
        return cls(
            np.zeros((capacity, EMBEDDING_DIMENSIONS), dtype=np.float32),
            np.zeros((EMBEDDING_DIMENSIONS // 64, capacity), dtype=np.uint64),
        )

    @property
    def capacity(self) -> int:
        return int(self.vectors.shape[0])


@dataclass
class Entry:
    """One subject's searchable facts as read at `version` of its change log."""

    version: tuple[int, int]  # (count, sum of ids) of the subject's change rows when read
    last_change: int  # the highest change row id read (0 for none): the rows above it are the news
    ids: np.ndarray  # int64: the fact of each row (ascending over the rows of a whole read)
    vectors: np.ndarray  # float32, one normalised row per id (zeros where has_vector is false)
    # uint64 (dims / 64, n): each vector's sign bits, as pgvector's binary_quantize sets them; row w holds word w
    # of every fact side by side, so a query's Hamming distances are six passes over contiguous memory.
    codes: np.ndarray
    has_vector: np.ndarray  # bool
    expires: np.ndarray  # float64 epoch seconds, inf when the fact does not expire
    lengths: np.ndarray  # float64: GREATEST(length(search_vector), 1), BM25's document length
    postings: dict[str, np.ndarray]  # lexeme of search_vector -> rows of the whole read holding it (int32, ascending)
    texts: list[str]  # the facts' text (Chinese terms are matched as substrings of it); "" for a dead row
    loaded: float  # time.monotonic() of the whole read (a refresh keeps it: the entry's age counts from there)
    lexeme_counts: np.ndarray  # int32: how many lexemes each row's search_vector has
    buffers: Buffers
    object_bytes: int  # the texts' and postings' memory, roughly (counted once: a search's check reads nbytes)
    extra_postings: dict[str, np.ndarray] = field(default_factory=dict)  # the same for rows a refresh appended
    order: np.ndarray | None = None  # the live rows in id order; None: every row, in row order
    dead: int = 0  # rows a refresh replaced or removed
    # The texts joined by NUL and where each starts (rows_containing's index), made on the first Chinese term.
    _joined: tuple[str, list[int]] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def size(self) -> int:
        """How many facts the entry holds (its live rows)."""
        return len(self.ids) - self.dead

    def live_rows(self, mask: np.ndarray) -> np.ndarray:
        """The live rows where `mask` (one bool a row) holds, in id order."""
        if self.order is None:
            return np.flatnonzero(mask)
        return self.order[mask[self.order]]

    def posting(self, lexeme: str) -> np.ndarray | None:
        """The rows whose search_vector holds `lexeme` (dead ones too), None when none does."""
        base, extra = self.postings.get(lexeme), self.extra_postings.get(lexeme)
        if base is None or extra is None:
            return base if extra is None else extra
        return np.concatenate((base, extra))

    def rows_containing(self, term: str) -> np.ndarray:
        """One bool a row: whether its text holds `term` (`term in text`; PostgreSQL's strpos(text, term) > 0).

        The texts are searched as one string, joined by NUL (which no PostgreSQL text holds, so no match spans
        two texts): a find in C per matching text, where testing each text in Python cost ~35 ns a row more, and a
        Chinese term is looked up by the keyword signal and again by the vocabulary. A term most texts hold is
        tested text by text (a find per row costs more). The joined copy, made on the first Chinese term, holds
        the texts' characters once more."""
        n = len(self.texts)
        if not term or "\0" in term:
            return np.fromiter((term in text for text in self.texts), dtype=bool, count=n)
        if self._joined is None:
            starts, at = [], 0
            for text in self.texts:
                starts.append(at)
                at += len(text) + 1
            self._joined = ("\0".join(self.texts), starts)
        joined, starts = self._joined
        rows: list[int] = []
        pos = joined.find(term)
        while pos >= 0:
            if len(rows) * 4 > n:  # most texts hold it: text by text is cheaper from here
                return np.fromiter((term in text for text in self.texts), dtype=bool, count=n)
            rows.append(bisect_right(starts, pos) - 1)
            pos = joined.find(term, starts[rows[-1] + 1]) if rows[-1] + 1 < n else -1
        mask = np.zeros(n, dtype=bool)
        mask[rows] = True
        return mask

    @property
    def nbytes(self) -> int:
        arrays = self.ids.nbytes + self.buffers.vectors.nbytes + self.buffers.codes.nbytes + self.has_vector.nbytes
        arrays += self.expires.nbytes + self.lengths.nbytes + self.lexeme_counts.nbytes
        arrays += 0 if self.order is None else self.order.nbytes
        return int(arrays + self.object_bytes)


def _text_bytes(text: str) -> int:
    return len(text.encode("utf-8")) + _OBJECT_BYTES


def _lexeme_bytes(lexeme: str) -> int:  # its place in a posting, and its share of the posting's own cost
    return 4 + len(lexeme) + _OBJECT_BYTES // 8


def _vector(data: bytes) -> np.ndarray:
    """pgvector's binary form (vector_send: two int16, then big-endian float4s) as float32."""
    return np.frombuffer(bytes(data), dtype=">f4", offset=4)


def _codes(vectors: np.ndarray) -> np.ndarray:
    return np.packbits(vectors > 0, axis=1).view(np.uint64).T


def _expiry(at: dt.datetime | None) -> float:
    return _NO_EXPIRY if at is None else at.timestamp()


def entry_from_rows(rows: list[FactRow], *, version: tuple[int, int], last_change: int, loaded: float) -> Entry:
    """An entry of the subject's searchable facts read whole (`rows`, ascending by id)."""
    n = len(rows)
    buffers = Buffers.holding(n)
    vectors = buffers.vectors[:n]
    lexeme_counts = np.zeros(n, dtype=np.int32)
    rows_of: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        if row[1] is not None:
            vectors[i] = _vector(row[1])
        lexemes = row[4] or ()
        lexeme_counts[i] = len(lexemes)
        for lexeme in lexemes:
            rows_of.setdefault(lexeme, []).append(i)
    buffers.codes[:, :n] = _codes(vectors)
    postings = {lexeme: np.array(idx, dtype=np.int32) for lexeme, idx in rows_of.items()}
    object_bytes = sum(p.nbytes + len(k) + _OBJECT_BYTES for k, p in postings.items())
    return Entry(
        version=version,
        last_change=last_change,
        ids=np.array([r[0] for r in rows], dtype=np.int64),
        vectors=vectors,
        codes=buffers.codes[:, :n],
        has_vector=np.array([r[1] is not None for r in rows], dtype=bool),
        expires=np.array([_expiry(r[2]) for r in rows], dtype=np.float64),
        lengths=np.array([r[3] for r in rows], dtype=np.float64),
        postings=postings,
        texts=[r[5] for r in rows],
        loaded=loaded,
        lexeme_counts=lexeme_counts,
        buffers=buffers,
        object_bytes=object_bytes + sum(_text_bytes(r[5]) for r in rows),
    )


def refreshed(
    entry: Entry, rows: list[FactRow], gone: list[int], *, version: tuple[int, int], last_change: int
) -> Entry:
    """`entry` brought to `version` of the change log: `rows` are the changed facts that are searchable now (any
    order), `gone` the changed facts that are not (deleted, superseded, forgotten, archived, another subject's).
    A fact whose row reads as held stays where it is; the others are appended and their old rows die."""
    live = entry.order if entry.order is not None else np.arange(len(entry.ids))
    live_ids = entry.ids[live] if entry.order is not None else entry.ids

    def held_at(fact_id: int) -> int | None:
        j = int(np.searchsorted(live_ids, fact_id))
        return int(live[j]) if j < len(live_ids) and live_ids[j] == fact_id else None

    kill = [at for at in map(held_at, gone) if at is not None]
    add: list[FactRow] = []
    for row in sorted(rows, key=lambda r: r[0]):
        at = held_at(row[0])
        if at is not None and _same(entry, at, row):
            continue
        if at is not None:
            kill.append(at)
        add.append(row)
    if not kill and not add:
        return dataclasses.replace(entry, version=version, last_change=last_change)
    return _patched(entry, live, sorted(kill), add, version=version, last_change=last_change)


def _same(entry: Entry, at: int, row: FactRow) -> bool:
    """Whether the held row `at` already reads as `row` (a write that changed nothing search reads)."""
    _, vector, expires_at, length, lexemes, text = row
    if (vector is not None) != bool(entry.has_vector[at]) or entry.texts[at] != text:
        return False
    if entry.lengths[at] != length or entry.expires[at] != _expiry(expires_at):
        return False
    if vector is not None and not np.array_equal(entry.vectors[at], _vector(vector)):
        return False
    lexemes = lexemes or []
    if entry.lexeme_counts[at] != len(lexemes):
        return False
    for lexeme in lexemes:  # as many as before, each held before: the same (distinct) lexemes
        posting = entry.posting(lexeme)
        if posting is None or at not in posting:
            return False
    return True


def _patched(
    entry: Entry, live: np.ndarray, kill: list[int], add: list[FactRow], *, version: tuple[int, int], last_change: int
) -> Entry:
    """A new entry: `entry`'s rows, `kill` dead, `add` (ascending by id) appended."""
    n, k = len(entry.ids), len(add)
    buffers = entry.buffers
    if n + k > buffers.capacity:
        grown = Buffers.holding(n + k)
        grown.vectors[:n] = buffers.vectors[:n]
        grown.codes[:, :n] = buffers.codes[:, :n]
        buffers = grown
    added = np.zeros((k, EMBEDDING_DIMENSIONS), dtype=np.float32)
    for j, row in enumerate(add):
        if row[1] is not None:
            added[j] = _vector(row[1])
    buffers.vectors[n : n + k] = added  # past every row an entry made before holds
    buffers.codes[:, n : n + k] = _codes(added)
    add_ids = np.array([r[0] for r in add], dtype=np.int64)
    ids = np.concatenate((entry.ids, add_ids))
    texts = [*entry.texts, *(r[5] for r in add)]
    object_bytes = entry.object_bytes + sum(_text_bytes(r[5]) for r in add)
    for at in kill:
        object_bytes -= len(texts[at].encode("utf-8"))
        texts[at] = ""
    extra = dict(entry.extra_postings)
    for j, row in enumerate(add):
        for lexeme in row[4] or ():
            extra[lexeme] = np.append(extra.get(lexeme, _NO_ROWS), np.int32(n + j))
            object_bytes += _lexeme_bytes(lexeme)
    order: np.ndarray | None = None
    if kill or entry.order is not None or (n and k and add_ids[0] <= entry.ids[-1]):
        keep = live[~np.isin(live, kill)] if kill else live
        order = np.insert(keep, np.searchsorted(ids[keep], add_ids), np.arange(n, n + k))
    return dataclasses.replace(
        entry,
        version=version,
        last_change=last_change,
        ids=ids,
        vectors=buffers.vectors[: n + k],
        codes=buffers.codes[:, : n + k],
        has_vector=np.concatenate((entry.has_vector, [r[1] is not None for r in add])).astype(bool),
        expires=np.concatenate((entry.expires, [_expiry(r[2]) for r in add])).astype(np.float64),
        lengths=np.concatenate((entry.lengths, [r[3] for r in add])).astype(np.float64),
        texts=texts,
        lexeme_counts=np.concatenate((entry.lexeme_counts, [len(r[4] or ()) for r in add])).astype(np.int32),
        buffers=buffers,
        object_bytes=object_bytes,
        extra_postings=extra,
        order=order,
        dead=entry.dead + len(kill),
    )
