"""The server: the ASGI application (:mod:`twentyone.server.app`) and Online Blackjack on it
(:mod:`twentyone.server.online`). Run it with ``twentyone serve``; see ``docs/server.md``."""
