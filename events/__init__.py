"""The event vocabulary and the Redis event store."""
