"""pushluck_teach: a classroom lab for the exact mathematics of push-your-luck card games."""

__version__ = "0.1.0"
