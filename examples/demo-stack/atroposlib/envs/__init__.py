"""Environment base classes (see base.py)."""
