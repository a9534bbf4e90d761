"""Vendored copy of taxlib 0.3 (do not edit)."""
