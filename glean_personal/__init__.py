"""glean_personal: a portable, local content index for one person's files."""
__version__ = "0.1.0"
