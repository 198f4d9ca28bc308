"""Format readers, one module per family, behind a registry by extension."""
