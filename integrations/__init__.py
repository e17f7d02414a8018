"""Where agents already are: the MCP server, the mem0-compatible endpoints and signed webhooks.

The top app: it may import conversations, facts and policies; nothing imports it (the lower apps reach its webhook
tasks by name, see memory_site.events).
"""
