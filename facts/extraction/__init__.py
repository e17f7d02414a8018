"""Turning messages into candidate facts: the value gate, the rule extractor, the optional LLM extractor."""
