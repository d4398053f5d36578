"""The migrations, one file each, oldest first (``0001_baseline.py`` ...)."""
