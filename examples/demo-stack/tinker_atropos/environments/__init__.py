"""Demo environments, discovered statically by the bot (never imported by it)."""
