"""One module per `forge` subcommand: each has `register(subparsers)` and sets `func` on its parser."""
