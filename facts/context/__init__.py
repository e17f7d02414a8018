"""Context assembly: recent turns, summaries, facts and the profile packed under a token budget."""
