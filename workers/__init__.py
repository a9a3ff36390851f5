"""RQ adapters run by `rq worker`: bot turns, turn deadlines, webhooks, and the sweep."""
