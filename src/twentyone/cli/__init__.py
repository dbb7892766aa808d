"""The ``twentyone`` command: one module per subcommand group."""
