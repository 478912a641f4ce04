"""Other games of the sources, each in its own subpackage (``cats``: Philosopher Cats)."""
