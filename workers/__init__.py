"""RQ jobs run by `rq worker`: bot turns, turn deadlines, notifications."""

QUEUE_NAME = "loveletter"
