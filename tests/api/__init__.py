"""Tests of the HTTP service against a real Redis."""
