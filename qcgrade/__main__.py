"""``python -m qcgrade`` runs the command line."""

from .cli import main

main()
