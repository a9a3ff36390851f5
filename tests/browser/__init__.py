"""Tests of the web client in a real browser (Chromium, driven by Playwright)."""
