"""Integration tests against real Redis servers (single and cluster)."""
