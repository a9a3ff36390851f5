"""The HTTP service, the command handler and the `loveletter` command line."""
