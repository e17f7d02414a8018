"""The lifecycle jobs: retention policies applied to facts (tiering, expiry, deletion), value rescoring and
consolidation of near-duplicates, batched over ranges of primary keys; see docs/lifecycle.md."""
