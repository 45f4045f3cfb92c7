"""Data generation: the reading vocabulary's generated files, made from pinned well-kept sources.

``python -m qcgrade.datagen`` writes ``qcgrade/reading/vocab/generated/*.toml``
from CLDR (through Babel), the UTS #39 confusables, pySBD's abbreviation
lists and the Unicode Character Database (through ``regex``); ``--check``
compares instead. This is developer tooling: grading never imports it, and
the sources are the ``vocab`` extra, not run-time dependencies.
"""
