"""Recipes: runnable training entry points (python3 -m tinker_cookbook.recipes.<name>.train)."""
