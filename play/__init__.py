"""The use cases, between the HTTP and RQ adapters and the store: a seat, a bot or a deadline
sends a command; a table is opened, joined, started, played again; lost jobs are swept up."""
