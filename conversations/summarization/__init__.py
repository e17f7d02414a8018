"""Rolling session summaries that never lose whitelisted entities."""
