"""Helpers shared by environments and the demo trainer."""
