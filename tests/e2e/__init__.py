"""End-to-end tests: the `loveletter` command run as a real process."""
